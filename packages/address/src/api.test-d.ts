/**
 * The public type contract other packages rely on (core imports these exact names), checked by
 * `vitest --typecheck` (`npm run test:types`) and by the package's `tsc`: each `@ts-expect-error`
 * must be an error, so a loosened type fails.
 */
import type { PerpxError } from "@perpx/errors";
import { assertType, describe, expectTypeOf, it } from "vitest";
import {
  addressBytesToBech32,
  addressBytesToHex,
  addressToHex,
  childSubaccountNumber,
  type DEFAULT_PREFIX,
  formatSubaccountId,
  fromValoperAddress,
  InvalidAddressError,
  type InvalidAddressReason,
  type InvalidSubaccountError,
  isInvalidAddressError,
  isInvalidSubaccountError,
  isParentSubaccountNumber,
  isValidAddress,
  type ParsedAddress,
  parentSubaccountNumber,
  parseAddress,
  parseSubaccountId,
  type SubaccountRef,
  toBech32,
  toValoperAddress,
  type VALOPER_PREFIX,
  validateSubaccountNumber,
} from "./index.js";

describe("constants", () => {
  it("are literal types", () => {
    expectTypeOf<typeof DEFAULT_PREFIX>().toEqualTypeOf<"perpx">();
    expectTypeOf<typeof VALOPER_PREFIX>().toEqualTypeOf<"perpxvaloper">();
  });
});

describe("errors", () => {
  it("have closed reasons and narrow through their guards", () => {
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
    // @ts-expect-error the reason is one of the closed set
    new InvalidAddressError("too-long", "");
    // @ts-expect-error an address error is not a subaccount error
    assertType<InvalidSubaccountError>(new InvalidAddressError("empty", ""));
  });
});

describe("addresses", () => {
  it("parse into both forms", () => {
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
    // @ts-expect-error options are an object, not a bare prefix
    parseAddress("x", "perpx");
    // @ts-expect-error addresses are strings; bytes go through addressBytesToBech32
    parseAddress(new Uint8Array(20));
  });

  it("convert between forms", () => {
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
    // @ts-expect-error addressToHex returns a 0x-prefixed template type, not any string
    assertType<`0X${string}`>(addressToHex("x"));
    // @ts-expect-error addressBytesToBech32 takes bytes, not hex text
    addressBytesToBech32("0x00");
  });
});

describe("subaccounts", () => {
  it("are an owner and a number", () => {
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
    // @ts-expect-error a subaccount ref needs its number
    formatSubaccountId({ owner: "x" });
    // @ts-expect-error subaccount numbers are numbers, not bigints
    validateSubaccountNumber(1n);
  });
});
