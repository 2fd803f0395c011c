/**
 * Our CometBFT 0.38 decoder (`createCometRpc`, used on every platform) against cosmjs's
 * `Comet38Client` as an oracle: both are fed the same generated node answers (status, abci_query,
 * tx, tx_search, broadcast_tx_sync/async, block) through one fake JSON-RPC client, and every field
 * the client's queries and broadcasts read must decode the same.
 */
import { Comet38Client } from "@cosmjs/tendermint-rpc";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toBase64, toHexString } from "../src/bytes.js";
import { createCometRpc } from "../src/transport/comet-json.js";
import type { JsonRpcClient } from "../src/transport/rpc-json.js";

type Json = Record<string, unknown>;

/** A JSON-RPC client answering every request with `result`. */
function answering(result: unknown): JsonRpcClient {
  return {
    execute: async (request) => ({ jsonrpc: "2.0", id: request.id, result }),
    disconnect: () => {},
  };
}

/** Both decoders over the same answer. */
async function both(result: unknown) {
  const client = answering(result);
  const oracle = await Comet38Client.create(client as unknown as Parameters<typeof Comet38Client.create>[0]);
  return { ours: createCometRpc(client), oracle };
}

const hex = (length: number) =>
  fc.uint8Array({ minLength: length, maxLength: length }).map((b) => toHexString(b).toUpperCase());
const base64 = (max: number) => fc.uint8Array({ maxLength: max }).map(toBase64);
const height = fc.integer({ min: 1, max: 2 ** 31 - 1 });
const rfc3339 = fc
  .tuple(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.integer({ min: 0, max: 999_999 }))
  .map(([ms, extra]) => new Date(ms).toISOString().replace("Z", `${String(extra).padStart(6, "0")}Z`));
const word = fc.string({ minLength: 1, maxLength: 12, unit: "grapheme-ascii" });
const events = fc.array(
  fc.record({
    type: word,
    attributes: fc.array(fc.record({ key: word, value: fc.string({ maxLength: 20 }), index: fc.boolean() }), {
      maxLength: 4,
    }),
  }),
  { maxLength: 4 },
);
const txResult = fc.record({
  code: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  codespace: fc.constantFrom("", "sdk", "clob", "bank"),
  log: fc.string({ maxLength: 40 }),
  gas_wanted: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String),
  gas_used: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }).map(String),
  events,
});
const txAnswer = fc.record({
  hash: hex(32),
  height: height.map(String),
  index: fc.integer({ min: 0, max: 10_000 }),
  tx: fc.uint8Array({ minLength: 1, maxLength: 64 }).map(toBase64),
  tx_result: txResult,
});

/** What the client reads of a decoded tx (cosmjs leaves an absent codespace or log undefined). */
function txFields(tx: Awaited<ReturnType<ReturnType<typeof createCometRpc>["tx"]>>) {
  return {
    tx: toHexString(tx.tx),
    hash: toHexString(tx.hash),
    height: tx.height,
    index: tx.index,
    code: tx.result.code,
    codespace: tx.result.codespace ?? "",
    log: tx.result.log ?? "",
    gasWanted: tx.result.gasWanted,
    gasUsed: tx.result.gasUsed,
    events: tx.result.events.map((e) => ({
      type: e.type,
      attributes: e.attributes.map((a) => ({ key: a.key, value: a.value })),
    })),
  };
}

describe("our CometBFT decoder against cosmjs's, on the same answers", () => {
  it("status: network, latest height and time", async () => {
    await fc.assert(
      fc.asyncProperty(word, height, rfc3339, hex(20), hex(32), async (network, h, time, id, hash) => {
        const status: Json = {
          node_info: {
            protocol_version: { p2p: "8", block: "11", app: "0" },
            id: id.toLowerCase(),
            listen_addr: "tcp://0.0.0.0:26656",
            network,
            version: "0.38.12",
            channels: "40202122233038606100",
            moniker: "perpx",
            other: { tx_index: "on", rpc_address: "tcp://127.0.0.1:26657" },
          },
          sync_info: {
            latest_block_hash: hash,
            latest_app_hash: hash,
            latest_block_height: String(h),
            latest_block_time: time,
            earliest_block_hash: hash,
            earliest_app_hash: hash,
            earliest_block_height: "1",
            earliest_block_time: time,
            catching_up: false,
          },
          validator_info: {
            address: id,
            pub_key: { type: "tendermint/PubKeyEd25519", value: toBase64(new Uint8Array(32).fill(7)) },
            voting_power: "10",
          },
        };
        const { ours, oracle } = await both(status);
        const [a, b] = [await ours.status(), await oracle.status()];
        expect([
          a.nodeInfo.network,
          a.syncInfo.latestBlockHeight,
          a.syncInfo.latestBlockTime.getTime(),
        ]).toEqual([b.nodeInfo.network, b.syncInfo.latestBlockHeight, b.syncInfo.latestBlockTime.getTime()]);
      }),
      { numRuns: 100 },
    );
  });

  it("abci_query: code, codespace, log and value", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          code: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          codespace: fc.constantFrom("", "sdk", "clob"),
          log: fc.string({ maxLength: 40 }),
          value: base64(64),
          height: height.map(String),
          index: fc.constant("0"),
          info: fc.constant(""),
        }),
        async (response) => {
          const { ours, oracle } = await both({ response });
          const query = { path: "/perpx.clob.v1.Query/ClobPair", data: new Uint8Array([1]) };
          const [a, b] = [await ours.abciQuery(query), await oracle.abciQuery(query)];
          expect([a.code ?? 0, a.codespace, a.log ?? "", toHexString(a.value)]).toEqual([
            b.code ?? 0,
            b.codespace,
            b.log ?? "",
            toHexString(b.value),
          ]);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("tx and tx_search: the tx, its hash, height, index, result and events", async () => {
    await fc.assert(
      fc.asyncProperty(txAnswer, async (answer) => {
        const { ours, oracle } = await both(answer);
        const hash = new Uint8Array(32);
        expect(txFields(await ours.tx({ hash }))).toEqual(txFields(await oracle.tx({ hash })));
      }),
      { numRuns: 100 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(txAnswer, { maxLength: 5 }), async (txs) => {
        const { ours, oracle } = await both({ txs, total_count: String(txs.length) });
        const [a, b] = [
          await ours.txSearch({ query: "tx.height=5" }),
          await oracle.txSearch({ query: "tx.height=5" }),
        ];
        expect([a.totalCount, a.txs.map(txFields)]).toEqual([b.totalCount, b.txs.map(txFields)]);
      }),
      { numRuns: 50 },
    );
  });

  it("broadcast_tx_sync and _async: code, codespace, log and hash", async () => {
    await fc.assert(
      fc.asyncProperty(txResult, hex(32), async (result, hash) => {
        const { ours, oracle } = await both({ ...result, data: "", hash });
        const tx = new Uint8Array([1, 2, 3]);
        const [a, b] = [await ours.broadcastTxSync({ tx }), await oracle.broadcastTxSync({ tx })];
        expect([a.code, a.codespace ?? "", a.log ?? "", toHexString(a.hash)]).toEqual([
          b.code,
          b.codespace ?? "",
          b.log ?? "",
          toHexString(b.hash),
        ]);
        const [c, d] = [await ours.broadcastTxAsync({ tx }), await oracle.broadcastTxAsync({ tx })];
        expect(toHexString(c.hash)).toBe(toHexString(d.hash));
      }),
      { numRuns: 100 },
    );
  });

  it("block: its transactions", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 64 }).map(toBase64), { maxLength: 6 }),
        height,
        rfc3339,
        hex(32),
        hex(20),
        async (txs, h, time, hash, proposer) => {
          const empty = { hash: "", parts: { total: 0, hash: "" } };
          const answer = {
            block_id: { hash, parts: { total: 1, hash } },
            block: {
              header: {
                version: { block: "11", app: "0" },
                chain_id: "perpx-local-1",
                height: String(h),
                time,
                last_block_id: empty,
                last_commit_hash: "",
                data_hash: "",
                validators_hash: hash,
                next_validators_hash: hash,
                consensus_hash: hash,
                app_hash: hash,
                last_results_hash: "",
                evidence_hash: "",
                proposer_address: proposer,
              },
              data: { txs },
              evidence: { evidence: [] },
              last_commit: { height: "0", round: 0, block_id: empty, signatures: [] },
            },
          };
          const { ours, oracle } = await both(answer);
          const [a, b] = [await ours.block(h), await oracle.block(h)];
          expect(a.block.txs.map(toHexString)).toEqual(b.block.txs.map(toHexString));
        },
      ),
      { numRuns: 100 },
    );
  });
});
