import { create, toBinary } from "@bufbuild/protobuf";
import { clob, cosmosBank, subaccounts } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LocalWallet } from "../wallet/localWallet.js";
import { ORDER_FLAGS, placeOrderMsg } from "./clob.js";
import { messageOf } from "./message.js";

const owner = LocalWallet.fromPrivateKey("07".repeat(32)).address;

describe("messageOf", () => {
  it("gives what create gives, and each message its own oneof objects", () => {
    const id = messageOf(subaccounts.SubaccountIdSchema, { owner, number: 3 });
    expect(id).toEqual(create(subaccounts.SubaccountIdSchema, { owner, number: 3 }));
    const a = messageOf(clob.OrderSchema, {});
    const b = messageOf(clob.OrderSchema, { side: clob.Order_Side.BUY });
    expect(a).toEqual(create(clob.OrderSchema));
    expect(b).toEqual(create(clob.OrderSchema, { side: clob.Order_Side.BUY }));
    expect(a.goodTilOneof).not.toBe(b.goodTilOneof);
    (a.goodTilOneof as { case: unknown }).case = "goodTilBlock";
    expect(messageOf(clob.OrderSchema, {}).goodTilOneof.case).toBeUndefined();
    // Schemas with lists go through create: no shared arrays.
    const send = messageOf(cosmosBank.MsgSendSchema, {});
    send.amount.push(create(cosmosBank.MsgSendSchema).amount[0]!);
    expect(messageOf(cosmosBank.MsgSendSchema, {}).amount).toEqual([]);
  });

  it("placeOrderMsg builds the message create would (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff_ffff }),
        fc.constantFrom("short-term" as const, "long-term" as const, "conditional" as const),
        fc.boolean(),
        fc.boolean(),
        (clientId, kind, builder, router) => {
          const common = {
            subaccount: { owner, number: clientId % 128 },
            clientId,
            clobPairId: clientId % 5,
            side: clientId % 2 ? ("BUY" as const) : ("SELL" as const),
            quantums: BigInt(clientId) + 1n,
            subticks: 10n,
            ...(builder ? { builderCode: { builderAddress: owner, feePpm: 10 } } : {}),
            ...(router ? { orderRouterAddress: owner } : {}),
          };
          const message =
            kind === "short-term"
              ? placeOrderMsg({ ...common, kind, goodTilBlock: (clientId % 1000) + 1 })
              : kind === "long-term"
                ? placeOrderMsg({ ...common, kind, goodTilBlockTime: (clientId % 1000) + 1 })
                : placeOrderMsg({
                    ...common,
                    kind,
                    goodTilBlockTime: (clientId % 1000) + 1,
                    conditionType: "STOP_LOSS",
                    triggerSubticks: 5n,
                  });
          const gtb = (clientId % 1000) + 1;
          const rebuilt = create(clob.MsgPlaceOrderSchema, {
            order: {
              orderId: {
                subaccountId: { owner, number: clientId % 128 },
                clientId,
                orderFlags: ORDER_FLAGS[kind],
                clobPairId: clientId % 5,
              },
              side: clientId % 2 ? clob.Order_Side.BUY : clob.Order_Side.SELL,
              quantums: BigInt(clientId) + 1n,
              subticks: 10n,
              goodTilOneof:
                kind === "short-term"
                  ? { case: "goodTilBlock", value: gtb }
                  : { case: "goodTilBlockTime", value: gtb },
              conditionType:
                kind === "conditional"
                  ? clob.Order_ConditionType.STOP_LOSS
                  : clob.Order_ConditionType.UNSPECIFIED,
              conditionalOrderTriggerSubticks: kind === "conditional" ? 5n : 0n,
              orderRouterAddress: router ? owner : "",
              ...(builder ? { builderCodeParameters: { builderAddress: owner, feePpm: 10 } } : {}),
            },
          });
          expect(message.value).toEqual(rebuilt);
          expect(toBinary(clob.MsgPlaceOrderSchema, message.value)).toEqual(
            toBinary(clob.MsgPlaceOrderSchema, rebuilt),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
