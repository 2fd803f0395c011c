import { createHash } from "node:crypto";
import { Comet38Client, HttpClient, WebsocketClient } from "@cosmjs/tendermint-rpc";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFakeChainApp, type FakeChainApp } from "../../test/support/fake-chain-app.js";
import type { Loose } from "../../test/support/loose.js";
import { type RpcServer, startRpcServer } from "./rpc.js";

let app: FakeChainApp;
let rpc: RpcServer;

beforeEach(async () => {
  app = createFakeChainApp();
  rpc = await startRpcServer({ app, port: 0, broadcastTxCommitTimeoutMs: 2000 });
});
afterEach(async () => {
  await rpc.close();
});

async function post(body: unknown): Promise<{ status: number; json: Loose }> {
  const res = await fetch(rpc.url, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  return { status: res.status, json: await res.json() };
}

const tick = (ms = 1000) => app.produceBlock(new Date(app.latestBlock().time.getTime() + ms));

describe("CometBFT RPC over HTTP", () => {
  it("answers status in the shape cosmjs's Comet38 client decodes", async () => {
    tick();
    const client = await Comet38Client.create(new HttpClient(rpc.url));
    const status = await client.status();
    expect(status.nodeInfo.network).toBe("perpx-local-1");
    expect(status.nodeInfo.version).toBe("0.38.17");
    expect(status.syncInfo.latestBlockHeight).toBe(2);
    const block = await client.block(2);
    expect(block.block.header.height).toBe(2);
    expect(block.block.lastCommit?.height).toBe(1);
    const first = await client.block(1);
    expect(first.block.lastCommit).toBeNull();
    expect(first.block.header.lastBlockId).toBeNull();
    const results = await client.blockResults(2);
    expect(results.height).toBe(2);
    const chain = await client.blockchain(1, 2);
    expect(chain.blockMetas.map((m) => m.header.height)).toEqual([2, 1]);
    const genesis = await client.genesis();
    expect(genesis.chainId).toBe("perpx-local-1");
    const validators = await client.validators({});
    expect(validators.total).toBe(1);
    const commit = await client.commit(1);
    expect(commit.commit.height).toBe(1);
    expect((await client.numUnconfirmedTxs()).total).toBe(0);
    expect((await client.abciInfo()).lastBlockHeight).toBe(2);
    await client.health();
    client.disconnect();
  });

  it("broadcasts, finds the tx by hash and by search", async () => {
    const client = await Comet38Client.create(new HttpClient(rpc.url));
    const tx = new Uint8Array([1, 2, 3]);
    const sync = await client.broadcastTxSync({ tx });
    expect(sync.code).toBe(0);
    const bad = await client.broadcastTxSync({ tx: new Uint8Array([0xff]) });
    expect(bad.code).toBe(4);
    tick();
    const found = await client.tx({ hash: sync.hash });
    expect(found.height).toBe(2);
    expect(found.result.gasUsed).toBe(50000n);
    const search = await client.txSearch({
      query: `tx.hash='${Buffer.from(sync.hash).toString("hex").toUpperCase()}'`,
    });
    expect(search.totalCount).toBe(1);
    await expect(client.tx({ hash: new Uint8Array(32) })).rejects.toThrow(/not found/);
    client.disconnect();
  });

  it("broadcast_tx_commit waits for the block and reports tx_result", async () => {
    // The block comes once CheckTx has taken the tx, however long the broadcast takes to arrive.
    const timer = setInterval(() => {
      if (app.pendingTxCount() > 0) tick();
    }, 5);
    const client = await Comet38Client.create(new HttpClient(rpc.url));
    const res = await client
      .broadcastTxCommit({ tx: new Uint8Array([9, 9]) })
      .finally(() => clearInterval(timer));
    expect(res.height).toBe(2);
    expect(res.txResult?.code).toBe(0);
    const rejected = await client.broadcastTxCommit({ tx: new Uint8Array([0xff]) });
    expect(rejected.checkTx.code).toBe(4);
    client.disconnect();
  });

  it("answers abci_query with the application's height: the latest when none is asked, 0 for a refusal", async () => {
    app.answers.set("/x.Query/Echo", (data) => ({
      code: 0,
      codespace: "",
      log: "",
      value: data,
      height: 0n,
    }));
    const client = await Comet38Client.create(new HttpClient(rpc.url));
    const res = await client.abciQuery({ path: "/x.Query/Echo", data: new Uint8Array([7]) });
    expect(res.value).toEqual(new Uint8Array([7]));
    expect(res.height).toBe(1);
    const unknown = await client.abciQuery({ path: "/nope", data: new Uint8Array() });
    expect(unknown.code).toBe(6);
    expect(unknown.height).toBe(0);
    client.disconnect();
  });

  it("supports batches, unknown methods and invalid params", async () => {
    const batch = await post([
      { jsonrpc: "2.0", id: 1, method: "health" },
      { jsonrpc: "2.0", id: 2, method: "nope" },
      { jsonrpc: "2.0", id: 3, method: "block", params: { height: "abc" } },
    ]);
    expect(batch.json).toHaveLength(3);
    expect(batch.json[0]).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(batch.json[1].error.code).toBe(-32601);
    expect(batch.json[2].error.code).toBe(-32602);
    expect(batch.json[2].error.message).toContain("height");
    const parse = await fetch(rpc.url, { method: "POST", body: "{" });
    expect(parse.status).toBe(500);
    expect(await parse.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32700,
        message: "Parse error. Invalid JSON",
        data: "error unmarshaling request: unexpected end of JSON input",
      },
    });
    const garbage = await fetch(rpc.url, { method: "POST", body: "[1,]" });
    expect(((await garbage.json()) as Loose).error.data).toBe(
      "error unmarshaling request: invalid character ']' looking for beginning of value",
    );
    const high = await post({ jsonrpc: "2.0", id: 4, method: "block", params: { height: "99" } });
    expect(high.json.error.data).toMatch(/must be less than or equal/);
  });

  it("reads at most 1,000,000 bytes, skips notifications and answers an empty batch with nothing", async () => {
    const big = await fetch(rpc.url, { method: "POST", body: "x".repeat(1_000_001) });
    expect(big.status).toBe(400);
    expect(await big.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: "Invalid Request",
        data: "error reading request body: http: request body too large",
      },
    });
    const mixed = await post([
      { jsonrpc: "2.0", method: "health" },
      { jsonrpc: "2.0", id: 7, method: "health" },
    ]);
    expect(mixed.json).toEqual([{ jsonrpc: "2.0", id: 7, result: {} }]);
    for (const body of ["[]", JSON.stringify({ jsonrpc: "2.0", method: "health" })]) {
      const none = await fetch(rpc.url, { method: "POST", body });
      expect([none.status, await none.text()]).toEqual([200, ""]);
    }
    const empty = await fetch(rpc.url, { method: "POST", body: "" });
    expect(await empty.text()).toContain("Available endpoints");
  });

  it("answers GET with CometBFT URI parameters", async () => {
    const tx = new Uint8Array([4, 5, 6]);
    app.checkTx(tx);
    tick();
    const hash = createHash("sha256").update(tx).digest("hex");
    const res = await fetch(`${rpc.url}/tx?hash=0x${hash}`);
    const body = (await res.json()) as Loose;
    expect(body.result.height).toBe("2");
    const search = (await (
      await fetch(`${rpc.url}/tx_search?query="tx.height=2"&per_page=5`)
    ).json()) as Loose;
    expect(search.result.total_count).toBe("1");
    const block = (await (await fetch(`${rpc.url}/block?height=1`)).json()) as Loose;
    expect(block.result.block.header.height).toBe("1");
    const bad = await fetch(`${rpc.url}/block?height=x`);
    expect(bad.status).toBe(500);
    expect(((await bad.json()) as Loose).error.data).toContain('invalid 64-bit integer encoding "x"');
    const abci = (await (await fetch(`${rpc.url}/abci_query?path="/nope"&data=0x01`)).json()) as Loose;
    expect(abci.result.response.code).toBe(6);
    const net = (await (await fetch(`${rpc.url}/net_info`)).json()) as Loose;
    expect(net.result.peers[0].node_info.listen_addr).toContain("26656");
    expect(net.result.peers[0].remote_ip).toBe("127.0.0.1");
    const genesis = (await (await fetch(`${rpc.url}/genesis`)).json()) as Loose;
    expect(genesis.result.genesis.chain_id).toBe("perpx-local-1");
    const unknown = await fetch(`${rpc.url}/nope`);
    expect(unknown.status).toBe(404);
  });
});

describe("CometBFT RPC over WebSocket", () => {
  it("delivers NewBlock, NewBlockHeader and Tx events through cosmjs", async () => {
    const ws = new WebsocketClient(rpc.url.replace("http", "ws"));
    const client = Comet38Client.create(ws);
    const blocks: number[] = [];
    const headers: number[] = [];
    const txs: number[] = [];
    const done = new Promise<void>((resolve, reject) => {
      client.subscribeNewBlock().subscribe({
        next: (b) => {
          blocks.push(b.header.height);
          if (blocks.length === 2) resolve();
        },
        error: reject,
      });
    });
    client.subscribeNewBlockHeader().subscribe({ next: (h) => headers.push(h.height) });
    client.subscribeTx("transfer.amount='2uusdc'").subscribe({ next: (t) => txs.push(t.height) });
    await ws.connected();
    // The server answers one socket's messages in order: once status answers, the subscriptions are in.
    await client.status();
    app.checkTx(new Uint8Array([1, 2]));
    app.checkTx(new Uint8Array([1, 2, 3]));
    tick();
    tick();
    await done;
    await vi.waitFor(() => {
      expect(headers).toEqual([2, 3]);
      expect(txs).toEqual([2]);
    });
    expect(blocks).toEqual([2, 3]);
    client.disconnect();
  });

  it("answers calls and rejects unsubscribing an unknown query", async () => {
    const { WebSocket } = await import("ws");
    const socket = new WebSocket(`${rpc.websocketUrl}`);
    await new Promise((r) => socket.once("open", r));
    const replies: Loose[] = [];
    socket.on("message", (d) => replies.push(JSON.parse(d.toString())));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "status" }));
    socket.send(
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "unsubscribe", params: { query: "tm.event='Tx'" } }),
    );
    socket.send(
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "subscribe", params: { query: "tm.event=" } }),
    );
    await vi.waitFor(() => expect(replies).toHaveLength(3));
    expect(replies.find((r) => r.id === 1).result.node_info.network).toBe("perpx-local-1");
    expect(replies.find((r) => r.id === 2).error.data).toContain("subscription not found");
    expect(replies.find((r) => r.id === 3).error.code).toBe(-32602);
    socket.close();
  });
});
