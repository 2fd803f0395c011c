/**
 * Broadcast methods: `check_tx`, `broadcast_tx_sync`, `broadcast_tx_async` and
 * `broadcast_tx_commit`, which waits (up to a timeout) for the tx to be committed.
 */
import type { BlockRecord, ChainApp, TxResult } from "../../app/contract.js";
import { sha256 } from "../../app/lib/sha256.js";
import { txResultJson } from "../comet-json.js";
import { toBase64, toHexUpper } from "../encoding.js";
import { internal } from "./errors.js";
import { type MethodTable, requireBytes } from "./params.js";

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

/** The broadcast methods over `app`; `broadcast_tx_commit` waits up to `commitTimeoutMs`. */
export function createBroadcaster(app: ChainApp, commitTimeoutMs: number): Broadcaster {
  const waiters = new Set<CommitWaiter>();

  const checkTx = (tx: Uint8Array): TxResult => {
    try {
      return app.checkTx(tx);
    } catch (error) {
      throw internal(error instanceof Error ? error.message : String(error));
    }
  };

  const committed = (hash: Uint8Array): Promise<bigint | undefined> =>
    new Promise<bigint | undefined>((resolve) => {
      const waiter: CommitWaiter = {
        hash,
        resolve: (h) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(h);
        },
      };
      const timer = setTimeout(() => waiter.resolve(undefined), commitTimeoutMs);
      waiters.add(waiter);
    });

  const methods: MethodTable = {
    check_tx: { params: [["tx", "bytes"]], run: (p) => txResultJson(checkTx(requireBytes(p, "tx"))) },
    broadcast_tx_sync: {
      params: [["tx", "bytes"]],
      run: (p) => {
        const tx = requireBytes(p, "tx");
        const result = checkTx(tx);
        return {
          code: result.code,
          data: toBase64(result.data),
          log: result.log,
          codespace: result.codespace,
          hash: toHexUpper(sha256(tx)),
        };
      },
    },
    broadcast_tx_async: {
      params: [["tx", "bytes"]],
      run: (p) => {
        const tx = requireBytes(p, "tx");
        setImmediate(() => {
          try {
            app.checkTx(tx);
          } catch {
            // An async broadcast reports nothing about CheckTx.
          }
        });
        return { code: 0, data: "", log: "", codespace: "", hash: toHexUpper(sha256(tx)) };
      },
    },
    broadcast_tx_commit: {
      params: [["tx", "bytes"]],
      run: async (p) => {
        const tx = requireBytes(p, "tx");
        const hash = sha256(tx);
        const check = checkTx(tx);
        if (check.code !== 0) {
          return { check_tx: txResultJson(check), tx_result: {}, hash: toHexUpper(hash), height: "0" };
        }
        const height = await committed(hash);
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
