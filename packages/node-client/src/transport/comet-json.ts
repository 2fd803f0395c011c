/**
 * The typed CometBFT RPC methods over any {@link JsonRpcClient}, decoding CometBFT 0.38's JSON
 * answers ourselves (no cosmjs), on every platform: over `fetch`, the `ws` socket in Node or the
 * global `WebSocket` in a browser.
 */
import { fromBase64, fromHexString, toBase64, toHexString } from "../bytes.js";
import { TransportError } from "../errors.js";
import { lastingFailure } from "./lasting.js";
import { type CometRpc, type CometTx, type JsonRpcClient, nextRequestId } from "./rpc-json.js";

type Json = Record<string, unknown>;

/** The error of an answer that is not what the method returns: asking again does not mend it. */
function malformed(problem: string): TransportError {
  return lastingFailure(new TransportError({ transport: "rpc", problem }));
}

function object(value: unknown, what: string): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw malformed(`the node's ${what} is not a JSON object`);
  }
  return value as Json;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Decimal digits, as CometBFT writes its integers: no sign but `-`, no spaces, no hex, not empty. */
const DECIMAL = /^-?\d+$/;

/**
 * An integer of a CometBFT JSON answer (a JSON number, or a string of decimal digits), as a safe JS
 * number: `""`, `"0x1f"`, `"1e0"` or a number past 2^53 is refused, never read as something else.
 *
 * @param value - the field as the answer has it.
 * @param what - the field, named in the error.
 * @returns the integer.
 * @throws {TransportError} when the field is not an integer.
 * @example
 * ```ts
 * cometInteger("42", "tx code"); // 42
 * cometInteger("", "tx code"); // throws TransportError
 * ```
 */
export function cometInteger(value: unknown, what: string): number {
  // `Number("")` is 0 and `Number("0x1f")` 31: a string counts only when it is decimal digits.
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && DECIMAL.test(value)
        ? Number(value)
        : Number.NaN;
  if (!Number.isSafeInteger(n)) throw malformed(`the node's ${what} is not an integer`);
  return n;
}

/**
 * An int64 of a CometBFT JSON answer (a string of decimal digits, or a JSON number that is still
 * exact), as a bigint: a JSON number past 2^53 (already rounded by `JSON.parse`) is refused.
 *
 * @param value - the field as the answer has it.
 * @param what - the field, named in the error.
 * @returns the integer.
 * @throws {TransportError} when the field is not an exact integer.
 * @example
 * ```ts
 * cometBigInteger("12345678901234567891", "gas_wanted"); // 12345678901234567891n
 * cometBigInteger(12345678901234567891, "gas_wanted"); // throws TransportError
 * ```
 */
export function cometBigInteger(value: unknown, what: string): bigint {
  if (typeof value === "number") {
    // A JSON number past 2^53 was already rounded by JSON.parse: refused rather than read inexactly.
    if (!Number.isSafeInteger(value)) {
      throw malformed(
        `the node's ${what} is a JSON number that is not an exact integer (write int64 values as strings)`,
      );
    }
    return BigInt(value);
  }
  if (typeof value !== "string" || !DECIMAL.test(value)) {
    throw malformed(`the node's ${what} is not an integer`);
  }
  return BigInt(value);
}

/**
 * Milliseconds since the epoch of an RFC 3339 time with up to nanosecond digits
 * (`2026-11-26T08:41:29.123456789Z`); digits past the millisecond are dropped.
 *
 * @throws {TransportError} for a time that does not parse.
 */
export function rfc3339Millis(value: unknown): number {
  const source = text(value);
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(source);
  const ms = match
    ? Date.parse(`${match[1]}.${(match[2] ?? "").padEnd(3, "0").slice(0, 3)}${match[3]}`)
    : Number.NaN;
  if (Number.isNaN(ms)) throw malformed(`the node's time ${JSON.stringify(source)} does not parse`);
  return ms;
}

function hexBytes(value: unknown, what: string): Uint8Array {
  const bytes = fromHexString(text(value));
  if (bytes === undefined) throw malformed(`the node's ${what} is not hex`);
  return bytes;
}

function decodeTx(value: unknown): CometTx {
  const tx = object(value, "tx");
  const result = object(tx.tx_result, "tx_result");
  const events = Array.isArray(result.events) ? result.events : [];
  return {
    tx: fromBase64(text(tx.tx)),
    hash: hexBytes(tx.hash, "tx hash"),
    height: cometInteger(tx.height, "tx height"),
    index: cometInteger(tx.index ?? 0, "tx index"),
    result: {
      code: cometInteger(result.code ?? 0, "tx code"),
      codespace: text(result.codespace),
      log: text(result.log),
      gasWanted: cometBigInteger(result.gas_wanted ?? "0", "gas_wanted"),
      gasUsed: cometBigInteger(result.gas_used ?? "0", "gas_used"),
      events: events.map((event: unknown) => {
        const e = object(event, "event");
        const attributes = Array.isArray(e.attributes) ? e.attributes : [];
        return {
          type: text(e.type),
          attributes: attributes.map((attribute: unknown) => {
            const a = object(attribute, "event attribute");
            return { key: text(a.key), value: text(a.value) };
          }),
        };
      }),
    },
  };
}

function decodeBroadcast(value: unknown) {
  const r = object(value, "broadcast answer");
  return {
    code: cometInteger(r.code ?? 0, "broadcast code"),
    codespace: text(r.codespace),
    log: text(r.log),
    hash: hexBytes(r.hash, "tx hash"),
  };
}

/**
 * The typed CometBFT RPC methods over a JSON-RPC client. Each method sends its request
 * synchronously when called (so a {@link FetchRpcClient}'s `nextSignal` applies to it) and decodes
 * the answer; a malformed answer is a {@link TransportError}.
 *
 * @param client - the JSON-RPC client (HTTP or WebSocket).
 * @returns the methods queries and broadcasts call.
 *
 * @example
 * ```ts
 * const comet = createCometRpc(new FetchRpcClient({ url: process.env.PERPX_NODE_RPC_URL ?? "http://127.0.0.1:26657" }));
 * (await comet.status()).nodeInfo.network; // "perpx-local-1"
 * ```
 */
export function createCometRpc(client: JsonRpcClient): CometRpc {
  const call = (method: string, params: Json): Promise<unknown> =>
    client.execute({ jsonrpc: "2.0", id: nextRequestId(), method, params }).then((answer) => answer.result);
  return {
    status: () =>
      call("status", {}).then((value) => {
        const result = object(value, "status");
        const nodeInfo = object(result.node_info, "node_info");
        const syncInfo = object(result.sync_info, "sync_info");
        const time = rfc3339Millis(syncInfo.latest_block_time);
        return {
          nodeInfo: { network: text(nodeInfo.network) },
          syncInfo: {
            latestBlockHeight: cometInteger(syncInfo.latest_block_height, "latest_block_height"),
            latestBlockTime: new Date(time),
          },
        };
      }),
    abciQuery: (params) =>
      call("abci_query", {
        path: params.path,
        data: toHexString(params.data),
        prove: params.prove ?? false,
        ...(params.height === undefined ? {} : { height: String(params.height) }),
      }).then((value) => {
        const response = object(object(value, "abci_query answer").response, "abci_query response");
        return {
          code: cometInteger(response.code ?? 0, "abci_query code"),
          codespace: text(response.codespace),
          log: text(response.log),
          value: fromBase64(text(response.value)),
        };
      }),
    tx: (params) => call("tx", { hash: toBase64(params.hash), prove: params.prove ?? false }).then(decodeTx),
    txSearch: (params) =>
      call("tx_search", {
        query: params.query,
        prove: params.prove ?? false,
        ...(params.page === undefined ? {} : { page: String(params.page) }),
        ...(params.per_page === undefined ? {} : { per_page: String(params.per_page) }),
        ...(params.order_by === undefined ? {} : { order_by: params.order_by }),
      }).then((value) => {
        const result = object(value, "tx_search answer");
        const txs = Array.isArray(result.txs) ? result.txs : [];
        return { txs: txs.map(decodeTx), totalCount: cometInteger(result.total_count ?? 0, "total_count") };
      }),
    broadcastTxSync: (params) => call("broadcast_tx_sync", { tx: toBase64(params.tx) }).then(decodeBroadcast),
    broadcastTxAsync: (params) =>
      call("broadcast_tx_async", { tx: toBase64(params.tx) }).then((value) => ({
        hash: decodeBroadcast(value).hash,
      })),
    block: (height) =>
      call("block", height === undefined ? {} : { height: String(height) }).then((value) => {
        const block = object(object(value, "block answer").block, "block");
        const data = object(block.data, "block data");
        const txs = Array.isArray(data.txs) ? data.txs : [];
        return { block: { txs: txs.map((tx) => fromBase64(text(tx))) } };
      }),
  };
}
