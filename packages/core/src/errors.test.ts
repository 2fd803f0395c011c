import { isInvalidArgumentError, isPerpxError, PerpxError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import {
  InvalidAmountError,
  InvalidCredentialError,
  InvalidOrderError,
  isInvalidAmountError,
  isInvalidCredentialError,
  isInvalidOrderError,
  isMissingEndpointError,
  isUnknownNetworkError,
  MissingEndpointError,
  UnknownNetworkError,
} from "./errors.js";

const cases = [
  [
    new InvalidCredentialError("hex", "bad hex"),
    "InvalidCredentialError",
    "INVALID_CREDENTIAL",
    isInvalidCredentialError,
  ],
  [
    new InvalidAmountError({ kind: "size", value: "1", reason: "off-grid", problem: "x" }),
    "InvalidAmountError",
    "INVALID_AMOUNT",
    isInvalidAmountError,
  ],
  [
    new MissingEndpointError("indexer", "PERPX_INDEXER_URL", "mainnet"),
    "MissingEndpointError",
    "MISSING_ENDPOINT",
    isMissingEndpointError,
  ],
  [
    new UnknownNetworkError("x", ["mainnet"]),
    "UnknownNetworkError",
    "UNKNOWN_NETWORK",
    isUnknownNetworkError,
  ],
  [new InvalidOrderError("size", "too small"), "InvalidOrderError", "INVALID_ORDER", isInvalidOrderError],
] as const;

describe("core errors", () => {
  it.each(cases)("%s is a PerpxError with its name, code and guard", (error, name, code, guard) => {
    expect(error).toBeInstanceOf(PerpxError);
    expect(isPerpxError(error)).toBe(true);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(guard(error)).toBe(true);
    expect(isInvalidArgumentError(error)).toBe(false);
    for (const [other, , , otherGuard] of cases) if (other !== error) expect(otherGuard(error)).toBe(false);
  });

  it("guards work by name across copies of the package", () => {
    const foreign = Object.assign(new PerpxError("INVALID_AMOUNT", "x"), { name: "InvalidAmountError" });
    expect(isInvalidAmountError(foreign)).toBe(true);
    expect(isInvalidAmountError(new Error("x"))).toBe(false);
    expect(isInvalidAmountError(null)).toBe(false);
  });

  it("InvalidOrderError keeps its field and cause", () => {
    const cause = new InvalidAmountError({
      kind: "size",
      value: "0",
      reason: "not-positive",
      problem: "must be positive",
    });
    const error = new InvalidOrderError("size", "is invalid", { cause });
    expect(error.field).toBe("size");
    expect(error.walk(isInvalidAmountError)).toBe(cause);
  });

  it("InvalidAmountError lists the nearest valid values in its message", () => {
    const error = new InvalidAmountError({
      kind: "price",
      value: "1.5",
      reason: "off-grid",
      problem: "not a multiple of the tick 1",
      nearest: ["1", "2"],
    });
    expect(error.message).toContain("Invalid price 1.5: not a multiple of the tick 1");
    expect(error.message).toContain("Nearest valid prices: 1 and 2");
  });
});
