/**
 * The public type contract, checked by `vitest --typecheck` (`npm run test:types`) and the package's
 * `tsc`: each `@ts-expect-error` must be an error, so a loosened type fails. Type tests are never
 * run, so the calls below are only type-checked.
 */

import { cosmosBank } from "@perpx/proto";
import { describe, expectTypeOf, it } from "vitest";
import {
  type BroadcastTxError,
  createNodeClient,
  type GetMarketParams,
  type Market,
  type NodeClient,
  type NodeConnection,
  type PlaceOrderParams,
  type SendTxResult,
  type TxSigner,
} from "../src/index.js";
import { createQueryClient } from "../src/queries.js";
import { placeOrderMsg } from "../src/tx.js";

declare const client: NodeClient;
declare const signer: TxSigner;
const subaccount = { owner: "perpx1...", number: 0 };
const common = { subaccount, clientId: 1, clobPairId: 0, side: "BUY" as const, quantums: 1n, subticks: 1n };

describe("types", () => {
  it("orders carry the expiry that matches their kind", () => {
    expectTypeOf<Extract<PlaceOrderParams, { kind: "short-term" }>>().toHaveProperty("goodTilBlock");
    expectTypeOf<Extract<PlaceOrderParams, { kind: "long-term" }>>().toHaveProperty("goodTilBlockTime");
    expectTypeOf<Extract<PlaceOrderParams, { kind: "conditional" }>>().toHaveProperty("triggerSubticks");
    // @ts-expect-error a short-term order has no goodTilBlockTime
    placeOrderMsg({ ...common, kind: "short-term", goodTilBlockTime: 1 });
    // @ts-expect-error a conditional order needs its condition
    placeOrderMsg({ ...common, kind: "conditional", goodTilBlockTime: 1 });
    // @ts-expect-error sizes are bigint, decimal strings or numbers, never objects
    placeOrderMsg({ ...common, quantums: { value: 1 }, kind: "short-term", goodTilBlock: 1 });
    // @ts-expect-error sides are BUY or SELL
    placeOrderMsg({ ...common, side: "buy", kind: "short-term", goodTilBlock: 1 });
  });

  it("sending returns what the chain said, errors carry the chain's code apart from the perpx code", () => {
    expectTypeOf<ReturnType<NodeClient["sendTx"]>>().resolves.toEqualTypeOf<SendTxResult>();
    expectTypeOf<SendTxResult["height"]>().toEqualTypeOf<bigint | undefined>();
    expectTypeOf<BroadcastTxError["code"]>().toEqualTypeOf<
      | "INVALID_ADDRESS"
      | "INVALID_SUBACCOUNT"
      | "INVALID_CREDENTIAL"
      | "INVALID_ORDER"
      | "INVALID_AMOUNT"
      | "INVALID_ARGUMENT"
      | "UNKNOWN_NETWORK"
      | "MISSING_ENDPOINT"
      | "UNKNOWN_TYPE_URL"
      | "DECODE"
      | "BROADCAST_TX"
      | "QUERY"
      | "INDEXER_HTTP"
      | "WEBSOCKET_CLOSED"
      | "TRANSPORT"
      | "TIMEOUT"
      | "ABORTED"
      | "OUTCOME_UNKNOWN"
      | "DEVNET"
      | "MISSING_DEPENDENCY"
    >();
    expectTypeOf<BroadcastTxError["abciCode"]>().toEqualTypeOf<number>();
    // @ts-expect-error messages are required
    void client.sendTx({ signer });
    // @ts-expect-error broadcast modes are sync, async or commit
    void client.sendTx({ signer, messages: [], broadcastMode: "block" });
    // @ts-expect-error one options object per call
    void client.getBalances("perpx1...");
  });

  it("a client's methods are its actions without the client argument", () => {
    expectTypeOf<NodeClient["getMarket"]>().toEqualTypeOf<(params: GetMarketParams) => Promise<Market>>();
    const mine = createNodeClient({ nodeRpc: "http://127.0.0.1:1" }).extend({
      double: async (_c: NodeConnection, params: { n: number }) => params.n * 2,
    });
    expectTypeOf(mine.double).toEqualTypeOf<(params: { n: number }) => Promise<number>>();
    expectTypeOf(mine.getMarket).toEqualTypeOf<NodeClient["getMarket"]>();
    if (Math.random() > 2) {
      // @ts-expect-error an order in human units needs the market it converts on
      placeOrderMsg({
        subaccount,
        clientId: 1,
        side: "BUY",
        size: "1",
        price: "1",
        kind: "short-term",
        goodTilBlock: 1,
      });
      // @ts-expect-error the caches are private
      void client.chainIdCache;
      // @ts-expect-error one options object: no positional tails
      void client.checkUpgradeHistory({ network: undefined as never }, {});
    }
    expectTypeOf(mine.double).toBeFunction();
  });
  it("createQueryClient types each method from the service descriptor", () => {
    const bank = createQueryClient(client, cosmosBank.Query);
    expectTypeOf(
      bank.supplyOf({ denom: "uusdc" }),
    ).resolves.toEqualTypeOf<cosmosBank.QuerySupplyOfResponse>();
    // @ts-expect-error the request's fields are typed: a denom is a string
    void bank.supplyOf({ denom: 1 });
    // @ts-expect-error only the service's methods exist
    void bank.noSuchMethod;
  });
});
