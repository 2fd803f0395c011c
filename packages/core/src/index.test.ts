import * as address from "@perpx/address";
import * as errors from "@perpx/errors";
import { describe, expect, it } from "vitest";
import * as core from "./index.js";

describe("@perpx/core entry point", () => {
  it("re-exports everything of @perpx/errors and @perpx/address", () => {
    const exported: Record<string, unknown> = { ...core };
    for (const [name, value] of Object.entries(errors)) expect(exported[name], name).toBe(value);
    for (const [name, value] of Object.entries(address)) expect(exported[name], name).toBe(value);
  });

  it("exports the address names core is written against", () => {
    for (const name of [
      "DEFAULT_PREFIX",
      "VALOPER_PREFIX",
      "InvalidAddressError",
      "isInvalidAddressError",
      "parseAddress",
      "isValidAddress",
      "toBech32",
      "addressToHex",
      "addressBytesToBech32",
      "addressBytesToHex",
      "toValoperAddress",
      "fromValoperAddress",
      "MAX_PARENT_SUBACCOUNT_NUMBER",
      "CHILD_SUBACCOUNT_STRIDE",
      "MAX_SUBACCOUNT_NUMBER",
      "InvalidSubaccountError",
      "parseSubaccountId",
      "formatSubaccountId",
      "validateSubaccountNumber",
      "parentSubaccountNumber",
      "childSubaccountNumber",
      "isParentSubaccountNumber",
    ]) {
      expect(core, name).toHaveProperty(name);
    }
  });

  it("exports its own API", () => {
    expect(Object.keys(core).sort()).toEqual(
      expect.arrayContaining([
        "mainnet",
        "testnet",
        "local",
        "resolveNetwork",
        "getEndpoint",
        "versionAtHeight",
        "ibcDenom",
        "decodeCredential",
        "encodeCredential",
        "TradingCredential",
        "sizeToQuantums",
        "priceToSubticks",
        "InvalidCredentialError",
        "InvalidAmountError",
        "MissingEndpointError",
        "UnknownNetworkError",
        "InvalidOrderError",
        "MAX_TIMER_MS",
        "setLongTimeout",
        "checkDelayMs",
      ]),
    );
  });

  it("shares preset constants with @perpx/address", () => {
    expect(core.mainnet.bech32Prefix).toBe(core.DEFAULT_PREFIX);
    expect(core.mainnet.valoperPrefix).toBe(core.VALOPER_PREFIX);
  });
});
