import { inspect } from "node:util";
import { isPerpxError, isTimeoutError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import { GRPC_CODES, SDK_CODES } from "./chainErrors.js";
import {
  type AuthenticatorRefusedError,
  BroadcastTxError,
  broadcastFailureReason,
  broadcastTxError,
  CLOB_CODES,
  CLOB_ERRORS,
  isAuthenticatorRefusedError,
  isBroadcastTxError,
  isQueryError,
  isSequenceMismatchError,
  isTransportError,
  parseAuthenticatorRefusal,
  parseSequenceMismatch,
  QueryError,
  SequenceMismatchError,
  sdkCodeFromLog,
  TransportError,
} from "./errors.js";
import { isTxInclusionTimeoutError, TxInclusionTimeoutError } from "./tx/broadcast.js";

const base = { log: "x", txHash: "AB", phase: "checkTx" as const };

describe("BroadcastTxError", () => {
  it("classifies the common failures", () => {
    const cases: Array<[number, string, string]> = [
      [32, "sdk", "sequence-mismatch"],
      [5, "sdk", "insufficient-funds"],
      [13, "sdk", "insufficient-fee"],
      [11, "sdk", "out-of-gas"],
      [4, "sdk", "unauthorized"],
      [19, "sdk", "tx-in-mempool"],
      [100, "dydxaccountplus", "unauthorized"],
      [103, "accountplus", "unauthorized"],
      [3006, "clob", "clob"],
      [1, "sending", "other"],
      [2, "sdk", "other"],
    ];
    for (const [code, codespace, reason] of cases) {
      expect(broadcastFailureReason(code, codespace)).toBe(reason);
      expect(broadcastTxError({ ...base, abciCode: code, codespace }).reason).toBe(reason);
    }
  });

  it("names clob errors and keeps the chain's details", () => {
    const error = broadcastTxError({
      abciCode: 10,
      codespace: "clob",
      log: "next block height is greater than the GoodTilBlock",
      txHash: "CAFE",
      phase: "checkTx",
    });
    expect(error).toBeInstanceOf(BroadcastTxError);
    expect(error.code).toBe("BROADCAST_TX");
    expect(error.clobError).toBe("good-til-block-too-low");
    expect(error.message).toContain("CAFE");
    expect(error.message).toContain("clob 10 good-til-block-too-low");
    expect(broadcastTxError({ ...base, abciCode: 9003, codespace: "clob" }).clobError).toBe(
      "reduce-only-requires-ioc",
    );
    expect(broadcastTxError({ ...base, abciCode: 424242, codespace: "clob" }).clobError).toBeUndefined();
    expect(isBroadcastTxError(error) && isPerpxError(error)).toBe(true);
    expect(isBroadcastTxError(new Error("x"))).toBe(false);
    const delivered = broadcastTxError({
      ...base,
      abciCode: 5,
      codespace: "sdk",
      phase: "deliverTx",
      height: 7n,
      gasUsed: 1n,
      gasWanted: 2n,
    });
    expect(delivered).toMatchObject({ phase: "deliverTx", height: 7n, gasUsed: 1n, gasWanted: 2n });
    expect(delivered.message).toContain("height: 7");
  });

  it("parses expected and got from a sequence mismatch", () => {
    const log = "account sequence mismatch, expected 7, got 6: incorrect account sequence";
    const error = broadcastTxError({ ...base, abciCode: 32, codespace: "sdk", log });
    expect(error).toBeInstanceOf(SequenceMismatchError);
    expect(isSequenceMismatchError(error)).toBe(true);
    expect(isBroadcastTxError(error)).toBe(true);
    expect(error).toMatchObject({ expected: 7n, got: 6n });
    expect(parseSequenceMismatch("timestamp nonce 5 too old")).toBeUndefined();
    expect(
      (
        broadcastTxError({
          ...base,
          abciCode: 32,
          codespace: "sdk",
          log: "nonce too old",
        }) as SequenceMismatchError
      ).expected,
    ).toBeUndefined();
  });

  it("reads the sdk root error at the end of a log, gRPC suffix included", () => {
    expect(sdkCodeFromLog("spendable balance 0uusdc is smaller than 5uusdc: insufficient funds")).toBe(5);
    expect(
      sdkCodeFromLog(
        "account sequence mismatch, expected 3, got 2: incorrect account sequence With gas wanted: '0' and gas used: '22390' : unknown request",
      ),
    ).toBe(32);
    expect(sdkCodeFromLog("something else")).toBeUndefined();
  });
});

describe("QueryError and TransportError", () => {
  it("knows not-found answers in every transport's words", () => {
    expect(
      new QueryError({ path: "/p", transport: "rpc", abciCode: 22, log: "key not found" }).notFound,
    ).toBe(true);
    expect(new QueryError({ path: "/p", transport: "grpc", grpcCode: 5, log: "x" }).notFound).toBe(true);
    expect(new QueryError({ path: "/p", transport: "rest", httpStatus: 404, log: "x" }).notFound).toBe(true);
    const other = new QueryError({ path: "/p", transport: "rest", httpStatus: 500, log: "boom" });
    expect(other.notFound).toBe(false);
    expect(other.code).toBe("QUERY");
    expect(other.message).toContain("HTTP status: 500");
    expect(isQueryError(other)).toBe(true);
    const transport = new TransportError({ transport: "grpc", problem: "refused", url: "https://x" });
    expect(transport.code).toBe("TRANSPORT");
    expect(transport.message).toContain("https://x");
    expect(isTransportError(transport)).toBe(true);
    expect(inspect(transport)).toContain("TransportError");
  });
});

describe("exact guards and codes", () => {
  it("QueryError.notFound is told by codes only, never by the log's words", () => {
    const path = "/x.Query/Y";
    expect(new QueryError({ path, transport: "grpc", grpcCode: 12, log: "method not found" }).notFound).toBe(
      false,
    );
    expect(
      new QueryError({ path, transport: "rpc", abciCode: 6, log: "unknown query path: not found" }).notFound,
    ).toBe(false);
    expect(
      new QueryError({ path, transport: "rpc", abciCode: 22, codespace: "sdk", log: "x" }).notFound,
    ).toBe(true);
    expect(
      new QueryError({ path, transport: "rpc", abciCode: 22, codespace: "clob", log: "x" }).notFound,
    ).toBe(false);
    expect(new QueryError({ path, transport: "grpc", grpcCode: 5, log: "x" }).notFound).toBe(true);
    expect(new QueryError({ path, transport: "rest", httpStatus: 404, log: "x" }).notFound).toBe(true);
  });

  it("isTimeoutError holds for TxInclusionTimeoutError; the sequence guard for its class only", () => {
    const timeout = new TxInclusionTimeoutError("AB", 1000);
    expect(isTimeoutError(timeout)).toBe(true);
    expect(isTxInclusionTimeoutError(timeout)).toBe(true);
    const mismatch = broadcastTxError({ ...base, abciCode: 32, codespace: "sdk" });
    expect(isBroadcastTxError(mismatch)).toBe(true);
    expect(isSequenceMismatchError(mismatch)).toBe(true);
    expect(isSequenceMismatchError(broadcastTxError({ ...base, abciCode: 5, codespace: "sdk" }))).toBe(false);
  });

  it("a refusal in the authenticator's codespace is an AuthenticatorRefusedError, in every phase", () => {
    for (const phase of ["simulate", "checkTx", "deliverTx"] as const) {
      const error = broadcastTxError({
        ...base,
        phase,
        abciCode: 105,
        codespace: "dydxaccountplus",
        log: "all sub-authenticators failed: message types do not match. Got /a.B, Expected /c.D: message type verification failed: AnyOf verification failed",
      });
      expect(isAuthenticatorRefusedError(error)).toBe(true);
      expect(isBroadcastTxError(error)).toBe(true);
      expect((error as AuthenticatorRefusedError).check).toBe("message-type");
      expect((error as AuthenticatorRefusedError).authenticatorReason).toBe(
        "message types do not match. Got /a.B, Expected /c.D",
      );
    }
    expect(parseAuthenticatorRefusal("something else")).toEqual({ check: "other", reason: "something else" });
  });

  it("names sdk and gRPC codes", () => {
    expect(SDK_CODES.wrongSequence).toBe(32);
    expect(CLOB_CODES["stateful-order-does-not-exist"]).toBe(3006);
    for (const [code, name] of Object.entries(CLOB_ERRORS)) expect(CLOB_CODES[name]).toBe(Number(code));
    expect(GRPC_CODES.notFound).toBe(5);
    expect(broadcastFailureReason(SDK_CODES.insufficientFee, "sdk")).toBe("insufficient-fee");
  });
});
