import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isTransportError } from "../errors.js";
import { createCometRpc, rfc3339Millis } from "./comet-json.js";
import type { JsonRpcClient, JsonRpcRequest } from "./rpc-json.js";

/** A JSON-RPC client that records requests and answers with `result`. */
function answering(result: unknown): { client: JsonRpcClient; requests: JsonRpcRequest[] } {
  const requests: JsonRpcRequest[] = [];
  return {
    requests,
    client: {
      execute: async (request) => {
        requests.push(request);
        return { jsonrpc: "2.0", id: request.id, result };
      },
      disconnect: () => {},
    },
  };
}

const TX = {
  hash: "0A0B",
  height: "12",
  index: 3,
  tx: "AQID",
  tx_result: {
    code: 5,
    codespace: "sdk",
    log: "insufficient funds",
    gas_wanted: "200000",
    gas_used: "51234",
    events: [{ type: "transfer", attributes: [{ key: "amount", value: "7uusdc", index: true }] }],
  },
};

describe("rfc3339Millis", () => {
  it("keeps milliseconds and drops the digits after them, any offset", () => {
    expect(rfc3339Millis("2026-11-26T08:41:29.123456789Z")).toBe(Date.UTC(2026, 10, 26, 8, 41, 29, 123));
    expect(rfc3339Millis("2026-11-26T08:41:29Z")).toBe(Date.UTC(2026, 10, 26, 8, 41, 29));
    expect(rfc3339Millis("2026-11-26T10:41:29.5+02:00")).toBe(Date.UTC(2026, 10, 26, 8, 41, 29, 500));
  });

  it("round-trips every millisecond time written with nanosecond digits", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.integer({ min: 0, max: 999_999 }),
        (ms, extra) => {
          const iso = new Date(ms).toISOString().replace("Z", `${String(extra).padStart(6, "0")}Z`);
          expect(rfc3339Millis(iso)).toBe(ms);
        },
      ),
    );
  });

  it("refuses what is not a time", () => {
    for (const bad of ["", "yesterday", "2026-11-26", 17]) {
      expect(() => rfc3339Millis(bad)).toThrow(/does not parse/);
    }
  });
});

describe("createCometRpc", () => {
  it("sends CometBFT's JSON-RPC parameters: hex query data, base64 hashes and txs, numbers as strings", async () => {
    const { client, requests } = answering({ response: { code: 0, value: "AQI=" } });
    const comet = createCometRpc(client);
    await comet.abciQuery({ path: "/a.B/C", data: new Uint8Array([0xab, 0x01]), height: 7 });
    expect(requests[0]).toMatchObject({
      method: "abci_query",
      params: { path: "/a.B/C", data: "ab01", height: "7", prove: false },
    });
    const tx = answering(TX);
    await createCometRpc(tx.client).tx({ hash: new Uint8Array([1, 2, 3]) });
    expect(tx.requests[0]).toMatchObject({ method: "tx", params: { hash: "AQID", prove: false } });
    const search = answering({ txs: [], total_count: "0" });
    await createCometRpc(search.client).txSearch({
      query: "tx.height=5",
      page: 2,
      per_page: 50,
      order_by: "desc",
    });
    expect(search.requests[0]?.params).toEqual({
      query: "tx.height=5",
      prove: false,
      page: "2",
      per_page: "50",
      order_by: "desc",
    });
  });

  it("decodes abci_query, tx, tx_search and broadcast answers", async () => {
    const query = await createCometRpc(
      answering({ response: { code: 22, codespace: "sdk", log: "not found", value: null } }).client,
    ).abciQuery({
      path: "/x",
      data: new Uint8Array(),
    });
    expect(query).toEqual({ code: 22, codespace: "sdk", log: "not found", value: new Uint8Array() });
    const tx = await createCometRpc(answering(TX).client).tx({ hash: new Uint8Array(2) });
    expect(tx).toEqual({
      tx: new Uint8Array([1, 2, 3]),
      hash: new Uint8Array([10, 11]),
      height: 12,
      index: 3,
      result: {
        code: 5,
        codespace: "sdk",
        log: "insufficient funds",
        gasWanted: 200_000n,
        gasUsed: 51_234n,
        events: [{ type: "transfer", attributes: [{ key: "amount", value: "7uusdc" }] }],
      },
    });
    const found = await createCometRpc(answering({ txs: [TX, TX], total_count: "9" }).client).txSearch({
      query: "q",
    });
    expect(found.totalCount).toBe(9);
    expect(found.txs).toHaveLength(2);
    const sync = await createCometRpc(answering({ code: 0, log: "", hash: "FF00" }).client).broadcastTxSync({
      tx: new Uint8Array([1]),
    });
    expect(sync).toEqual({ code: 0, codespace: "", log: "", hash: new Uint8Array([255, 0]) });
  });

  it("asks for a block at a height and decodes its raw txs", async () => {
    const { client, requests } = answering({ block: { data: { txs: ["AQID", "BAU="] } } });
    const answer = await createCometRpc(client).block(7);
    expect(requests[0]).toMatchObject({ method: "block", params: { height: "7" } });
    expect(answer.block.txs).toEqual([new Uint8Array([1, 2, 3]), new Uint8Array([4, 5])]);
    const empty = await createCometRpc(answering({ block: { data: {} } }).client).block();
    expect(empty.block.txs).toEqual([]);
    const bad = await createCometRpc(answering({ block: null }).client)
      .block(1)
      .catch((error: unknown) => error);
    expect(isTransportError(bad)).toBe(true);
  });

  it("turns a malformed answer into a TransportError naming the field", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [null, /status is not a JSON object/],
      [
        { node_info: {}, sync_info: { latest_block_height: "x", latest_block_time: "2026-11-26T08:41:29Z" } },
        /latest_block_height is not an integer/,
      ],
      [
        { node_info: {}, sync_info: { latest_block_height: "3", latest_block_time: "soon" } },
        /does not parse/,
      ],
    ];
    for (const [result, message] of cases) {
      const error = await createCometRpc(answering(result).client)
        .status()
        .catch((e: unknown) => e);
      expect(isTransportError(error)).toBe(true);
      expect(String((error as Error).message)).toMatch(message);
    }
    const badHash = await createCometRpc(answering({ ...TX, hash: "xyz" }).client)
      .tx({ hash: new Uint8Array(1) })
      .catch((e: unknown) => e);
    expect(String((badHash as Error).message)).toMatch(/tx hash is not hex/);
    const badGas = await createCometRpc(
      answering({ ...TX, tx_result: { ...TX.tx_result, gas_used: "1.5" } }).client,
    )
      .tx({ hash: new Uint8Array(1) })
      .catch((e: unknown) => e);
    expect(String((badGas as Error).message)).toMatch(/gas_used is not an integer/);
  });

  it("never reads a code or height that is not decimal digits as a number (an empty code is no success)", async () => {
    for (const code of ["", " ", "0x0", "0b0", "1e0", null]) {
      const answer = { code, hash: "0A0B", log: "" };
      const error = await createCometRpc(answering(answer).client)
        .broadcastTxSync({ tx: new Uint8Array(1) })
        .catch((e: unknown) => e);
      if (code === null) {
        // An absent code is CometBFT's 0, as cosmjs reads it.
        expect(isTransportError(error)).toBe(false);
        continue;
      }
      expect(isTransportError(error)).toBe(true);
      expect(String((error as Error).message)).toMatch(/broadcast code is not an integer/);
    }
    const status = {
      node_info: {},
      sync_info: { latest_block_height: "", latest_block_time: "2026-11-26T08:41:29Z" },
    };
    const error = await createCometRpc(answering(status).client)
      .status()
      .catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(/latest_block_height is not an integer/);
  });

  it("reads int64 gas exactly or not at all: a JSON number past 2^53 is refused, a string is exact", async () => {
    const huge = JSON.parse(
      `{"code":0,"gas_wanted":12345678901234567891,"gas_used":"12345678901234567891","events":[]}`,
    ) as unknown;
    const rounded = await createCometRpc(answering({ ...TX, tx_result: huge }).client)
      .tx({ hash: new Uint8Array(1) })
      .catch((e: unknown) => e);
    expect(isTransportError(rounded)).toBe(true);
    expect(String((rounded as Error).message)).toMatch(
      /gas_wanted is a JSON number that is not an exact integer/,
    );
    const exact = await createCometRpc(
      answering({
        ...TX,
        tx_result: { ...TX.tx_result, gas_wanted: 9_007_199_254_740_991, gas_used: "12345678901234567891" },
      }).client,
    ).tx({ hash: new Uint8Array(1) });
    expect(exact.result.gasWanted).toBe(9_007_199_254_740_991n);
    expect(exact.result.gasUsed).toBe(12_345_678_901_234_567_891n);
  });
});
