import { create } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { OrderStreamMessage } from "../../app/contract.js";
import type { IndexerEvent } from "../../app/indexer-output/indexer-events.js";
import { type OrderRecord, OrdersModel } from "./orders.js";

/** An order of owner `owner`, client id `client`, with `flags` and a good-til-block. */
function order(owner: number, client: number, flags: number, goodTil: number, quantums: bigint): clob.Order {
  return create(clob.OrderSchema, {
    orderId: { subaccountId: { owner: `owner${owner}`, number: 0 }, clientId: client, orderFlags: flags },
    quantums,
    subticks: 10n,
    goodTilOneof:
      flags === 0 ? { case: "goodTilBlock", value: goodTil } : { case: "goodTilBlockTime", value: 9 },
  });
}

type Step =
  | { kind: "stream"; message: OrderStreamMessage }
  | { kind: "event"; event: IndexerEvent }
  | { kind: "block" };

const orderArb = fc
  .record({
    owner: fc.nat(1),
    client: fc.nat(2),
    stateful: fc.boolean(),
    goodTil: fc.nat(12),
    quantums: fc.bigInt(1n, 4n),
  })
  .map(({ owner, client, stateful, goodTil, quantums }) =>
    order(owner, client, stateful ? 64 : 0, goodTil, quantums),
  );

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  orderArb.map((o) => ({ kind: "stream", message: { kind: "place", order: o } }) as Step),
  {
    // Removals weigh more: expiries of several canceled orders in one block, in any order.
    weight: 3,
    arbitrary: orderArb.map(
      (o) =>
        ({
          kind: "stream",
          message: { kind: "remove", orderId: o.orderId as clob.OrderId, reason: "user_canceled" },
        }) as Step,
    ),
  },
  fc.tuple(orderArb, fc.bigInt(0n, 4n)).map(
    ([o, filled]) =>
      ({
        kind: "stream",
        message: { kind: "update", orderId: o.orderId as clob.OrderId, totalFilled: filled },
      }) as Step,
  ),
  fc.tuple(orderArb, orderArb, fc.bigInt(0n, 4n), fc.bigInt(0n, 4n)).map(
    ([taker, maker, takerFilled, makerFilled]) =>
      ({
        kind: "event",
        event: {
          kind: "order_fill",
          clobPairId: 0,
          taker,
          maker,
          quantums: 1n,
          subticks: 10n,
          quoteQuantums: 10n,
          takerFee: 0n,
          makerFee: 0n,
          takerTotalFilled: takerFilled,
          makerTotalFilled: makerFilled,
        },
      }) as Step,
  ),
  orderArb.map((o) => ({ kind: "event", event: { kind: "stateful_order_placed", order: o } }) as Step),
  fc
    .tuple(orderArb, fc.constantFrom("fully_filled", "user_canceled"))
    .map(
      ([o, reason]) =>
        ({ kind: "event", event: { kind: "stateful_order_removed", order: o, reason } }) as Step,
    ),
  fc.constant({ kind: "block" } as Step),
);

/** What a walk over every order would expire at `height` (the reference of `expire`). */
function expectedExpired(model: OrdersModel, height: bigint): OrderRecord[] {
  return [...model.all()].filter((r) => {
    const gt = r.order.goodTilOneof;
    return r.status === "BEST_EFFORT_CANCELED" && gt.case === "goodTilBlock" && BigInt(gt.value) < height;
  });
}

/** What a walk over every order would keep after a prune at `height` (the reference of `prune`). */
function expectedKept(model: OrdersModel, height: bigint): OrderRecord[] {
  return [...model.all()].filter((r) => {
    if (r.status !== "FILLED" && r.status !== "CANCELED") return true;
    const gt = r.order.goodTilOneof;
    const last = r.updatedAtHeight ?? (gt.case === "goodTilBlock" ? BigInt(gt.value) : height);
    return last >= height;
  });
}

describe("orders model", () => {
  it("expires and prunes exactly the orders a walk over all of them finds, in their order", () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 20, maxLength: 120 }),
        fc.integer({ min: 1, max: 4 }),
        (steps, retain) => {
          const model = new OrdersModel();
          let height = 1n;
          let eventIndex = 0;
          for (const step of steps) {
            if (step.kind === "stream") model.applyStream(step.message);
            else if (step.kind === "event")
              model.apply({ height, time: new Date(0), eventIndex: eventIndex++, event: step.event });
            else {
              const expired = expectedExpired(model, height);
              expect(model.expire(height)).toEqual(expired);
              const oldest = height - BigInt(retain) + 1n;
              const kept = expectedKept(model, oldest);
              model.prune(oldest);
              expect([...model.all()]).toEqual(kept);
              for (const owner of ["owner0/0", "owner1/0"]) {
                expect(model.ofSubaccount(owner)).toEqual(kept.filter((r) => r.key.startsWith(`${owner}/`)));
              }
              height++;
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
