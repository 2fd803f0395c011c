import { isPerpxError, PerpxError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import {
  InvalidAddressError,
  InvalidSubaccountError,
  isInvalidAddressError,
  isInvalidSubaccountError,
} from "./errors.js";

describe("InvalidAddressError", () => {
  it("is a PerpxError with code INVALID_ADDRESS, its reason and input", () => {
    const error = new InvalidAddressError("bad-checksum", "0xabc", {
      problem: "the checksum does not match",
    });
    expect(error).toBeInstanceOf(PerpxError);
    expect(isPerpxError(error)).toBe(true);
    expect(error.name).toBe("InvalidAddressError");
    expect(error.code).toBe("INVALID_ADDRESS");
    expect(error.reason).toBe("bad-checksum");
    expect(error.input).toBe("0xabc");
    expect(error.shortMessage).toBe('Invalid address "0xabc" (bad checksum: the checksum does not match)');
    expect(error.message).toContain("Docs: https://perpx.dev/docs/address#errors");
  });

  it("names the reason alone when no problem is given", () => {
    expect(new InvalidAddressError("wrong-length", "x").shortMessage).toBe(
      'Invalid address "x" (wrong length)',
    );
  });

  it("shortens very long inputs in the message and keeps them whole in `input`", () => {
    const input = "x".repeat(10_000);
    const error = new InvalidAddressError("bad-format", input);
    expect(error.input).toBe(input);
    expect(error.shortMessage.length).toBeLessThan(200);
  });

  it("keeps a cause and details", () => {
    const cause = new Error("low level");
    const error = new InvalidAddressError("bad-format", "x", { cause, details: "more" });
    expect(error.cause).toBe(cause);
    expect(error.details).toBe("more");
  });
});

describe("InvalidSubaccountError", () => {
  it("is a PerpxError with code INVALID_SUBACCOUNT, its reason and input", () => {
    const error = new InvalidSubaccountError("out-of-range", "128001");
    expect(error).toBeInstanceOf(PerpxError);
    expect(error.name).toBe("InvalidSubaccountError");
    expect(error.code).toBe("INVALID_SUBACCOUNT");
    expect(error.reason).toBe("out-of-range");
    expect(error.input).toBe("128001");
    expect(error.shortMessage).toBe('Invalid subaccount "128001" (out of range)');
  });
});

describe("guards", () => {
  it("tell the two errors apart and reject everything else", () => {
    const address = new InvalidAddressError("empty", "");
    const subaccount = new InvalidSubaccountError("bad-format", "");
    expect(isInvalidAddressError(address)).toBe(true);
    expect(isInvalidAddressError(subaccount)).toBe(false);
    expect(isInvalidSubaccountError(subaccount)).toBe(true);
    expect(isInvalidSubaccountError(address)).toBe(false);
    for (const other of [
      new Error("x"),
      new PerpxError("INVALID_ADDRESS", "x"),
      undefined,
      "InvalidAddressError",
    ]) {
      expect(isInvalidAddressError(other)).toBe(false);
    }
  });

  it("recognise an error from a duplicated copy of the package by name", () => {
    class CopiedPerpxError extends Error {
      code = "INVALID_ADDRESS";
      shortMessage = "copied";
      override name = "InvalidAddressError";
      walk() {
        return this;
      }
    }
    const copy = new CopiedPerpxError("copied");
    expect(copy).not.toBeInstanceOf(InvalidAddressError);
    expect(isInvalidAddressError(copy)).toBe(true);
  });
});
