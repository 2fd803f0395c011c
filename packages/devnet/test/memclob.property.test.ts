/**
 * A property of the memclob and the proposed operations: random order flows of signed txs (places
 * with every time in force, reduce-only, replacements by reused client ids, cancels, blocks) keep
 * the sum of every subaccount's USDC plus the fees collected constant, and no order is both resting
 * and fully filled (as the order stream reports the book).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { clob, cosmosBank, decodeSerializableInt, subaccounts } from "@perpx/proto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createChainApp } from "../src/app/app.js";
import type { OrderStreamMessage, PersistentChainApp } from "../src/app/contract.js";
import { GENESIS_ACCOUNTS } from "../src/app/genesis/genesis-accounts.js";
import { bech32Of, moduleAddress } from "../src/app/lib/addresses.js";
import { placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";

const GENESIS_TIME = new Date("2026-01-01T00:00:00Z");
const PRICE = 6_500_000_000n;
let traders: TestSigner[];

beforeAll(async () => {
  traders = await Promise.all(GENESIS_ACCOUNTS.slice(0, 3).map((a, i) => testSigner(a.mnemonic, i)));
});

function usdcOf(app: PersistentChainApp, owner: string): bigint {
  const res = app.query(
    "/perpx.subaccounts.v1.Query/Subaccount",
    toBinary(
      subaccounts.QueryGetSubaccountRequestSchema,
      create(subaccounts.QueryGetSubaccountRequestSchema, { owner, number: 0 }),
    ),
  );
  const found = fromBinary(subaccounts.QuerySubaccountResponseSchema, res.value).subaccount;
  const usdc = found?.assetPositions.find((p) => p.assetId === 0);
  return usdc === undefined ? 0n : decodeSerializableInt(usdc.quantums);
}

function feesCollected(app: PersistentChainApp): bigint {
  const res = app.query(
    "/cosmos.bank.v1beta1.Query/Balance",
    toBinary(
      cosmosBank.QueryBalanceRequestSchema,
      create(cosmosBank.QueryBalanceRequestSchema, {
        address: bech32Of(moduleAddress("fee_collector")),
        denom: "uusdc",
      }),
    ),
  );
  return BigInt(fromBinary(cosmosBank.QueryBalanceResponseSchema, res.value).balance?.amount ?? "0");
}

type Step =
  | {
      kind: "place";
      trader: number;
      clientId: number;
      buy: boolean;
      ticks: number;
      lots: number;
      tif: clob.Order_TimeInForce;
      reduceOnly: boolean;
      ahead: number;
    }
  | { kind: "cancel"; trader: number; clientId: number; ahead: number }
  | { kind: "block" };

const TIFS = [
  clob.Order_TimeInForce.UNSPECIFIED,
  clob.Order_TimeInForce.IOC,
  clob.Order_TimeInForce.POST_ONLY,
];

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("place" as const),
      trader: fc.integer({ min: 0, max: 2 }),
      clientId: fc.integer({ min: 1, max: 4 }),
      buy: fc.boolean(),
      ticks: fc.integer({ min: -3, max: 3 }),
      lots: fc.integer({ min: 1, max: 5 }),
      tif: fc.constantFrom(...TIFS),
      reduceOnly: fc.boolean(),
      ahead: fc.integer({ min: 1, max: 6 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("cancel" as const),
      trader: fc.integer({ min: 0, max: 2 }),
      clientId: fc.integer({ min: 1, max: 4 }),
      ahead: fc.integer({ min: 1, max: 6 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "block" as const }) },
);

function idKey(id: clob.OrderId | undefined): string {
  return `${id?.subaccountId?.owner}/${id?.clientId}/${id?.clobPairId}`;
}

describe("memclob property", () => {
  it("property: USDC of every subaccount plus fees collected is conserved; no order rests fully filled", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
        const app = createChainApp({ profile: "local", genesisTime: GENESIS_TIME });
        app.control.setOracleWalk(false);
        app.control.setOraclePrice("BTC-USD", "65000");
        for (const t of traders) app.control.fundSubaccount(t.address, 0, 50_000_000_000n);
        const total = () => traders.reduce((sum, t) => sum + usdcOf(app, t.address), 0n) + feesCollected(app);
        const mine = () => app.produceBlock(new Date(app.latestBlock().time.getTime() + 1_000));
        mine();
        const start = total();
        // The book as the stream tells it: resting orders and their sizes and fills.
        const resting = new Map<string, { quantums: bigint; filled: bigint }>();
        app.onOrderStream((messages: readonly OrderStreamMessage[]) => {
          for (const m of messages) {
            if (m.kind === "place" || m.kind === "replace") {
              const prior = m.kind === "replace" ? resting.get(idKey(m.oldOrder.orderId)) : undefined;
              resting.set(idKey(m.order.orderId), {
                quantums: m.order.quantums,
                filled: prior?.filled ?? 0n,
              });
            } else if (m.kind === "update") {
              const entry = resting.get(idKey(m.orderId));
              if (entry !== undefined) entry.filled = m.totalFilled;
            } else {
              resting.delete(idKey(m.orderId));
            }
          }
        });
        const height = () => Number(app.latestBlock().height);
        for (const s of steps) {
          if (s.kind === "block") {
            mine();
            expect(total()).toBe(start);
            continue;
          }
          const trader = traders[s.trader] as TestSigner;
          const msg =
            s.kind === "place"
              ? placeMsg({
                  owner: trader.address,
                  clientId: s.clientId,
                  side: s.buy ? "buy" : "sell",
                  quantums: BigInt(s.lots) * 1_000_000n,
                  subticks: PRICE + BigInt(s.ticks) * 100_000n,
                  goodTilBlock: height() + s.ahead,
                  timeInForce: s.reduceOnly ? clob.Order_TimeInForce.IOC : s.tif,
                  reduceOnly: s.reduceOnly,
                })
              : {
                  schema: clob.MsgCancelOrderSchema,
                  value: create(clob.MsgCancelOrderSchema, {
                    orderId: {
                      subaccountId: { owner: trader.address, number: 0 },
                      clientId: s.clientId,
                      orderFlags: 0,
                      clobPairId: 0,
                    },
                    goodTilOneof: { case: "goodTilBlock", value: height() + s.ahead },
                  }),
                };
          app.checkTx(await signMsgs(trader, app.info.chainId, 0n, [msg as never], 0n));
          for (const [key, entry] of resting) {
            expect(entry.filled < entry.quantums, `${key} rests fully filled`).toBe(true);
          }
        }
        mine();
        expect(total()).toBe(start);
        // Nothing of it entered a block but the proposer's tx.
        expect(app.latestBlock().txs).toHaveLength(1);
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
