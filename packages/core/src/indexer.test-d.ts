/**
 * The indexer contract's types, checked by `vitest --typecheck` and the package's `tsc`: each
 * `@ts-expect-error` must be an error, so a loosened type fails.
 */
import { describe, expectTypeOf, it } from "vitest";
import type {
  FundingPaymentResponseObject,
  IndexerChannel,
  IndexerServerMessage,
  IndexerSubscribeMessage,
  OrderResponseObject,
  OrdersResponse,
  PerpetualMarketResponseObject,
  PerpetualPositionResponseObject,
  SubaccountsSnapshotContents,
} from "./indexer.js";

describe("indexer contract", () => {
  it("keeps decimals as strings and the section-0 exceptions as numbers", () => {
    expectTypeOf<PerpetualMarketResponseObject["oraclePrice"]>().toEqualTypeOf<string>();
    expectTypeOf<PerpetualMarketResponseObject["atomicResolution"]>().toEqualTypeOf<number>();
    expectTypeOf<PerpetualMarketResponseObject["trades24H"]>().toEqualTypeOf<number>();
    expectTypeOf<FundingPaymentResponseObject["subaccountNumber"]>().toEqualTypeOf<string>();
    expectTypeOf<PerpetualPositionResponseObject["exitPrice"]>().toEqualTypeOf<string | null>();
    expectTypeOf<OrdersResponse>().toEqualTypeOf<readonly OrderResponseObject[]>();
  });

  it("narrows server messages by type and channel", () => {
    const handle = (message: IndexerServerMessage): string | undefined => {
      if (message.type === "subscribed" && message.channel === "v4_block_height")
        return message.contents.height;
      if (message.type === "channel_data" && message.channel === "v4_block_height") {
        return message.contents.blockHeight;
      }
      if (message.type === "channel_data" && message.channel === "v4_parent_subaccounts") {
        return String(message.subaccountNumber);
      }
      if (message.type === "channel_batch_data" && message.channel === "v4_orderbook") {
        return message.contents[0]?.bids?.[0]?.[0];
      }
      return undefined;
    };
    expectTypeOf(handle).returns.toEqualTypeOf<string | undefined>();
  });

  it("requires an id on subscriptions except markets and block height", () => {
    const ok: IndexerSubscribeMessage[] = [
      { type: "subscribe", channel: "v4_markets" },
      { type: "subscribe", channel: "v4_trades", id: "BTC-USD", batched: true },
    ];
    expectTypeOf(ok).toBeArray();
    // @ts-expect-error v4_orderbook needs an id
    const missing: IndexerSubscribeMessage = { type: "subscribe", channel: "v4_orderbook" };
    expectTypeOf(missing).not.toBeNever();
    // @ts-expect-error not one of the seven channels
    const unknown: IndexerChannel = "v4_nope";
    expectTypeOf(unknown).toBeString();
  });

  it("allows the empty snapshot of an unknown subaccount", () => {
    const empty: SubaccountsSnapshotContents = {};
    expectTypeOf(empty).not.toBeNever();
  });
});
