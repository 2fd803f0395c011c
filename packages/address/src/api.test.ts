// The public contract other packages rely on, at run time: the constants' values, the error codes
// and the export list. The type contract is in api.test-d.ts (`npm run test:types`).
import { describe, expect, it } from "vitest";
import * as api from "./index.js";
import {
  CHILD_SUBACCOUNT_STRIDE,
  DEFAULT_PREFIX,
  InvalidAddressError,
  InvalidSubaccountError,
  MAX_PARENT_SUBACCOUNT_NUMBER,
  MAX_SUBACCOUNT_NUMBER,
  VALOPER_PREFIX,
} from "./index.js";

describe("public contract", () => {
  it("has the agreed constants", () => {
    expect(DEFAULT_PREFIX).toBe("perpx");
    expect(VALOPER_PREFIX).toBe("perpxvaloper");
    expect(MAX_PARENT_SUBACCOUNT_NUMBER).toBe(127);
    expect(CHILD_SUBACCOUNT_STRIDE).toBe(128);
    expect(MAX_SUBACCOUNT_NUMBER).toBe(128_000);
  });

  it("has the agreed error codes", () => {
    expect(new InvalidAddressError("empty", "").code).toBe("INVALID_ADDRESS");
    expect(new InvalidSubaccountError("bad-format", "").code).toBe("INVALID_SUBACCOUNT");
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
