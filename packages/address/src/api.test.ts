// The public contract other packages rely on (the core package imports these exact names). The
// `expectTypeOf` lines are checked by `tsc -p packages/address/tsconfig.json`; the rest at runtime.
import type { PerpxError } from "@perpx/errors";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as api from "./index.js";
import {
  addressBytesToBech32,
  addressBytesToHex,
  addressToHex,
  CHILD_SUBACCOUNT_STRIDE,
  childSubaccountNumber,
  DEFAULT_PREFIX,
  formatSubaccountId,
  fromValoperAddress,
  InvalidAddressError,
  type InvalidAddressReason,
  InvalidSubaccountError,
  isInvalidAddressError,
  isInvalidSubaccountError,
  isParentSubaccountNumber,
  isValidAddress,
  MAX_PARENT_SUBACCOUNT_NUMBER,
  MAX_SUBACCOUNT_NUMBER,
  type ParsedAddress,
  parentSubaccountNumber,
  parseAddress,
  parseSubaccountId,
  type SubaccountRef,
  toBech32,
  toValoperAddress,
  VALOPER_PREFIX,
  validateSubaccountNumber,
} from "./index.js";

describe("public contract", () => {
  it("has the agreed constants", () => {
    expect(DEFAULT_PREFIX).toBe("perpx");
    expect(VALOPER_PREFIX).toBe("perpxvaloper");
    expect(MAX_PARENT_SUBACCOUNT_NUMBER).toBe(127);
    expect(CHILD_SUBACCOUNT_STRIDE).toBe(128);
    expect(MAX_SUBACCOUNT_NUMBER).toBe(128_000);
    expectTypeOf<typeof DEFAULT_PREFIX>().toEqualTypeOf<"perpx">();
    expectTypeOf<typeof VALOPER_PREFIX>().toEqualTypeOf<"perpxvaloper">();
  });

  it("has the agreed error types", () => {
    expectTypeOf<InvalidAddressReason>().toEqualTypeOf<
      | "empty"
      | "bad-format"
      | "bad-character"
      | "mixed-case"
      | "bad-checksum"
      | "wrong-prefix"
      | "wrong-length"
    >();
    expectTypeOf<InvalidAddressError>().toExtend<PerpxError>();
    expectTypeOf<InvalidAddressError["reason"]>().toEqualTypeOf<InvalidAddressReason>();
    expectTypeOf<InvalidAddressError["input"]>().toEqualTypeOf<string>();
    expectTypeOf<InvalidSubaccountError>().toExtend<PerpxError>();
    expectTypeOf(isInvalidAddressError).guards.toEqualTypeOf<InvalidAddressError>();
    expectTypeOf(isInvalidSubaccountError).guards.toEqualTypeOf<InvalidSubaccountError>();
    expect(new InvalidAddressError("empty", "").code).toBe("INVALID_ADDRESS");
    expect(new InvalidSubaccountError("bad-format", "").code).toBe("INVALID_SUBACCOUNT");
  });

  it("has the agreed function signatures", () => {
    expectTypeOf<ParsedAddress>().toEqualTypeOf<{
      bytes: Uint8Array;
      bech32: string;
      hex: `0x${string}`;
      prefix: string | undefined;
    }>();
    expectTypeOf(parseAddress).toBeCallableWith("x");
    expectTypeOf(parseAddress).toBeCallableWith("x", { prefix: "perpx" });
    expectTypeOf(parseAddress).returns.toEqualTypeOf<ParsedAddress>();
    expectTypeOf(isValidAddress).toBeCallableWith("x", { prefix: "perpx" });
    expectTypeOf(isValidAddress).returns.toEqualTypeOf<boolean>();
    expectTypeOf(toBech32).toBeCallableWith("x");
    expectTypeOf(toBech32).toBeCallableWith("x", "cosmos");
    expectTypeOf(toBech32).returns.toEqualTypeOf<string>();
    expectTypeOf(addressToHex).toBeCallableWith("x");
    expectTypeOf(addressToHex).returns.toEqualTypeOf<`0x${string}`>();
    expectTypeOf(addressBytesToBech32).toBeCallableWith(new Uint8Array(20));
    expectTypeOf(addressBytesToBech32).toBeCallableWith(new Uint8Array(20), "perpx");
    expectTypeOf(addressBytesToHex).returns.toEqualTypeOf<`0x${string}`>();
    expectTypeOf(toValoperAddress).parameters.toEqualTypeOf<[address: string]>();
    expectTypeOf(fromValoperAddress).parameters.toEqualTypeOf<[valoper: string]>();
    expectTypeOf<SubaccountRef>().toEqualTypeOf<{ owner: string; number: number }>();
    expectTypeOf(parseSubaccountId).toBeCallableWith("x/0");
    expectTypeOf(parseSubaccountId).toBeCallableWith("x/0", { prefix: "perpx" });
    expectTypeOf(parseSubaccountId).returns.toEqualTypeOf<SubaccountRef>();
    expectTypeOf(formatSubaccountId).toBeCallableWith({ owner: "x", number: 0 });
    expectTypeOf(formatSubaccountId).returns.toEqualTypeOf<string>();
    for (const fn of [validateSubaccountNumber, parentSubaccountNumber]) {
      expectTypeOf(fn).parameters.toEqualTypeOf<[n: number]>();
      expectTypeOf(fn).returns.toEqualTypeOf<number>();
    }
    expectTypeOf(childSubaccountNumber).parameters.toEqualTypeOf<[parent: number, k: number]>();
    expectTypeOf(isParentSubaccountNumber).returns.toEqualTypeOf<boolean>();
  });

  it("exports nothing by accident", () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        "ADDRESS_LENGTH",
        "CHILD_SUBACCOUNT_STRIDE",
        "DEFAULT_PREFIX",
        "InvalidAddressError",
        "InvalidSubaccountError",
        "MAX_PARENT_SUBACCOUNT_NUMBER",
        "MAX_PREFIX_LENGTH",
        "MAX_SUBACCOUNT_NUMBER",
        "VALOPER_PREFIX",
        "addressBytes",
        "addressBytesToBech32",
        "childSubaccountIndex",
        "childSubaccountNumber",
        "formatSubaccountId",
        "fromValoperAddress",
        "addressBytesToHex",
        "isInvalidAddressError",
        "isInvalidSubaccountError",
        "isParentSubaccountNumber",
        "isValidAddress",
        "isValidPrefix",
        "parentSubaccountNumber",
        "parseAddress",
        "parseSubaccountId",
        "toBech32",
        "addressToHex",
        "toValoperAddress",
        "validateSubaccountNumber",
      ].sort(),
    );
  });
});
