import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { grpcErrorOf } from "./dispatch.js";

describe("grpcErrorOf", () => {
  it("answers a simulation failure as the tx service's own status: Unknown, without the SDK root", () => {
    const log =
      "rpc error: code = Unknown desc = spendable balance 0uusdc is smaller than 5uusdc: insufficient funds With gas wanted: '0' and gas used: '31337' : unknown request";
    const error = grpcErrorOf({ code: 6, codespace: "sdk", log });
    expect(error.code).toBe(Code.Unknown);
    expect(error.rawMessage).toBe(
      "spendable balance 0uusdc is smaller than 5uusdc: insufficient funds With gas wanted: '0' and gas used: '31337' ",
    );
  });

  it("keeps the named code of a wrapped status and strips only the root baseapp added", () => {
    const notFound = grpcErrorOf({
      code: 22,
      codespace: "sdk",
      log: "rpc error: code = NotFound desc = account perpx1x not found: key not found",
    });
    expect([notFound.code, notFound.rawMessage]).toEqual([Code.NotFound, "account perpx1x not found"]);
    const invalid = grpcErrorOf({
      code: 18,
      codespace: "sdk",
      log: "rpc error: code = InvalidArgument desc = invalid denom: x: invalid request",
    });
    expect([invalid.code, invalid.rawMessage]).toEqual([Code.InvalidArgument, "invalid denom: x"]);
  });

  it("maps an unwrapped error by its SDK code, and a module error to Unknown", () => {
    const unwrapped = grpcErrorOf({ code: 22, codespace: "sdk", log: "not found: key not found" });
    expect([unwrapped.code, unwrapped.rawMessage]).toEqual([Code.NotFound, "not found: key not found"]);
    const module = grpcErrorOf({ code: 2000, codespace: "clob", log: "clob pair 9 not found" });
    expect(module.code).toBe(Code.Unknown);
  });
});
