/**
 * Broadcast methods: `check_tx`, `broadcast_tx_sync`, `broadcast_tx_async` and
 * `broadcast_tx_commit`, which waits (up to a timeout) for the tx to be committed. CheckTx runs in
 * the node's one line (see {@link CheckLine}), in arrival order with every other broadcast. A tx
 * the mempool refuses before CheckTx (`TxResult.mempoolError`: in the cache, too large) is the
 * JSON-RPC internal error CometBFT answers (`data` its error text).
 */
import type { BlockRecord, ChainApp, TxResult } from "../../app/contract.js";
import { sha256 } from "../../app/lib/sha256.js";
import type { CheckLine } from "../check-line.js";
import { txResultJson } from "../comet-json.js";
import { toBase64, toHexUpper } from "../encoding.js";
import { internal, type RpcError } from "./errors.js";
import { type MethodTable, requireBytes } from "./params.js";

/** CometBFT's `ErrTxInCache` text. */
const TX_IN_CACHE = "tx already exists in cache";

interface CommitWaiter {
  hash: Uint8Array;
  resolve: (height: bigint | undefined) => void;
}

/** The broadcast methods, and the hooks their commit waits need. */
export interface Broadcaster {
  readonly methods: MethodTable;
  /** Wakes the `broadcast_tx_commit` calls whose tx is now committed. */
  onBlock(block: BlockRecord): void;
  /** Ends every pending commit wait (as a timeout). */
  close(): void;
}

/** `value`, or what `then` makes of it once it settles. */
function andThen<T, U>(value: T | Promise<T>, then: (value: T) => U): U | Promise<U> {
  return value instanceof Promise ? value.then(then) : then(value);
}

/** What CheckTx threw, as the JSON-RPC internal error CometBFT answers with. */
function internalOf(error: unknown): RpcError {
  return internal(error instanceof Error ? error.message : String(error));
}

/**
 * The broadcast methods over `app`, checking txs in `line`; `broadcast_tx_commit` waits up to
 * `commitTimeoutMs`.
 */
export function createBroadcaster(app: ChainApp, line: CheckLine, commitTimeoutMs: number): Broadcaster {
  const waiters = new Set<CommitWaiter>();

  const checkTx = (tx: Uint8Array): TxResult | Promise<TxResult> => {
    let result: TxResult | Promise<TxResult>;
    try {
      result = line.check(tx);
    } catch (error) {
      throw internalOf(error);
    }
    return result instanceof Promise
      ? result.catch((error: unknown) => {
          throw internalOf(error);
        })
      : result;
  };

  /** Waits for `hash` to be committed: its height, or undefined on timeout, close or `cancel`. */
  const commitWait = (hash: Uint8Array): { height: Promise<bigint | undefined>; cancel(): void } => {
    let waiter: CommitWaiter | undefined;
    const height = new Promise<bigint | undefined>((resolve) => {
      const registered: CommitWaiter = {
        hash,
        resolve: (h) => {
          clearTimeout(timer);
          waiters.delete(registered);
          resolve(h);
        },
      };
      const timer = setTimeout(() => registered.resolve(undefined), commitTimeoutMs);
      waiters.add(registered);
      waiter = registered;
    });
    return { height, cancel: () => waiter?.resolve(undefined) };
  };

  const methods: MethodTable = {
    check_tx: {
      params: [["tx", "bytes"]],
      run: (p) => andThen(checkTx(requireBytes(p, "tx")), txResultJson),
    },
    broadcast_tx_sync: {
      params: [["tx", "bytes"]],
      run: (p) => {
        const tx = requireBytes(p, "tx");
        return andThen(checkTx(tx), (result) => {
          if (result.mempoolError !== undefined) throw internal(result.mempoolError);
          return {
            code: result.code,
            data: toBase64(result.data),
            log: result.log,
            codespace: result.codespace,
            hash: toHexUpper(sha256(tx)),
          };
        });
      },
    },
    broadcast_tx_async: {
      params: [["tx", "bytes"]],
      run: (p) => {
        const tx = requireBytes(p, "tx");
        const hash = sha256(tx);
        // CometBFT's mempool pushes the tx into its cache on arrival: a tx already there is refused.
        if (app.inTxCache?.(hash) === true) throw internal(TX_IN_CACHE);
        line.enqueue(tx);
        return { code: 0, data: "", log: "", codespace: "", hash: toHexUpper(hash) };
      },
    },
    broadcast_tx_commit: {
      params: [["tx", "bytes"]],
      run: async (p) => {
        const tx = requireBytes(p, "tx");
        const hash = sha256(tx);
        // The wait starts before CheckTx: a block committed as soon as it is queued is not missed.
        const inclusion = commitWait(hash);
        try {
          const check = await checkTx(tx);
          if (check.mempoolError !== undefined) {
            throw internal(`error on broadcastTxCommit: ${check.mempoolError}`);
          }
          if (check.code !== 0) {
            return { check_tx: txResultJson(check), tx_result: {}, hash: toHexUpper(hash), height: "0" };
          }
          const height = await inclusion.height;
          const indexed = app.tx(hash);
          if (height === undefined || indexed === undefined) {
            throw internal("timed out waiting for tx to be included in a block");
          }
          return {
            check_tx: txResultJson(check),
            tx_result: txResultJson(indexed.result),
            hash: toHexUpper(hash),
            height: indexed.height.toString(),
          };
        } finally {
          inclusion.cancel();
        }
      },
    },
  };

  return {
    methods,
    onBlock(block) {
      for (const waiter of [...waiters]) {
        if (app.tx(waiter.hash) !== undefined) waiter.resolve(block.height);
      }
    },
    close() {
      for (const waiter of [...waiters]) waiter.resolve(undefined);
    },
  };
}
