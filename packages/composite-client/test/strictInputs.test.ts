/**
 * Strict inputs: a decimal is only ever a canonical string (or a Decimal), a flag only a boolean,
 * an options object only the keys of its type. Every other input is a typed error naming the field
 * before anything is signed; the fuzz test counts the signatures and prints them.
 */
import {
  isInvalidAmountError,
  isInvalidArgumentError,
  isInvalidOrderError,
  isUnknownOptionError,
  type PerpxError,
} from "@perpx/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CompositeClient, type HumanOrder } from "../src/index.js";
import { endpointsOf, fundedWallet, recordingSigner, useDevnet } from "./support.js";

const net = useDevnet();

/** The non-canonical decimal strings, and other strings no field takes. */
const NON_CANONICAL = [
  " 1",
  "1\n",
  "+1",
  ".5",
  "5.",
  "1e5",
  "1E-3",
  "0x10",
  "1,000",
  "NaN",
  "Infinity",
  "",
  "-",
];

/** Values no decimal, flag or options field takes. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...NON_CANONICAL),
  fc.constantFrom<unknown>(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, null, 1n, [], {}),
  fc.constantFrom<unknown>("false", "true", 0, 1, "1".repeat(100_000), `${"9".repeat(2_000)}.5`),
  fc.double(),
  fc.array(fc.string(), { minLength: 1, maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { minKeys: 1, maxKeys: 3 }),
  fc.string({ maxLength: 8 }).filter((s) => !/^[0-9]+(\.[0-9]+)?$/.test(s)),
);

/** The field an error names: an order's field, an argument's name, or an amount's kind. */
function namedField(error: PerpxError): string | undefined {
  if (isInvalidOrderError(error)) return error.field;
  if (isInvalidArgumentError(error)) return error.argument;
  if (isInvalidAmountError(error)) return error.kind;
  return undefined;
}

/** The names a refusal of `field` may carry (a trigger price is a price; `to.x` is under `to`). */
function acceptedNames(field: string, where: string): string[] {
  if (field === "(params)") return [`${where} options`];
  if (field === "triggerPrice") return ["triggerPrice", "price"];
  return [field];
}

function names(error: PerpxError, field: string, where: string): boolean {
  const named = namedField(error);
  return (
    named !== undefined &&
    acceptedNames(field, where).some((name) => named === name || named.startsWith(`${name}.`))
  );
}

describe("strict inputs", () => {
  it("connect refuses an option it does not know, naming it and the accepted ones", async () => {
    const { devnet } = net;
    const wallet = net.wallets[0];
    const options = { network: "local", endpoints: endpointsOf(devnet), caPem: devnet.caPem, wallet };
    const error = await CompositeClient.connect(options as never).catch((e: unknown) => e);
    expect(isUnknownOptionError(error) && error.argument).toBe("caPem");
    expect(isUnknownOptionError(error) && error.accepted).toContain("grpcCaCert");
    const typo = {
      network: "local",
      endpoints: { ...endpointsOf(devnet), indexr: devnet.endpoints.indexer },
    };
    const nested = await CompositeClient.connect(typo as never).catch((e: unknown) => e);
    expect(isUnknownOptionError(nested) && [nested.argument, nested.suggestion]).toEqual([
      "endpoints.indexr",
      "indexer",
    ]);
  });

  it("connect takes timeoutMs as its calls' deadline, and refuses one that is not a positive number of ms", async () => {
    const patient = await net.connect({ timeoutMs: 45_000 });
    expect(patient.context.node.timeoutMs).toBe(45_000);
    expect((await patient.getMarket({ ticker: "BTC-USD", refresh: true })).ticker).toBe("BTC-USD");
    for (const timeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "5000"]) {
      const error = await net.connect({ timeoutMs } as never).catch((e: unknown) => e);
      expect(String(error), String(timeoutMs)).toMatch(/timeoutMs/);
      expect(isInvalidArgumentError(error), String(error)).toBe(true);
    }
  });

  it('refuses postOnly: "false", a wrong-type goodTil and an unknown order key, and signs nothing', async () => {
    const { signer, signed } = recordingSigner(await fundedWallet(net.devnet));
    const client = await net.connect({ signer });
    const base = { market: "BTC-USD", side: "BUY", size: "0.001", price: "1000" } as const;
    const refusals: [unknown, string][] = [
      [{ ...base, postOnly: "false" }, "postOnly"],
      [{ ...base, reduceOnly: 0 }, "reduceOnly"],
      [{ ...base, goodTil: 20 }, "goodTil"],
      [{ ...base, goodTil: "20" }, "goodTil"],
      [{ ...base, goodTil: { blocks: 5, seconds: 60 } }, "goodTil"],
      [{ ...base, goodTil: { block: 5 } }, "goodTil.block"],
      [{ ...base, goodTil: { blocks: "5" } }, "goodTil.blocks"],
      [{ ...base, sise: "0.002" }, "sise"],
      [{ ...base, size: "1e-3" }, "size"],
      [{ ...base, price: " 1000" }, "price"],
    ];
    for (const [order, field] of refusals) {
      const error = await client.placeOrder(order as HumanOrder).catch((e: unknown) => e);
      expect(namedField(error as PerpxError), JSON.stringify(order)).toBe(field);
    }
    expect(signed).toEqual([]);
  });

  it("fuzz: hostile inputs to placeOrder, transfer, withdraw and deposit are refused, typed and named; 0 signed", async () => {
    const { signer, signed } = recordingSigner(await fundedWallet(net.devnet));
    const client = await net.connect({ signer });
    await client.getMarket({ ticker: "BTC-USD" }); // cached: a refused order makes no network call
    const orderKeys = ["market", "side", "type", "size", "price", "slippage", "timeInForce", "postOnly"];
    orderKeys.push("reduceOnly", "goodTil", "clientId", "triggerPrice", "rounding");
    const limit = { market: "BTC-USD", side: "BUY", size: "0.001", price: "1000" };
    const marketOrder = { market: "BTC-USD", side: "BUY", type: "MARKET", size: "0.001", slippage: "1%" };
    const calls: {
      name: string;
      base: object;
      keys: string[];
      fields: string[];
      run: (p: unknown) => Promise<unknown>;
    }[] = [
      {
        name: "placeOrder",
        base: limit,
        keys: orderKeys,
        fields: ["size", "price", "postOnly", "reduceOnly", "goodTil", "triggerPrice", "(params)"],
        run: (p) => client.placeOrder(p as HumanOrder),
      },
      {
        name: "placeOrder",
        base: marketOrder,
        keys: orderKeys,
        fields: ["size", "slippage", "reduceOnly", "goodTil", "price"],
        run: (p) => client.placeOrder(p as HumanOrder),
      },
      {
        name: "transfer",
        base: { amount: "1", to: { number: 1 } },
        keys: ["amount", "from", "to"],
        fields: ["amount", "from", "to", "(params)"],
        run: (p) => client.transfer(p as never),
      },
      {
        name: "withdraw",
        base: { amount: "1" },
        keys: ["amount", "recipient"],
        fields: ["amount", "(params)"],
        run: (p) => client.withdraw(p as never),
      },
      {
        name: "deposit",
        base: { amount: "1" },
        keys: ["amount"],
        fields: ["amount", "(params)"],
        run: (p) => client.deposit(p as never),
      },
    ];
    const counts = { cases: 0, refused: 0, signed: 0 };
    for (const call of calls) {
      const mutation = fc.oneof(
        fc
          .tuple(fc.constantFrom(...call.fields), hostile)
          .map(([field, value]) => ({ field, value, unknown: false })),
        fc
          .tuple(fc.string({ minLength: 1, maxLength: 12 }), hostile)
          .filter(([key]) => !call.keys.includes(key))
          .map(([field, value]) => ({ field, value, unknown: true })),
      );
      await fc.assert(
        fc.asyncProperty(mutation, async ({ field, value, unknown }) => {
          // The whole params replaced: by anything but an object (an object is a set of keys, above).
          fc.pre(field !== "(params)" || typeof value !== "object" || value === null || Array.isArray(value));
          counts.cases += 1;
          const params = field === "(params)" ? value : { ...call.base, [field]: value };
          const error = await call.run(params).then(
            () => undefined,
            (e: unknown) => e,
          );
          const shown = `${call.name} ${field}=${fc.stringify(value).slice(0, 60)}: ${String(error)}`;
          if (unknown) expect(isUnknownOptionError(error) && error.argument, shown).toBe(field);
          else expect(error !== undefined && names(error as PerpxError, field, call.name), shown).toBe(true);
          counts.refused += 1;
        }),
        { numRuns: 150 },
      );
    }
    counts.signed = signed.length;
    console.log(
      `strict inputs fuzz: cases ${counts.cases}, refused ${counts.refused}, signed ${counts.signed}`,
    );
    expect(counts.refused).toBe(counts.cases);
    expect(counts.signed).toBe(0);
    // The recorder does record: one valid deposit is one signature.
    await client.deposit({ amount: "1" });
    expect(signed).toHaveLength(1);
  });
});
