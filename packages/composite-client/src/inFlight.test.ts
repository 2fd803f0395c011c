import { AbortedError, TimeoutError } from "@perpx/errors";
import { BroadcastTxError, TransportError } from "@perpx/node-client";
import type { BroadcastProgress } from "@perpx/node-client/tx";
import { describe, expect, it } from "vitest";
import { type LostTx, watchSend } from "./inFlight.js";

const hash = "AB".repeat(32);
const refused = (reason: { abciCode: number; codespace: string }) =>
  new BroadcastTxError({ ...reason, log: "refused", txHash: hash, phase: "checkTx" });
const reset = new TransportError({ transport: "rpc", problem: "the connection failed" });
const refusedConnection = new TransportError({ transport: "rpc", problem: "refused", nothingSent: true });

/** Runs a send that reaches `stages` and then fails with `error`; answers what watchSend threw. */
async function outcome(
  stages: BroadcastProgress["stage"][],
  error: Error,
): Promise<{ lost?: LostTx; thrown: unknown }> {
  let lost: LostTx | undefined;
  let calls = 0;
  const thrown = await watchSend(
    async (onBroadcast) => {
      calls += 1;
      for (const stage of stages) onBroadcast({ stage, hash, sequence: 9n });
      throw error;
    },
    (found) => {
      lost = found;
      return new Error("unknown");
    },
  ).catch((e: unknown) => e);
  expect(calls).toBe(1); // never resends
  return lost === undefined ? { thrown } : { lost, thrown };
}

describe("which failed sends leave the order unknown", () => {
  it("a failure before the bytes went out is rethrown as it is", async () => {
    expect(await outcome([], reset)).toEqual({ thrown: reset });
  });

  it("a refused connection while sending sent nothing", async () => {
    expect(await outcome(["sending"], refusedConnection)).toEqual({ thrown: refusedConnection });
  });

  it("a timeout or an abort that fired before the bytes went out sent nothing", async () => {
    const unsent = [
      new TimeoutError("broadcast_tx_sync", 10, { nothingSent: true }),
      new AbortedError("broadcast_tx_sync", undefined, { nothingSent: true }),
    ];
    for (const error of unsent) expect(await outcome(["sending"], error)).toEqual({ thrown: error });
    const { lost } = await outcome(["sending"], new AbortedError("broadcast_tx_sync"));
    expect(lost?.txHash).toBe(hash);
  });

  it("the chain's refusals are answers, not unknowns", async () => {
    const clob = refused({ abciCode: 9003, codespace: "clob" });
    expect(await outcome(["sending"], clob)).toEqual({ thrown: clob });
    const sequence = refused({ abciCode: 32, codespace: "sdk" });
    expect(await outcome(["sending"], sequence)).toEqual({ thrown: sequence });
  });

  it("a reset, a timeout, or the same bytes already in the mempool leave it unknown, with its hash", async () => {
    for (const error of [
      reset,
      new TimeoutError("broadcast_tx_sync", 10),
      refused({ abciCode: 19, codespace: "sdk" }),
    ]) {
      const { lost } = await outcome(["sending"], error);
      expect(lost).toEqual({ txHash: hash, sequence: 9n, cause: error });
    }
  });

  it("once the node took it, any failure waiting for its block leaves it unknown", async () => {
    const { lost } = await outcome(["sending", "accepted"], refusedConnection);
    expect(lost?.cause).toBe(refusedConnection);
  });
});
