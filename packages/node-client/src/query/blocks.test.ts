import { describe, expect, it } from "vitest";
import { createNodeClient } from "../client.js";
import { isTransportError } from "../errors.js";
import type { JsonRpcClient } from "../transport/rpc-json.js";
import { getBlockHeaders, getBlockResults } from "./blocks.js";

/** A node whose JSON-RPC answers every call with `result`. */
function nodeAnswering(result: unknown) {
  const rpcClient: JsonRpcClient = {
    execute: async (request) => ({ jsonrpc: "2.0", id: request.id, result }),
    disconnect: () => {},
  };
  return createNodeClient({ nodeRpc: { rpcClient } });
}

const txResult = (fields: Record<string, unknown>) => ({
  height: "7",
  txs_results: [
    { code: 0, codespace: "", log: "", gas_wanted: "200000", gas_used: "51234", events: [], ...fields },
  ],
});

describe("block_results and blockchain answers are read exactly or refused", () => {
  it("reads codes and int64 gas exactly", async () => {
    const big = nodeAnswering(txResult({ code: 5, gas_wanted: "12345678901234567891", gas_used: 51234 }));
    const [result] = await getBlockResults(big, { height: 7n });
    expect(result).toMatchObject({ code: 5, gasWanted: 12345678901234567891n, gasUsed: 51234n });
  });

  it.each([
    ["an empty code", { code: "" }],
    ["a hex code", { code: "0x0" }],
    ["a code in exponent form", { code: "1e0" }],
    ["a fractional gas", { gas_used: "1.5" }],
    ["gas as a JSON number past 2^53", { gas_wanted: 2 ** 63 }],
  ])("refuses %s as a TransportError, never a success or a raw SyntaxError", async (_, fields) => {
    const hostile = nodeAnswering(txResult(fields));
    await expect(getBlockResults(hostile, { height: 7n })).rejects.toSatisfy(isTransportError);
  });

  it("refuses a header's tx count that is not an integer", async () => {
    const meta = {
      block_id: { hash: "AB" },
      header: { height: "7", time: "2026-11-29T00:00:00Z", chain_id: "perpx-local-1" },
      num_txs: "",
    };
    const hostile = nodeAnswering({ last_height: "7", block_metas: [meta] });
    await expect(getBlockHeaders(hostile, { maxHeight: 7n, count: 1 })).rejects.toSatisfy(isTransportError);
    meta.num_txs = "3";
    const [header] = await getBlockHeaders(nodeAnswering({ last_height: "7", block_metas: [meta] }), {
      maxHeight: 7n,
      count: 1,
    });
    expect(header?.txCount).toBe(3);
  });
});
