import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressBytesToBech32 } from "./bech32.js";
import { type InvalidSubaccountReason, isInvalidAddressError, isInvalidSubaccountError } from "./errors.js";
import { addressBytesToHex } from "./hex.js";
import {
  CHILD_SUBACCOUNT_STRIDE,
  childSubaccountIndex,
  childSubaccountNumber,
  formatSubaccountId,
  isParentSubaccountNumber,
  MAX_PARENT_SUBACCOUNT_NUMBER,
  MAX_SUBACCOUNT_NUMBER,
  parentSubaccountNumber,
  parseSubaccountId,
  type SubaccountRef,
  validateSubaccountNumber,
} from "./subaccount.js";

const HEX = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const OWNER = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";

/** The reason of the InvalidSubaccountError `fn` throws; fails on any other outcome. */
function reasonOf(fn: () => unknown): InvalidSubaccountReason {
  try {
    fn();
  } catch (error) {
    if (isInvalidSubaccountError(error)) {
      expect(error.code).toBe("INVALID_SUBACCOUNT");
      return error.reason;
    }
    throw new Error(`expected an InvalidSubaccountError, got ${String(error)}`);
  }
  throw new Error("expected an InvalidSubaccountError, got no error");
}

const subaccountNumber = fc.integer({ min: 0, max: MAX_SUBACCOUNT_NUMBER });
const parent = fc.integer({ min: 0, max: MAX_PARENT_SUBACCOUNT_NUMBER });
const owner = fc.uint8Array({ minLength: 20, maxLength: 20 });

describe("constants", () => {
  it("match the chain's rules", () => {
    expect(MAX_PARENT_SUBACCOUNT_NUMBER).toBe(127);
    expect(CHILD_SUBACCOUNT_STRIDE).toBe(128);
    expect(MAX_SUBACCOUNT_NUMBER).toBe(128_000);
  });
});

describe("validateSubaccountNumber", () => {
  it("returns valid numbers unchanged", () => {
    for (const n of [0, 1, 127, 128, 127_999, 128_000]) expect(validateSubaccountNumber(n)).toBe(n);
  });

  it.each([
    [-1, "out-of-range"],
    [128_001, "out-of-range"],
    [2 ** 32, "out-of-range"],
    [Number.MAX_SAFE_INTEGER, "out-of-range"],
    [-0.5, "not-an-integer"],
    [1.5, "not-an-integer"],
    [Number.NaN, "not-an-integer"],
    [Number.POSITIVE_INFINITY, "not-an-integer"],
  ] as const)("rejects %d as %s", (n, reason) => {
    expect(reasonOf(() => validateSubaccountNumber(n))).toBe(reason);
  });

  it("rejects values that are not numbers", () => {
    expect(reasonOf(() => validateSubaccountNumber("1" as unknown as number))).toBe("not-an-integer");
    expect(reasonOf(() => validateSubaccountNumber(1n as unknown as number))).toBe("not-an-integer");
  });

  it("says what the range is", () => {
    expect(() => validateSubaccountNumber(128_001)).toThrow(/must be between 0 and 128000, got 128001/);
  });
});

describe("parent and child subaccount numbers", () => {
  it("follow the worked examples", () => {
    expect(parentSubaccountNumber(0)).toBe(0);
    expect(parentSubaccountNumber(127)).toBe(127);
    expect(parentSubaccountNumber(128)).toBe(0);
    expect(parentSubaccountNumber(259)).toBe(3);
    expect(parentSubaccountNumber(128_000)).toBe(0);
    expect(childSubaccountIndex(259)).toBe(2);
    expect(childSubaccountNumber(3, 2)).toBe(259);
    expect(childSubaccountNumber(0, 1000)).toBe(128_000);
    expect(childSubaccountNumber(127, 999)).toBe(127_999);
  });

  it("reject children beyond the maximum and parents above 127", () => {
    expect(reasonOf(() => childSubaccountNumber(1, 1000))).toBe("out-of-range");
    expect(reasonOf(() => childSubaccountNumber(0, 1001))).toBe("out-of-range");
    expect(reasonOf(() => childSubaccountNumber(128, 0))).toBe("out-of-range");
    expect(reasonOf(() => childSubaccountNumber(-1, 0))).toBe("out-of-range");
    expect(reasonOf(() => childSubaccountNumber(0, -1))).toBe("out-of-range");
    expect(reasonOf(() => childSubaccountNumber(0.5, 0))).toBe("not-an-integer");
    expect(reasonOf(() => childSubaccountNumber(0, 0.5))).toBe("not-an-integer");
    expect(() => childSubaccountNumber(128, 0)).toThrow(
      /a parent subaccount number must be between 0 and 127/,
    );
    expect(() => childSubaccountNumber(1, 1000)).toThrow(
      /the child index of parent 1 must be between 0 and 999/,
    );
    expect(reasonOf(() => parentSubaccountNumber(128_001))).toBe("out-of-range");
    expect(reasonOf(() => childSubaccountIndex(-1))).toBe("out-of-range");
  });

  it("isParentSubaccountNumber never throws", () => {
    expect(isParentSubaccountNumber(0)).toBe(true);
    expect(isParentSubaccountNumber(127)).toBe(true);
    for (const n of [128, -1, 0.5, Number.NaN, 1e9]) expect(isParentSubaccountNumber(n)).toBe(false);
    expect(isParentSubaccountNumber("1" as unknown as number)).toBe(false);
  });

  it("split every valid number into parent and child index and back", () => {
    fc.assert(
      fc.property(subaccountNumber, (n) => {
        const p = parentSubaccountNumber(n);
        const k = childSubaccountIndex(n);
        expect(isParentSubaccountNumber(p)).toBe(true);
        expect(n).toBe(p + CHILD_SUBACCOUNT_STRIDE * k);
        expect(childSubaccountNumber(p, k)).toBe(n);
        expect(isParentSubaccountNumber(n)).toBe(n === p);
      }),
    );
  });

  it("build every child within range from its parent and index and back", () => {
    fc.assert(
      fc.property(parent, fc.integer({ min: 0, max: 1001 }), (p, k) => {
        const child = p + CHILD_SUBACCOUNT_STRIDE * k;
        if (child > MAX_SUBACCOUNT_NUMBER) {
          expect(reasonOf(() => childSubaccountNumber(p, k))).toBe("out-of-range");
          return;
        }
        expect(childSubaccountNumber(p, k)).toBe(child);
        expect(parentSubaccountNumber(child)).toBe(p);
        expect(childSubaccountIndex(child)).toBe(k);
      }),
    );
  });

  it("reject every number outside the range", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: MAX_SUBACCOUNT_NUMBER + 1 }), fc.double()),
        (n) => {
          fc.pre(!(Number.isInteger(n) && n >= 0 && n <= MAX_SUBACCOUNT_NUMBER));
          expect(["out-of-range", "not-an-integer"]).toContain(reasonOf(() => validateSubaccountNumber(n)));
          expect(["out-of-range", "not-an-integer"]).toContain(reasonOf(() => parentSubaccountNumber(n)));
          expect(isParentSubaccountNumber(n)).toBe(false);
        },
      ),
    );
  });
});

describe("parseSubaccountId", () => {
  it("reads bech32 and 0x owners, returning the owner in bech32", () => {
    expect(parseSubaccountId(`${OWNER}/0`)).toEqual({ owner: OWNER, number: 0 });
    expect(parseSubaccountId(`${HEX}/128`)).toEqual({ owner: OWNER, number: 128 });
    expect(parseSubaccountId(`${HEX.toLowerCase()}/128000`)).toEqual({ owner: OWNER, number: 128_000 });
    expect(parseSubaccountId(`${OWNER.toUpperCase()}/7`)).toEqual({ owner: OWNER, number: 7 });
  });

  it("uses options.prefix for the owner", () => {
    const cosmos = "cosmos1t2htvpfl862vnwdqnuekd9p4ulh3h6hdhh78pa";
    expect(parseSubaccountId(`${cosmos}/1`, { prefix: "cosmos" })).toEqual({ owner: cosmos, number: 1 });
    expect(parseSubaccountId(`${HEX}/1`, { prefix: "cosmos" })).toEqual({ owner: cosmos, number: 1 });
    expect(reasonOf(() => parseSubaccountId(`${cosmos}/1`))).toBe("bad-owner");
  });

  it.each([
    [OWNER, "bad-format", /exactly one "\/"/],
    [`${OWNER}/0/1`, "bad-format", /exactly one "\/"/],
    [`${OWNER}/`, "bad-format", /not plain decimal digits/],
    [`${OWNER}/01`, "bad-format", /not plain decimal digits without leading zeros/],
    [`${OWNER}/+1`, "bad-format", /not plain decimal digits/],
    [`${OWNER}/-1`, "bad-format", /not plain decimal digits/],
    [`${OWNER}/1.0`, "bad-format", /not plain decimal digits/],
    [`${OWNER}/ 1`, "bad-format", /not plain decimal digits/],
    [`${OWNER}/1e3`, "bad-format", /not plain decimal digits/],
    [`${OWNER}/0x10`, "bad-format", /not plain decimal digits/],
    [`${OWNER}/128001`, "out-of-range", /between 0 and 128000, got 128001/],
    [`${OWNER}/99999999999999999999999`, "out-of-range", /got 99999999999999999999999/],
    [`/0`, "bad-owner", /bad owner: Invalid address "" \(empty/],
    [`${OWNER.slice(0, -1)}q/0`, "bad-owner", /bad checksum/],
    [`${OWNER} /0`, "bad-owner", /bad character/],
  ] as const)("rejects %j as %s", (text, reason, message) => {
    expect(reasonOf(() => parseSubaccountId(text))).toBe(reason);
    expect(() => parseSubaccountId(text)).toThrow(message);
  });

  it("keeps the address error as the cause of a bad owner", () => {
    try {
      parseSubaccountId("cosmos1t2htvpfl862vnwdqnuekd9p4ulh3h6hdhh78pa/0");
      expect.unreachable();
    } catch (error) {
      expect(isInvalidSubaccountError(error)).toBe(true);
      const cause = (error as Error).cause;
      expect(isInvalidAddressError(cause) && cause.reason).toBe("wrong-prefix");
      expect((error as { walk: (p: (e: unknown) => boolean) => unknown }).walk(isInvalidAddressError)).toBe(
        cause,
      );
    }
  });

  it("rejects values that are not strings", () => {
    expect(reasonOf(() => parseSubaccountId(undefined as unknown as string))).toBe("bad-format");
  });
});

describe("formatSubaccountId", () => {
  it("writes the owner in bech32", () => {
    expect(formatSubaccountId({ owner: HEX, number: 0 })).toBe(`${OWNER}/0`);
    expect(formatSubaccountId({ owner: OWNER, number: 128_000 })).toBe(`${OWNER}/128000`);
    expect(formatSubaccountId({ owner: HEX, number: 5 }, { prefix: "cosmos" })).toBe(
      "cosmos1t2htvpfl862vnwdqnuekd9p4ulh3h6hdhh78pa/5",
    );
  });

  it("rejects bad numbers and bad owners", () => {
    expect(reasonOf(() => formatSubaccountId({ owner: OWNER, number: -1 }))).toBe("out-of-range");
    expect(reasonOf(() => formatSubaccountId({ owner: OWNER, number: 1.5 }))).toBe("not-an-integer");
    expect(reasonOf(() => formatSubaccountId({ owner: "nope", number: 0 }))).toBe("bad-owner");
    expect(reasonOf(() => formatSubaccountId({ owner: `${OWNER}/0`, number: 0 }))).toBe("bad-owner");
    expect(reasonOf(() => formatSubaccountId(null as unknown as SubaccountRef))).toBe("bad-format");
  });

  it("round trips with parseSubaccountId for any owner, either form, any prefix", () => {
    fc.assert(
      fc.property(
        owner,
        subaccountNumber,
        fc.boolean(),
        fc.constantFrom("perpx", "cosmos", "a"),
        (bytes, n, hex, p) => {
          const bech32 = addressBytesToBech32(bytes, p);
          const text = formatSubaccountId(
            { owner: hex ? addressBytesToHex(bytes) : bech32, number: n },
            { prefix: p },
          );
          expect(text).toBe(`${bech32}/${n}`);
          expect(parseSubaccountId(text, { prefix: p })).toEqual({ owner: bech32, number: n });
        },
      ),
    );
  });

  it("parseSubaccountId throws only InvalidSubaccountError on arbitrary text", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.tuple(fc.string(), fc.string()).map(([a, b]) => `${a}/${b}`),
          fc.tuple(owner, fc.string()).map(([bytes, s]) => `${addressBytesToBech32(bytes)}/${s}`),
          fc.tuple(owner, fc.integer()).map(([bytes, n]) => `${addressBytesToBech32(bytes)}/${n}`),
        ),
        (text) => {
          try {
            const ref = parseSubaccountId(text);
            expect(formatSubaccountId(ref)).toBe(text);
          } catch (error) {
            expect(isInvalidSubaccountError(error)).toBe(true);
          }
        },
      ),
    );
  });
});
