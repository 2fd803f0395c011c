/**
 * Strict tool inputs, fuzzed: arguments with a non-canonical decimal, a non-boolean flag, a
 * non-integer number or an argument the tool does not know are refused with `INVALID_INPUT` naming
 * the field, and the devnet sees no transaction of the account for any of them (counted at CheckTx,
 * where every broadcast lands).
 */

import { CANONICAL_DECIMAL_PATTERN } from "@perpx/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { call, countBroadcasts, refused, useMcpNet } from "./support.js";

const net = useMcpNet();
const canonical = new RegExp(CANONICAL_DECIMAL_PATTERN);

const wrongType = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);
const badDecimal = fc.oneof(
  fc.constantFrom(" 1", "1\n", "+1", ".5", "5.", "1e5", "1E-3", "-1", "1,5", "0x1f", "NaN", "Infinity"),
  fc.constantFrom("1 000", "１", "", "0", "0.000", "1..2", "٣", "1_000", "\t2", "2 "),
  fc.string().filter((s) => !canonical.test(s)),
  fc
    .tuple(fc.stringMatching(canonical), fc.constantFrom(" ", "\n", "e5", ".", "+", "-"), fc.boolean())
    .map(([digits, junk, before]) => (before ? junk + digits : digits + junk)),
  wrongType.filter((v) => typeof v !== "string"),
);
const badBoolean = fc.oneof(
  fc.constantFrom("false", "true", "0", "1", "yes", ""),
  fc.integer(),
  fc.constant(null),
  fc.constant([]),
);
const badInteger = fc.oneof(
  fc.string(),
  fc.double({ noNaN: true }).filter((n) => !Number.isInteger(n)),
  fc.boolean(),
  fc.constant(null),
);
/** A plausible argument name no tool knows (a typo, another casing, another API's option). */
const unknownKey = (known: readonly string[]) =>
  fc
    .oneof(
      fc.constantFrom(
        "post_only",
        "reduce_only",
        "sizee",
        "Size",
        "notional",
        "caPem",
        "goodTil",
        "PostOnly",
      ),
      fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,15}$/),
    )
    .filter((key) => !known.includes(key) && key !== "__proto__");

const PLACE_KEYS = [
  "ticker",
  "side",
  "type",
  "size",
  "notionalUsd",
  "price",
  "slippageBps",
  "timeInForce",
  "postOnly",
  "reduceOnly",
  "goodTilSeconds",
  "clientId",
  "dryRun",
  "confirm",
  "verifyTimeoutMs",
];
/** One corrupted argument of `place_order`: its name and value. */
const placeCorruption = fc.oneof(
  fc.tuple(fc.constantFrom("size", "notionalUsd", "price"), badDecimal),
  fc.tuple(fc.constantFrom("postOnly", "reduceOnly", "dryRun", "confirm"), badBoolean),
  fc.tuple(fc.constantFrom("clientId", "goodTilSeconds", "slippageBps", "verifyTimeoutMs"), badInteger),
  fc.tuple(unknownKey(PLACE_KEYS), fc.oneof(fc.boolean(), fc.string(), fc.integer())),
);
/** A cancel tool, its valid arguments and one corrupted argument. */
const cancelCorruption = fc.oneof(
  fc.tuple(
    fc.constant("cancel_order"),
    fc.constant({ ticker: "BTC-USD" }),
    fc.constant("clientId"),
    badInteger,
  ),
  fc.tuple(
    fc.constant("batch_cancel_orders"),
    fc.constant({ ticker: "BTC-USD" }),
    fc.constant("clientIds"),
    badInteger.map((v) => [v]),
  ),
  fc.tuple(
    fc.constant("cancel_all_orders"),
    fc.constant({ ticker: "BTC-USD", confirm: true }),
    fc.constant("allMarkets"),
    badBoolean,
  ),
  fc
    .tuple(
      fc.constantFrom(
        ["cancel_order", { ticker: "BTC-USD", clientId: 1 }] as const,
        ["batch_cancel_orders", { ticker: "BTC-USD", clientIds: [1] }] as const,
        ["cancel_all_orders", { ticker: "BTC-USD" }] as const,
      ),
      unknownKey(["ticker", "clientIds", "clientId", "orderId", "allMarkets", "confirm", "verifyTimeoutMs"]),
      fc.boolean(),
    )
    .map(([[tool, valid], field, value]) => [tool, valid, field, value] as const),
);

describe("strict tool inputs (fuzz)", () => {
  let client: Awaited<ReturnType<typeof net.connect>>;
  let counter: ReturnType<typeof countBroadcasts>;
  let base: Record<string, unknown>;

  beforeAll(async () => {
    const account = await net.account();
    client = await net.connect(account.credential);
    counter = countBroadcasts(net.devnet, account.owner.address);
    const { market } = await call(client, "get_market", { ticker: "BTC-USD" });
    base = {
      ticker: "BTC-USD",
      side: "BUY",
      type: "LIMIT",
      size: "0.001",
      price: String(Math.floor(Number(market.oraclePrice) * 0.95)),
    };
    return () => counter.restore();
  });

  it("counts the account's broadcasts: a valid order is one", async () => {
    const before = counter.count();
    const placed = await call(client, "place_order", base);
    expect(placed.verification.state).toBe("RESTING");
    expect(counter.count() - before).toBe(1);
    await call(client, "cancel_all_orders", { ticker: "BTC-USD" });
    expect(counter.count() - before).toBe(2);
  });

  it("refuses every corrupted argument as INVALID_INPUT naming it, and signs nothing", async () => {
    const tally = { cases: 0, refused: 0, signed: 0 };
    const refusedNaming = async (tool: string, args: Record<string, unknown>, field: string) => {
      const before = counter.count();
      const error = await refused(client, tool, args).catch((e: unknown) => ({
        code: "ACCEPTED",
        message: String(e),
      }));
      const signed = counter.count() - before;
      tally.cases += 1;
      tally.signed += signed;
      if (error.code === "INVALID_INPUT") tally.refused += 1;
      expect(error.code, `${tool} ${JSON.stringify(args)}`).toBe("INVALID_INPUT");
      expect(error.message, `${tool} ${JSON.stringify(args)}`).toContain(field);
      expect(signed, `${tool} ${JSON.stringify(args)}`).toBe(0);
    };
    try {
      await fc.assert(
        fc.asyncProperty(placeCorruption, async ([field, value]) => {
          await refusedNaming("place_order", { ...base, [field]: value }, field);
        }),
        { numRuns: 200 },
      );
      await fc.assert(
        fc.asyncProperty(cancelCorruption, async ([tool, valid, field, value]) => {
          await refusedNaming(tool, { ...valid, [field]: value }, field);
        }),
        { numRuns: 60 },
      );
    } finally {
      console.info(
        `strict tool inputs fuzz: cases ${tally.cases}, refused ${tally.refused}, signed: ${tally.signed}`,
      );
    }
    expect(tally.signed).toBe(0);
    expect(tally.refused).toBe(tally.cases);
  }, 300_000);
});
