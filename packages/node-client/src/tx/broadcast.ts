import { fromBinary } from "@bufbuild/protobuf";
import { AbortedError, errorGuard, TimeoutError } from "@perpx/errors";
import { clob, cosmosTx } from "@perpx/proto";
import { toHexString } from "../bytes.js";
import type { BroadcastMode, NodeConnection } from "../connection.js";
import { type BroadcastTxError, broadcastTxError, TransportError } from "../errors.js";
import { checkParams } from "../messages/validate.js";
import { getTx, type TxEvent, type TxInfo } from "../query/txs.js";
import { rpcQueryError, unaryQuery } from "../query/unary.js";
import { type CallOptions, checkTimeout, sleep, withDeadline } from "../transport/call.js";
import { isLastingFailure } from "../transport/lasting.js";
import { missingTransportError } from "../transport/missing.js";
import { cometCall, JsonRpcError } from "../transport/rpc-json.js";
import { txHash } from "./encode.js";

/**
 * `commit` broadcasting gave up waiting for the transaction to land. It may still land: look it up
 * later with `getTx(client, { hash: error.txHash })`. When looks for it failed on the way (a
 * dropped connection, a 5xx, a timed-out look), `cause` is the last of those failures.
 *
 * @example
 * ```ts
 * const hash = "A".repeat(64); // a transaction no block holds
 * const error = await waitForTx(client, { hash, commitTimeoutMs: 300, pollIntervalMs: 100 }).catch((e: unknown) => e);
 * isTxInclusionTimeoutError(error) && error.txHash === hash; // true: look it up later with getTx
 * ```
 */
export class TxInclusionTimeoutError extends TimeoutError {
  override name = "TxInclusionTimeoutError";
  /** The hash of the transaction that was accepted but not seen in a block. */
  readonly txHash: string;

  /**
   * @param txHash - the transaction's hash.
   * @param timeoutMs - how long the client waited.
   * @param options - the `cause`: the last failed look for the transaction, if one failed.
   */
  constructor(txHash: string, timeoutMs: number, options: { cause?: unknown } = {}) {
    super("waiting for the transaction to be included in a block", timeoutMs, {
      metaMessages: [
        `tx hash: ${txHash}`,
        "It was accepted into the mempool and may still land: look it up with getTx.",
      ],
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.txHash = txHash;
  }
}

/**
 * True for a {@link TxInclusionTimeoutError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isTxInclusionTimeoutError(new TxInclusionTimeoutError("A".repeat(64), 60_000)); // true
 * ```
 */
export const isTxInclusionTimeoutError = errorGuard<TxInclusionTimeoutError>("TxInclusionTimeoutError");

/**
 * What a broadcast returns.
 *
 * @example
 * ```ts
 * const { accountNumber } = (await client.getAccount({ address: wallet.address }))!;
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 10;
 * // A short-term order: no fee and no sequence.
 * const order = placeOrderMsg({ subaccount, clientId: 106, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock });
 * const { txBytes } = await signTx({ signer: wallet, messages: [order], chainId: "perpx-local-1", accountNumber, sequence: 0n, fee: { amount: [], gasLimit: 0n } });
 * const { hash, mode } = await broadcastTx(client, { txBytes, mode: "sync" });
 * [hash.length, mode]; // [64, "sync"]
 * ```
 */
export interface BroadcastResult {
  /** Uppercase hex hash. */
  hash: string;
  /** The mode used. */
  mode: BroadcastMode;
  /** For `commit`: the block height. */
  height: bigint | undefined;
  /** For `commit`: gas wanted and used. */
  gasWanted: bigint | undefined;
  gasUsed: bigint | undefined;
  /** For `commit`: the events emitted. */
  events: TxEvent[];
  /** For `commit`: the decoded transaction as the node indexed it. */
  tx: TxInfo | undefined;
}

/**
 * Options of {@link broadcastTx}.
 *
 * @example
 * ```ts
 * const { accountNumber } = (await client.getAccount({ address: wallet.address }))!;
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 10;
 * // A short-term order: no fee and no sequence.
 * const order = placeOrderMsg({ subaccount, clientId: 107, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock });
 * const { txBytes } = await signTx({ signer: wallet, messages: [order], chainId: "perpx-local-1", accountNumber, sequence: 0n, fee: { amount: [], gasLimit: 0n } });
 * const params: BroadcastTxParams = { txBytes, mode: "sync", transport: "grpc" };
 * (await broadcastTx(client, params)).mode; // "sync"
 * ```
 */
export interface BroadcastTxParams extends CallOptions {
  /** The `TxRaw` bytes. */
  txBytes: Uint8Array;
  /**
   * `sync` (CheckTx result), `async` (no check), or `commit` (sync, then wait for the block).
   * @default the client's broadcastMode ("commit")
   */
  mode?: BroadcastMode;
  /**
   * Which transport sends it.
   * @default "rpc" when configured, else "grpc"
   */
  transport?: "rpc" | "grpc";
  /**
   * For `commit`: how long to wait for inclusion.
   * @default the client's commitTimeoutMs (60,000)
   */
  commitTimeoutMs?: number;
  /**
   * For `commit`: how often to look for the transaction.
   * @default the client's pollIntervalMs (500)
   */
  pollIntervalMs?: number;
}

function pickBroadcastTransport(client: NodeConnection, wanted?: "rpc" | "grpc"): "rpc" | "grpc" {
  const choice = wanted ?? (client.rpc ? "rpc" : client.grpc ? "grpc" : undefined);
  if (choice === "rpc" && client.rpc) return "rpc";
  if (choice === "grpc" && client.grpc) return "grpc";
  throw missingTransportError(client, choice ? [choice] : ["rpc", "grpc"]);
}

/**
 * Sends signed bytes to the mempool (`sync`: after CheckTx; `async`: without waiting for it) and
 * returns the hash (always the transaction's own, `txHash(txBytes)`). A CheckTx refusal throws
 * {@link BroadcastTxError} (phase `checkTx`), and so does a refusal of CometBFT's mempool before
 * CheckTx, which RPC answers as a JSON-RPC error and the SDK's gRPC `BroadcastTx` as a code: sdk 19
 * `tx-in-mempool` (the very same bytes were seen already), 20 (mempool full), 21 (tx too large),
 * alike on both transports; an answer carrying another transaction's hash, or
 * none, is a `TransportError` (`nothingSent: false`), never taken for this one's acceptance or
 * refusal.
 *
 * @example
 * ```ts
 * const { accountNumber } = (await client.getAccount({ address: wallet.address }))!;
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 10;
 * // A short-term order: no fee and no sequence.
 * const order = placeOrderMsg({ subaccount, clientId: 108, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock });
 * const { txBytes } = await signTx({ signer: wallet, messages: [order], chainId: "perpx-local-1", accountNumber, sequence: 0n, fee: { amount: [], gasLimit: 0n } });
 * const hash = await submitTx(client, { txBytes, mode: "sync" });
 * hash === txHash(txBytes); // true
 * ```
 */
export async function submitTx(
  client: NodeConnection,
  params: BroadcastTxParams & { mode: "sync" | "async" },
): Promise<string> {
  checkParams(params, "submitTx");
  const transport = pickBroadcastTransport(client, params.transport);
  const hash = txHash(params.txBytes);
  if (transport === "grpc") {
    const response = await unaryQuery(client, {
      ...params,
      transport: "grpc",
      method: cosmosTx.Service.method.broadcastTx,
      request: {
        txBytes: params.txBytes,
        mode: params.mode === "sync" ? cosmosTx.BroadcastMode.SYNC : cosmosTx.BroadcastMode.ASYNC,
      },
    });
    const r = response.txResponse;
    if (!r?.txhash) throw answeredWithoutHash("grpc", hash);
    if (r.txhash.toUpperCase() !== hash) throw anotherTxAnswered("grpc", r.txhash, hash);
    if (r.code !== 0) {
      throw broadcastTxError({
        abciCode: r.code,
        codespace: r.codespace,
        log: r.rawLog,
        txHash: hash,
        phase: "checkTx",
      });
    }
    return hash;
  }
  return withDeadline(
    { ...params, operation: `broadcast_tx_${params.mode}`, defaultTimeoutMs: client.timeoutMs },
    async (signal) => {
      let result: {
        code: number;
        codespace?: string | undefined;
        log?: string | undefined;
        hash: Uint8Array;
      };
      try {
        result = await cometCall(client.rpc!, signal, (comet) =>
          params.mode === "sync"
            ? comet.broadcastTxSync({ tx: params.txBytes })
            : comet.broadcastTxAsync({ tx: params.txBytes }).then((r) => ({ code: 0, hash: r.hash })),
        );
      } catch (error) {
        if (signal.aborted) throw error;
        throw mempoolRefusal(error, hash) ?? rpcQueryError(`broadcast_tx_${params.mode}`, error);
      }
      const reported = toHexString(result.hash).toUpperCase();
      if (reported === "") throw answeredWithoutHash("rpc", hash);
      if (reported !== hash) throw anotherTxAnswered("rpc", reported, hash);
      if (result.code !== 0) {
        throw broadcastTxError({
          abciCode: result.code,
          codespace: result.codespace ?? "",
          log: result.log ?? "",
          txHash: hash,
          phase: "checkTx",
        });
      }
      return hash;
    },
  );
}

/**
 * CometBFT's mempool refuses some txs before CheckTx, and its RPC answers that as a JSON-RPC error
 * (`Internal error`, the reason in `data`). These are the ones the Cosmos SDK's `CheckCometError`
 * turns into a tx response, with its code in `sdk`, matched as it matches them (in lower case).
 */
const MEMPOOL_REFUSALS: ReadonlyArray<{ readonly text: string; readonly abciCode: number }> = [
  { text: "tx already exists in cache", abciCode: 19 },
  { text: "mempool is full", abciCode: 20 },
  { text: "tx too large", abciCode: 21 },
];

/**
 * The {@link BroadcastTxError} (phase `checkTx`, codespace `sdk`) of a JSON-RPC error with which
 * CometBFT's mempool refused the broadcast of `hash` before CheckTx, as the SDK's `BroadcastTx`
 * reports it over gRPC: sdk 19 (`tx-in-mempool`: the very same bytes were seen already), 20 (the
 * mempool is full), 21 (too large); its log is the node's text. Undefined for any other failure.
 */
function mempoolRefusal(error: unknown, hash: string): BroadcastTxError | undefined {
  let text: string;
  if (error instanceof JsonRpcError) text = error.data || error.message;
  else if (error instanceof Error && /^\{.*"code"/.test(error.message)) text = error.message;
  else return undefined;
  const lower = text.toLowerCase();
  const refusal = MEMPOOL_REFUSALS.find((r) => lower.includes(r.text));
  if (refusal === undefined) return undefined;
  return broadcastTxError(
    { abciCode: refusal.abciCode, codespace: "sdk", log: text, txHash: hash, phase: "checkTx" },
    { cause: error },
  );
}

/**
 * The error of a broadcast whose answer carries no transaction hash (an empty gRPC answer, a JSON
 * `result` of `{}`): a node always names the transaction it checked, so this is no node's
 * acceptance or refusal, and the transaction may have reached the node.
 */
function answeredWithoutHash(transport: "rpc" | "grpc", hash: string): TransportError {
  return new TransportError({
    transport,
    problem: `the node answered the broadcast of ${hash} without the transaction's hash`,
    nothingSent: false,
  });
}

/**
 * The error of a broadcast answered with another transaction's hash (a proxy's cached answer, a
 * confused node): neither its acceptance nor its refusal is this transaction's, which may have
 * reached the node.
 */
function anotherTxAnswered(transport: "rpc" | "grpc", reported: string, hash: string): TransportError {
  return new TransportError({
    transport,
    problem: `the node answered the broadcast of ${hash} with the hash ${reported.toUpperCase()}, another transaction's`,
    nothingSent: false,
  });
}

/**
 * Options of {@link waitForTx}.
 *
 * @example
 * ```ts
 * const sent = await client.bankSend({ signer: wallet, from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }], tx: { broadcastMode: "sync" } });
 * const params: WaitForTxParams = { hash: sent.hash, commitTimeoutMs: 30_000, pollIntervalMs: 250 };
 * (await waitForTx(client, params)).code; // 0
 * ```
 */
export interface WaitForTxParams extends CallOptions {
  /** The hash to wait for. */
  hash: string;
  /**
   * How long to wait in total.
   * @default the client's commitTimeoutMs (60,000)
   */
  commitTimeoutMs?: number;
  /**
   * How often to look.
   * @default the client's pollIntervalMs (500)
   */
  pollIntervalMs?: number;
  /**
   * Which transport looks: CometBFT RPC `tx`, or gRPC `GetTx`.
   * @default "rpc" when configured, else "grpc"
   */
  transport?: "rpc" | "grpc";
}

/**
 * Polls `getTx` (RPC `tx` by default, as the incumbent's commit mode does) until the transaction is in a block. A non-zero result throws
 * {@link BroadcastTxError} (phase `deliverTx`: the fee was charged and the sequence used).
 * A look that fails on the way (a refused, dropped or reset connection, a 5xx or a gateway's page,
 * a look past its `timeoutMs`) is looked again after `pollIntervalMs`, until `commitTimeoutMs`: a
 * flaky or restarting node does not end the wait while the transaction may still land. These end
 * it at once: a malformed answer (a `TransportError` naming what is wrong), the node's refusal
 * (`QueryError`), the caller's `signal` (`AbortedError`), and closing the client.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - see `WaitForTxParams`: each field is documented there.
 * @returns resolves with the committed transaction (height, code, log, events, gas).
 * @throws {TxInclusionTimeoutError} (carrying the hash) when it does not land in time; its `cause`
 *   is the last failed look, when looks failed.
 *
 * @example
 * ```ts
 * const sent = await client.bankSend({ signer: wallet, from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }], tx: { broadcastMode: "sync" } });
 * const landed = await waitForTx(client, { hash: sent.hash });
 * landed.height > 0n; // true
 * ```
 */
export async function waitForTx(client: NodeConnection, params: WaitForTxParams): Promise<TxInfo> {
  checkParams(params, "waitForTx");
  const timeoutMs = checkTimeout(
    params.commitTimeoutMs ?? client.txDefaults.commitTimeoutMs,
    "commitTimeoutMs",
  );
  const pollMs = checkTimeout(params.pollIntervalMs ?? client.txDefaults.pollIntervalMs, "pollIntervalMs");
  const deadline = Date.now() + timeoutMs;
  let lastFailure: unknown;
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new TxInclusionTimeoutError(params.hash, timeoutMs, { cause: lastFailure });
    let found: TxInfo | undefined;
    const lookMs = params.timeoutMs ?? client.timeoutMs;
    try {
      found = await getTx(client, {
        hash: params.hash,
        transport: params.transport ?? (client.rpc ? "rpc" : "grpc"),
        timeoutMs: Math.min(remaining, lookMs),
        ...(params.signal ? { signal: params.signal } : {}),
      });
    } catch (error) {
      if (params.signal?.aborted || !mayPass(error)) throw error;
      // A look cut short by the wait's own deadline says nothing of the node: the failure before it
      // stays the cause.
      const cutByDeadline = remaining < lookMs && error instanceof TimeoutError;
      if (!cutByDeadline || lastFailure === undefined) lastFailure = error;
    }
    if (found) {
      if (found.code !== 0) {
        throw broadcastTxError({
          abciCode: found.code,
          codespace: found.codespace,
          log: found.log,
          txHash: params.hash,
          phase: "deliverTx",
          height: found.height,
          gasWanted: found.gasWanted,
          gasUsed: found.gasUsed,
        });
      }
      return found;
    }
    const wait = Math.min(pollMs, deadline - Date.now());
    if (wait > 0) {
      try {
        await sleep(wait, params.signal);
      } catch (reason) {
        throw new AbortedError(`waiting for tx ${params.hash}`, reason);
      }
    }
  }
}

/**
 * Whether a failed look for a transaction may pass if asked again: a failure on the way to the node
 * (a refused, dropped or reset connection, a 5xx, a look past its deadline), but not a malformed
 * answer or a closed client (`isLastingFailure`), a node's refusal, nor bad input.
 */
function mayPass(error: unknown): boolean {
  if (isLastingFailure(error)) return false;
  return error instanceof TransportError || error instanceof TimeoutError;
}

/**
 * True for the bytes of a tx that holds a short-term order place or cancel, or a batch cancel:
 * such a tx lives in the node's memclob and never enters a block (chain-protocol 1.11).
 *
 * @param txBytes - the `TxRaw` bytes of a signed transaction.
 * @returns `true` when the transaction never enters a block, so waiting for its inclusion would
 *   never end.
 * @example
 * ```ts
 * const { accountNumber } = (await client.getAccount({ address: wallet.address }))!;
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 10;
 * // A short-term order: no fee and no sequence.
 * const order = placeOrderMsg({ subaccount, clientId: 109, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock });
 * const { txBytes } = await signTx({ signer: wallet, messages: [order], chainId: "perpx-local-1", accountNumber, sequence: 0n, fee: { amount: [], gasLimit: 0n } });
 * isShortTermOrderTx(txBytes); // true
 * ```
 */
export function isShortTermOrderTx(txBytes: Uint8Array): boolean {
  try {
    const body = fromBinary(cosmosTx.TxBodySchema, fromBinary(cosmosTx.TxRawSchema, txBytes).bodyBytes);
    return body.messages.some((any) => {
      if (any.typeUrl === `/${clob.MsgBatchCancelSchema.typeName}`) return true;
      if (any.typeUrl === `/${clob.MsgPlaceOrderSchema.typeName}`)
        return fromBinary(clob.MsgPlaceOrderSchema, any.value).order?.orderId?.orderFlags === 0;
      if (any.typeUrl === `/${clob.MsgCancelOrderSchema.typeName}`)
        return fromBinary(clob.MsgCancelOrderSchema, any.value).orderId?.orderFlags === 0;
      return false;
    });
  } catch {
    return false;
  }
}

/**
 * Broadcasts signed bytes: `sync`, `async`, or `commit` (sync, then {@link waitForTx}). A short-term
 * order tx ({@link isShortTermOrderTx}) never enters a block, so `commit` is `sync` for it.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - see `BroadcastTxParams`: each field is documented there.
 * @returns resolves with the hash, and per mode the CheckTx (and block) result.
 * @throws {BroadcastTxError} when CheckTx refuses it, or (commit) when it fails in the block.
 * @throws {TxInclusionTimeoutError} when `commit` does not see it land in time.
 *
 * @example
 * ```ts
 * const { accountNumber } = (await client.getAccount({ address: wallet.address }))!;
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 10;
 * // A short-term order: no fee and no sequence.
 * const order = placeOrderMsg({ subaccount, clientId: 110, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock });
 * const { txBytes } = await signTx({ signer: wallet, messages: [order], chainId: "perpx-local-1", accountNumber, sequence: 0n, fee: { amount: [], gasLimit: 0n } });
 * // A short-term order never enters a block: it returns at CheckTx in every mode.
 * const result = await broadcastTx(client, { txBytes, mode: "commit" });
 * result.height; // undefined
 * ```
 */
export async function broadcastTx(
  client: NodeConnection,
  params: BroadcastTxParams,
): Promise<BroadcastResult> {
  checkParams(params, "broadcastTx");
  const requested = params.mode ?? client.txDefaults.broadcastMode;
  const mode = requested === "commit" && isShortTermOrderTx(params.txBytes) ? "sync" : requested;
  const hash = await submitTx(client, { ...params, mode: mode === "async" ? "async" : "sync" });
  if (mode !== "commit") {
    return {
      hash,
      mode,
      height: undefined,
      gasWanted: undefined,
      gasUsed: undefined,
      events: [],
      tx: undefined,
    };
  }
  const landed = await waitForTx(client, {
    hash,
    ...(params.transport ? { transport: params.transport } : {}),
    ...(params.commitTimeoutMs === undefined ? {} : { commitTimeoutMs: params.commitTimeoutMs }),
    ...(params.pollIntervalMs === undefined ? {} : { pollIntervalMs: params.pollIntervalMs }),
    ...(params.timeoutMs === undefined ? {} : { timeoutMs: params.timeoutMs }),
    ...(params.signal ? { signal: params.signal } : {}),
  });
  return {
    hash,
    mode,
    height: landed.height,
    gasWanted: landed.gasWanted,
    gasUsed: landed.gasUsed,
    events: landed.events,
    tx: landed,
  };
}
