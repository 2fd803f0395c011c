/**
 * CometBFT's mempool refuses some txs before CheckTx: over its RPC that is a JSON-RPC error ("tx
 * already exists in cache", "mempool is full", "Tx too large..."), over the SDK's gRPC `BroadcastTx`
 * a tx response with sdk 19, 20 or 21. A broadcast throws the same `BroadcastTxError` for it on
 * either transport, so `tx-in-mempool` ("the node has these very bytes") is recognised over RPC too.
 */
import { describe, expect, it } from "vitest";
import { broadcastTx, isBroadcastTxError } from "../src/index.js";
import { bankSendMsg, signTx } from "../src/tx.js";
import { useDevnet } from "./support.js";

const net = useDevnet({ blockTimeMs: 0 });

function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("a tx the mempool refuses before CheckTx", () => {
  it("the same bytes twice are tx-in-mempool on RPC (HTTP and WebSocket) and gRPC, before and after their block", async () => {
    const [alice, bob] = net.wallets as [(typeof net.wallets)[0], (typeof net.wallets)[0]];
    const account = await net.client.getAccountSequence({ address: alice.address });
    const signed = await signTx({
      signer: alice,
      messages: [
        bankSendMsg({ from: alice.address, to: bob.address, amount: [{ denom: "uusdc", amount: 1n }] }),
      ],
      chainId: "perpx-local-1",
      ...account,
      fee: { amount: [{ denom: "uusdc", amount: 5000n }], gasLimit: 200_000n },
    });
    const ws = net.makeClient({ nodeRpc: net.devnet.endpoints.nodeRpcWs });
    expect(
      await broadcastTx(net.client, { txBytes: signed.txBytes, mode: "sync", transport: "rpc" }),
    ).toMatchObject({
      hash: signed.hash,
    });
    const expected = {
      reason: "tx-in-mempool",
      abciCode: 19,
      codespace: "sdk",
      phase: "checkTx",
      txHash: signed.hash,
    };
    const again = () =>
      Promise.all([
        caught(broadcastTx(net.client, { txBytes: signed.txBytes, mode: "sync", transport: "rpc" })),
        caught(broadcastTx(ws, { txBytes: signed.txBytes, mode: "sync", transport: "rpc" })),
        caught(broadcastTx(net.client, { txBytes: signed.txBytes, mode: "sync", transport: "grpc" })),
      ]);
    for (const error of await again()) {
      expect(isBroadcastTxError(error), String(error)).toBe(true);
      expect(error).toMatchObject(expected);
    }
    const [block] = net.devnet.mine(1);
    expect(block?.txResults.at(-1)?.code).toBe(0);
    // Committed: the node's cache still holds it, and the answer is the same.
    for (const error of await again()) {
      expect(isBroadcastTxError(error), String(error)).toBe(true);
      expect(error).toMatchObject(expected);
    }
  });

  it("maps the node's 'mempool is full' and 'tx too large' RPC errors to sdk 20 and 21, as the SDK does", async () => {
    const answers: Record<string, string> = {
      full: "mempool is full: number of txs 5000 (max: 5000), total txs bytes 104 (max: 1073741824)",
      large: "Tx too large. Max size is 1048576, but got 1048577",
      other: "broadcast confirmation not received: context deadline exceeded",
    };
    let next = "";
    const fetchFn: typeof fetch = async (_input, init) => {
      const { id } = JSON.parse(String(init?.body)) as { id: unknown };
      return new Response(
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          error: { code: -32603, message: "Internal error", data: answers[next] },
        }),
        { headers: { "content-type": "application/json" } },
      );
    };
    const client = net.makeClient({
      nodeRpc: { url: net.devnet.endpoints.nodeRpc, fetch: fetchFn },
      grpc: undefined,
      nodeRest: undefined,
    });
    const txBytes = new Uint8Array([1, 2, 3]);
    next = "full";
    expect(await caught(broadcastTx(client, { txBytes, mode: "sync" }))).toMatchObject({
      name: "BroadcastTxError",
      abciCode: 20,
      codespace: "sdk",
      phase: "checkTx",
      log: answers.full,
    });
    next = "large";
    expect(await caught(broadcastTx(client, { txBytes, mode: "async" }))).toMatchObject({
      name: "BroadcastTxError",
      abciCode: 21,
      codespace: "sdk",
    });
    next = "other";
    const other = await caught(broadcastTx(client, { txBytes, mode: "sync" }));
    expect(isBroadcastTxError(other), String(other)).toBe(false);
  });
});
