import { describe, expect, it } from "vitest";
import { CHAIN_ERRORS, chainErrorOfLog } from "../chainErrors.js";
import { AuthenticatorRefusedError, QueryError, SequenceMismatchError } from "../errors.js";
import { messageCodespaces, simulationRefusal, unwrapSimulationLog } from "./refusal.js";

const hash = "AB".repeat(32);
const grpcLog = (log: string) => `${log} With gas wanted: '0' and gas used: '23015' `;
const rpcLog = (log: string) => `rpc error: code = Unknown desc = ${grpcLog(log)} : unknown request`;
const wrapMsg = { typeUrl: "/perpx.wrap.v1.MsgWithdraw", value: {} } as never;
const bankMsg = { typeUrl: "/cosmos.bank.v1beta1.MsgSend", value: {} } as never;

/** The simulation error as each transport delivers it. */
function asDelivered(log: string): QueryError[] {
  return [
    new QueryError({
      path: "/cosmos.tx.v1beta1.Service/Simulate",
      transport: "grpc",
      grpcCode: 2,
      log: grpcLog(log),
    }),
    new QueryError({
      path: "/cosmos.tx.v1beta1.Service/Simulate",
      transport: "rpc",
      abciCode: 6,
      codespace: "sdk",
      log: rpcLog(log),
    }),
  ];
}

describe("simulationRefusal", () => {
  it("reads every registered error back to its codespace and code, over gRPC and RPC alike", () => {
    for (const [codespace, codes] of Object.entries(CHAIN_ERRORS)) {
      for (const [code, description] of Object.entries(codes)) {
        const log = `failed to execute message; message index: 0: some context: ${description}`;
        for (const error of asDelivered(log)) {
          const refusal = simulationRefusal(error, { txHash: hash, messages: [bankMsg] })!;
          expect(refusal.log).toBe(log);
          expect(refusal.phase).toBe("simulate");
          expect(refusal.gasUsed).toBe(23015n);
          // Shared descriptions ("invalid authority") resolve to the message's module, else sdk.
          const owners = Object.entries(CHAIN_ERRORS).filter(([, c]) =>
            Object.values(c).includes(description),
          );
          if (owners.length === 1)
            expect([refusal.codespace, refusal.abciCode]).toEqual([codespace, Number(code)]);
        }
      }
    }
  });

  it("ratelimit 1002 over RPC is ratelimit 1002, not sdk 6", () => {
    const log =
      "failed to execute message; message index: 0: 2000000uusdc exceeds 1000000uusdc: withdrawal amount would exceed rate-limit capacity";
    const [, rpc] = asDelivered(log);
    const refusal = simulationRefusal(rpc!, { txHash: hash, messages: [wrapMsg] })!;
    expect([refusal.codespace, refusal.abciCode, refusal.reason]).toEqual(["ratelimit", 1002, "other"]);
  });

  it("breaks ties by the failing message's module", () => {
    const log = "failed to execute message; message index: 1: x: invalid authority";
    const [grpc] = asDelivered(log);
    expect(simulationRefusal(grpc!, { txHash: hash, messages: [bankMsg, wrapMsg] })!.codespace).toBe("wrap");
    expect(chainErrorOfLog("bad: invalid address")?.codespace).toBe("sdk");
    expect(chainErrorOfLog("bad: invalid authority", ["affiliates"])?.codespace).toBe("affiliates");
  });

  it("is a SequenceMismatchError with expected and got for a stale sequence, over RPC too", () => {
    const log = "account sequence mismatch, expected 7, got 9: incorrect account sequence";
    for (const error of asDelivered(log)) {
      const refusal = simulationRefusal(error, { txHash: hash, messages: [bankMsg] });
      expect(refusal).toBeInstanceOf(SequenceMismatchError);
      expect([(refusal as SequenceMismatchError).expected, (refusal as SequenceMismatchError).got]).toEqual([
        7n,
        9n,
      ]);
    }
  });

  it("is an AuthenticatorRefusedError naming the check and the reason", () => {
    const log =
      "sub-authenticator failed to authenticate: subaccount number 1 not in allowed list 0: subaccount verification failed: AllOf verification failed";
    for (const error of asDelivered(log)) {
      const refusal = simulationRefusal(error, {
        txHash: hash,
        messages: [bankMsg],
      }) as AuthenticatorRefusedError;
      expect(refusal).toBeInstanceOf(AuthenticatorRefusedError);
      expect([refusal.codespace, refusal.abciCode, refusal.check, refusal.authenticatorReason]).toEqual([
        "dydxaccountplus",
        104,
        "subaccount",
        "subaccount number 1 not in allowed list 0",
      ]);
    }
  });

  it("keeps a code the node reported directly, and leaves a non-verdict to the caller", () => {
    const direct = new QueryError({
      path: "p",
      transport: "rpc",
      abciCode: 2,
      codespace: "sdk",
      log: "tx parse error",
    });
    expect(simulationRefusal(direct, { txHash: hash, messages: [] })!.abciCode).toBe(2);
    const unreachable = new QueryError({
      path: "p",
      transport: "grpc",
      grpcCode: 3,
      log: "empty txBytes is not allowed",
    });
    expect(simulationRefusal(unreachable, { txHash: hash, messages: [] })).toBeUndefined();
  });

  it("an unknown root description still reads as a simulation refusal (sdk 6, the node's word)", () => {
    const [, rpc] = asDelivered("failed to execute message; message index: 0: something new");
    const refusal = simulationRefusal(rpc!, { txHash: hash, messages: [bankMsg] })!;
    expect([refusal.codespace, refusal.abciCode, refusal.log]).toEqual([
      "sdk",
      6,
      "failed to execute message; message index: 0: something new",
    ]);
  });
});

describe("unwrapSimulationLog and messageCodespaces", () => {
  it("strips both envelopes and reads the gas", () => {
    expect(unwrapSimulationLog(rpcLog("a: insufficient funds"))).toEqual({
      log: "a: insufficient funds",
      enveloped: true,
      gasWanted: 0n,
      gasUsed: 23015n,
    });
    expect(unwrapSimulationLog("plain").enveloped).toBe(false);
  });

  it("maps type URLs to the codespaces their failures come from", () => {
    expect(messageCodespaces("/perpx.sending.v1.MsgCreateTransfer")).toEqual(["sending", "subaccounts"]);
    expect(messageCodespaces("/ibc.applications.transfer.v1.MsgTransfer")[0]).toBe("transfer");
    expect(messageCodespaces("/perpx.accountplus.v1.MsgAddAuthenticator")).toEqual(["dydxaccountplus"]);
    expect(messageCodespaces("/cosmos.bank.v1beta1.MsgSend")).toEqual(["bank"]);
  });
});
