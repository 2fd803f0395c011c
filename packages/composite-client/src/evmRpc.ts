import { PerpxError, type PerpxErrorCode } from "@perpx/errors";

/**
 * Why a bridge deposit stopped: `insufficient_usdc` or `insufficient_eth` (refused before signing),
 * `wrong_chain` (the source RPC serves another chain), `rpc` (the source chain refused a call or a
 * transaction), `reverted` (a transaction was mined with status 0), `unreachable` (no answer).
 *
 * @example
 * ```ts
 * const reason: BridgeDepositErrorReason = "insufficient_usdc";
 * ```
 */
export type BridgeDepositErrorReason =
  | "insufficient_usdc"
  | "insufficient_eth"
  | "wrong_chain"
  | "rpc"
  | "reverted"
  | "unreachable";

const CODES: Record<BridgeDepositErrorReason, PerpxErrorCode> = {
  insufficient_usdc: "INVALID_AMOUNT",
  insufficient_eth: "INVALID_ARGUMENT",
  wrong_chain: "INVALID_ARGUMENT",
  rpc: "QUERY",
  reverted: "BROADCAST_TX",
  unreachable: "TRANSPORT",
};

/**
 * A bridge deposit that could not be made; `reason` says why, `rpcCode` is the source chain's
 * JSON-RPC error code when it answered one.
 *
 * @example
 * ```ts
 * const error = new BridgeDepositError("insufficient_usdc", "0xab... holds 1 USDC on l1, the deposit needs 5");
 * error.code; // "INVALID_AMOUNT"
 * ```
 */
export class BridgeDepositError extends PerpxError {
  override name = "BridgeDepositError";
  /** Why the deposit stopped. */
  readonly reason: BridgeDepositErrorReason;
  /** The JSON-RPC error code, when the source chain answered one. */
  readonly rpcCode: number | undefined;

  /**
   * @param reason - why.
   * @param message - what happened.
   * @param options - the JSON-RPC code and the cause.
   */
  constructor(
    reason: BridgeDepositErrorReason,
    message: string,
    options: { rpcCode?: number; cause?: unknown } = {},
  ) {
    super(
      CODES[reason],
      `Bridge deposit failed: ${message}`,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    this.reason = reason;
    this.rpcCode = options.rpcCode;
  }
}

/**
 * Calls one Ethereum JSON-RPC method over HTTP and returns its result.
 *
 * @param url - the EVM JSON-RPC endpoint.
 * @param method - the method, such as `eth_getTransactionReceipt`.
 * @param params - the method's parameters.
 * @param signal - aborts the call; it then rejects with `AbortedError`.
 * @returns resolves with the method's `result`.
 * @throws {BridgeDepositError} `rpc` with the node's code and message when it answers an error,
 *   `unreachable` when it cannot be reached.
 *
 * @example
 * ```ts
 * await evmRpcCall<string>(devnet.endpoints.sourceL1Rpc, "eth_chainId", []); // "0xaa36a7"
 * await evmRpcCall(devnet.endpoints.sourceL1Rpc, "eth_sign", []); // throws BridgeDepositError (rpc)
 * ```
 */
export async function evmRpcCall<T>(
  url: string,
  method: string,
  params: readonly unknown[],
  signal?: AbortSignal,
): Promise<T> {
  let body: { result?: T; error?: { code: number; message: string } };
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      ...(signal === undefined ? {} : { signal }),
    });
    body = (await res.json()) as typeof body;
  } catch (cause) {
    throw new BridgeDepositError("unreachable", `${method} to ${url} got no answer`, { cause });
  }
  if (body.error !== undefined) {
    throw new BridgeDepositError("rpc", `${method}: ${body.error.message}`, { rpcCode: body.error.code });
  }
  return body.result as T;
}
