/**
 * CometBFT's mempool cache over real sockets: the same tx bytes twice are refused before CheckTx
 * (CometBFT RPC: the JSON-RPC internal error "tx already exists in cache"; the SDK's BroadcastTx
 * over gRPC and REST: code 19 in "sdk" with the tx's hash and an empty log), after the tx's block
 * too, and for a short-term order that only the memclob holds; a tx that CheckTx refused, or that
 * failed in its block, is checked again. A tx over 1 MiB is refused before CheckTx as well.
 */
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { cosmosBank, cosmosTx } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TxCache } from "../src/app/kernel/tx-cache.js";
import { sha256 } from "../src/app/lib/sha256.js";
import { type Devnet, GENESIS_ACCOUNTS, startDevnet } from "../src/index.js";
import { type FastSigner, fundedSigner, signOrderTx } from "./support/fast-order.js";
import { msg, signTx } from "./support/sign-tx.js";

let devnet: Devnet;
const hexUpper = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, fundedSubaccounts: 1 });
  devnet.app.control.setOracleWalk(false);
});
afterAll(async () => {
  await devnet?.stop();
});

/** A bank send of `amount` uusdc from genesis account `from` at `sequence`. */
function send(from: number, sequence: bigint, amount = "1000"): Promise<Uint8Array> {
  const sender = GENESIS_ACCOUNTS[from];
  const to = GENESIS_ACCOUNTS[from + 1];
  if (sender === undefined || to === undefined) throw new Error("no genesis account");
  return signTx({
    mnemonic: sender.mnemonic,
    chainId: devnet.chainId,
    accountNumber: BigInt(from),
    sequence,
    msgs: [
      msg(
        cosmosBank.MsgSendSchema,
        create(cosmosBank.MsgSendSchema, {
          fromAddress: sender.address,
          toAddress: to.address,
          amount: [{ denom: "uusdc", amount }],
        }),
      ),
    ],
  });
}

/** A JSON-RPC POST to the node's RPC: the whole answer. */
async function rpc(
  method: string,
  tx: Uint8Array,
): Promise<{ result?: unknown; error?: unknown; id?: unknown }> {
  const res = await fetch(devnet.endpoints.nodeRpc, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { tx: b64(tx) } }),
  });
  return (await res.json()) as { result?: unknown; error?: unknown };
}

/** BroadcastTx SYNC over gRPC (h2c): the tx response. */
async function grpcSync(tx: Uint8Array) {
  const client = createClient(cosmosTx.Service, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
  const { txResponse } = await client.broadcastTx({ txBytes: tx, mode: cosmosTx.BroadcastMode.SYNC });
  return txResponse;
}

/** What the SDK's BroadcastTx answers for a tx in CometBFT's cache (`CheckCometError`). */
function inCacheResponse(tx: Uint8Array) {
  return { code: 19, codespace: "sdk", txhash: hexUpper(sha256(tx)), rawLog: "", gasWanted: 0n, gasUsed: 0n };
}

const IN_CACHE = { code: -32603, message: "Internal error", data: "tx already exists in cache" };

describe("the mempool cache", () => {
  it("refuses the same long-term tx bytes before and after its block, on RPC, gRPC and REST", async () => {
    const tx = await send(0, 0n);
    const first = (await rpc("broadcast_tx_sync", tx)).result as { code: number };
    expect(first.code).toBe(0);
    expect(await rpc("broadcast_tx_sync", tx)).toEqual({ jsonrpc: "2.0", id: 7, error: IN_CACHE });
    expect(await grpcSync(tx)).toMatchObject(inCacheResponse(tx));
    const [block] = devnet.mine(1);
    expect(block?.txResults.at(-1)?.code).toBe(0);
    // Committed with code 0: still in the cache.
    expect(await rpc("broadcast_tx_sync", tx)).toEqual({ jsonrpc: "2.0", id: 7, error: IN_CACHE });
    expect(await rpc("broadcast_tx_commit", tx)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { ...IN_CACHE, data: "error on broadcastTxCommit: tx already exists in cache" },
    });
    expect(await grpcSync(tx)).toMatchObject(inCacheResponse(tx));
    const rest = await fetch(`${devnet.endpoints.nodeRest}/cosmos/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: b64(tx), mode: "BROADCAST_MODE_SYNC" }),
    });
    expect((await rest.json()) as unknown).toMatchObject({
      tx_response: { code: 19, codespace: "sdk", txhash: hexUpper(sha256(tx)), raw_log: "" },
    });
    // The URI form: HTTP 500, id -1, as CometBFT's URI handler answers an error.
    const uri = await fetch(`${devnet.endpoints.nodeRpc}/broadcast_tx_sync?tx=0x${hexUpper(tx)}`);
    expect(uri.status).toBe(500);
    expect(await uri.json()).toEqual({ jsonrpc: "2.0", id: -1, error: IN_CACHE });
  });

  it("refuses the same short-term order bytes after the next block (the memclob's tx stays in the cache)", async () => {
    const signer: FastSigner = fundedSigner(0, GENESIS_ACCOUNTS.length);
    const goodTilBlock = Number(devnet.app.latestBlock().height) + 10;
    const order = signOrderTx(signer, devnet.chainId, {
      owner: signer.address,
      clientId: 41,
      side: "buy",
      quantums: 1_000_000n,
      subticks: 1_000_000_000n,
      goodTilBlock,
    });
    expect(((await rpc("broadcast_tx_sync", order)).result as { code: number }).code).toBe(0);
    devnet.mine(1);
    expect(await rpc("broadcast_tx_sync", order)).toEqual({ jsonrpc: "2.0", id: 7, error: IN_CACHE });
    expect(await grpcSync(order)).toMatchObject(inCacheResponse(order));
  });

  it("checks again a tx that CheckTx refused, or that failed in its block", async () => {
    // A wrong sequence: refused by CheckTx, so not kept; the same bytes get CheckTx's answer again.
    const wrong = await send(1, 5n);
    const refused = (await rpc("broadcast_tx_sync", wrong)).result as { code: number; log: string };
    expect(refused.code).toBe(32);
    expect((await rpc("broadcast_tx_sync", wrong)).result).toEqual(refused);
    expect(await grpcSync(wrong)).toMatchObject({ code: 32, rawLog: refused.log });
    // More than the balance: CheckTx accepts it (messages run in the block), the block refuses it.
    const tooMuch = await send(1, 0n, (10n ** 30n).toString());
    expect(((await rpc("broadcast_tx_sync", tooMuch)).result as { code: number }).code).toBe(0);
    expect(await grpcSync(tooMuch)).toMatchObject(inCacheResponse(tooMuch));
    const [block] = devnet.mine(1);
    expect(block?.txResults.at(-1)?.code).toBe(5);
    // Out of the cache again: checked (its sequence is used now).
    const again = (await rpc("broadcast_tx_sync", tooMuch)).result as { code: number; log: string };
    expect(again.code).toBe(32);
    expect(await grpcSync(tooMuch)).toMatchObject({ code: 32, rawLog: again.log });
  });

  it("refuses a tx over 1 MiB before CheckTx: code 21 with an empty log over gRPC", async () => {
    const big = new Uint8Array(1_048_577);
    expect(await grpcSync(big)).toMatchObject({
      code: 21,
      codespace: "sdk",
      txhash: hexUpper(sha256(big)),
      rawLog: "",
    });
  });
});

describe("async broadcasts and the mempool cache", () => {
  it("refuses bytes already in the cache on arrival: RPC -32603, gRPC and REST code 19 with the hash", async () => {
    const tx = await send(3, 0n);
    const hash = hexUpper(sha256(tx));
    expect(((await rpc("broadcast_tx_sync", tx)).result as { code: number }).code).toBe(0);
    // Queued, in the cache: each async transport answers CometBFT's (or the SDK's) refusal.
    expect(await rpc("broadcast_tx_async", tx)).toEqual({ jsonrpc: "2.0", id: 7, error: IN_CACHE });
    const uri = await fetch(`${devnet.endpoints.nodeRpc}/broadcast_tx_async?tx=0x${hexUpper(tx)}`);
    expect(uri.status).toBe(500);
    expect(await uri.json()).toEqual({ jsonrpc: "2.0", id: -1, error: IN_CACHE });
    const client = createClient(cosmosTx.Service, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const grpc = await client.broadcastTx({ txBytes: tx, mode: cosmosTx.BroadcastMode.ASYNC });
    expect(grpc.txResponse).toMatchObject(inCacheResponse(tx));
    const rest = await fetch(`${devnet.endpoints.nodeRest}/cosmos/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: b64(tx), mode: "BROADCAST_MODE_ASYNC" }),
    });
    expect((await rest.json()) as unknown).toMatchObject({
      tx_response: { code: 19, codespace: "sdk", txhash: hash, raw_log: "" },
    });
    // After its block (committed with code 0): still refused.
    const [block] = devnet.mine(1);
    expect(block?.txResults.at(-1)?.code).toBe(0);
    expect(await rpc("broadcast_tx_async", tx)).toEqual({ jsonrpc: "2.0", id: 7, error: IN_CACHE });
    // A tx not in the cache is still answered at once with its hash.
    const fresh = await send(3, 1n);
    expect((await rpc("broadcast_tx_async", fresh)).result).toEqual({
      code: 0,
      data: "",
      log: "",
      codespace: "",
      hash: hexUpper(sha256(fresh)),
    });
  });
});

describe("TxCache", () => {
  it("keeps the most recently used keys, up to its size", () => {
    const cache = new TxCache(3);
    expect([cache.push("a"), cache.push("b"), cache.push("c")]).toEqual([true, true, true]);
    // A key pushed again is refused, and becomes the most recent one.
    expect(cache.push("a")).toBe(false);
    expect(cache.push("d")).toBe(true);
    expect([cache.has("a"), cache.has("b"), cache.has("c"), cache.has("d")]).toEqual([
      true,
      false,
      true,
      true,
    ]);
    cache.remove("c");
    expect(cache.push("c")).toBe(true);
    expect(cache.count).toBe(3);
  });
});
