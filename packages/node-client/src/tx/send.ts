import { assertKnownKeys, Exact, feeForGas, type GasPrice, InvalidArgumentError } from "@perpx/core";
import type { clob } from "@perpx/proto";
import { type BroadcastMode, chainFacts, type NodeConnection } from "../connection.js";
import { isFeeFreeClobMessage, isShortTermClobMessage } from "../messages/clob.js";
import { bech32Address, checkParams } from "../messages/validate.js";
import { getChainId, getLatestBlock, type LatestBlock } from "../query/chain.js";
import { getMinimumGasPrices } from "../query/node.js";
import type { CallOptions } from "../transport/call.js";
import type { TxSigner } from "../wallet/signer.js";
import { SEND_TX_KEYS } from "./actionKeys.js";
import { type BroadcastResult, submitTx, waitForTx } from "./broadcast.js";
import type { TxFee, TxMessage } from "./encode.js";
import type { SequenceMode } from "./sequence.js";
import { signTx } from "./sign.js";
import { simulateTx } from "./simulate.js";
import { needsOrderWindow, validateOrderWindows } from "./validateOrders.js";

/**
 * The gas limit of clob transactions: they run on an infinite free gas meter, so any limit works.
 *
 * @example
 * ```ts
 * const fee = { amount: [], gasLimit: CLOB_GAS_LIMIT };
 * ```
 */
export const CLOB_GAS_LIMIT = 1_000_000n;

/**
 * Parameters of {@link sendTx}.
 *
 * @example
 * ```ts
 * const messages = [bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })];
 * const params: SendTxParams = { signer: wallet, messages, feeDenom: "aperpx", broadcastMode: "sync" };
 * (await sendTx(client, params)).fee.amount[0]?.denom; // "aperpx"
 * ```
 */
export interface SendTxParams extends CallOptions {
  /** The key that signs. */
  signer: TxSigner;
  /** The messages, in order; they succeed or fail together. */
  messages: readonly TxMessage[];
  /** @default "" */
  memo?: string;
  /**
   * The account whose number and sequence the transaction uses: the owner, when a trading key signs.
   * @default signer.address
   */
  account?: string;
  /**
   * Authenticator ids, one per message, when a permissioned key signs for `account`.
   * @default undefined (classic signature)
   */
  authenticators?: readonly bigint[];
  /**
   * Gas limit: `"auto"` simulates and multiplies by `gasMultiplier`; a bigint is used as is.
   * Clob transactions skip simulation and use {@link CLOB_GAS_LIMIT}.
   * @default "auto"
   */
  gas?: "auto" | bigint;
  /**
   * Multiplier of simulated gas.
   * @default the client's gasMultiplier (1.6)
   */
  gasMultiplier?: number;
  /**
   * The fee denom (`uusdc` or `aperpx`).
   * @default the client's feeDenom ("uusdc")
   */
  feeDenom?: string;
  /**
   * The gas price; the fee is `ceil(gas limit × price)`.
   * @default the network's minimum gas price of `feeDenom`
   */
  gasPrice?: GasPrice;
  /**
   * An explicit fee; skips gas estimation and pricing.
   * @default undefined
   */
  fee?: TxFee;
  /**
   * `sync`, `async` or `commit`. A short-term order place, cancel or batch cancel never waits for a
   * block (it never enters one: its CheckTx answer is final, chain-protocol 1.11), so `commit` is
   * `sync` for it; follow its fills with `watchShortTermOrder`.
   * @default the client's broadcastMode ("commit")
   */
  broadcastMode?: BroadcastMode;
  /**
   * Sequences or timestamp nonces for stateful transactions (short-term orders use neither).
   * @default the client's nonceMode ("sequence")
   */
  nonceMode?: "sequence" | "timestamp";
  /**
   * Block height after which the transaction is void (0 = none).
   * @default 0n
   */
  timeoutHeight?: bigint;
  /**
   * Check order expiry windows against the latest block before signing (one extra query).
   * @default true
   */
  validate?: boolean;
  /**
   * The latest block as the caller already knows it (e.g. from a live feed): the order windows are
   * checked against it instead of a query, so nothing but the broadcast goes over the network once
   * the chain id and the account's sequence are known.
   * @default undefined (queried when a clob message needs the check)
   */
  knownLatestBlock?: Pick<LatestBlock, "height" | "time">;
  /**
   * Which transport broadcasts.
   * @default "rpc" when configured, else "grpc"
   */
  broadcastTransport?: "rpc" | "grpc";
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
  /**
   * Told each step of the broadcast: `sending` with the signed transaction's hash and sequence
   * right before its bytes go out (a failure from then on may leave it on the node), `accepted`
   * once CheckTx took it into the mempool (a later failure, waiting for its block, leaves it
   * pending). Runs again for the re-signed transaction after a sequence mismatch. What it throws
   * at `sending` stops the send before the bytes go out (a caller's last cancellation check):
   * `sendTx` rejects with it.
   * @default undefined
   */
  onBroadcast?: (event: BroadcastProgress) => void;
}

/**
 * A step of a broadcast, as {@link SendTxParams.onBroadcast} reports it.
 *
 * @example
 * ```ts
 * const steps: BroadcastProgress[] = [];
 * const to = LocalWallet.generate().address;
 * await sendTx(client, { signer: wallet, messages: [bankSendMsg({ from: wallet.address, to, amount: [{ denom: "uusdc", amount: 1n }] })], onBroadcast: (step) => steps.push(step) });
 * steps.map((s) => s.stage); // ["sending", "accepted"]
 * ```
 */
export interface BroadcastProgress {
  /** `sending`: the bytes are about to go out; `accepted`: CheckTx took the transaction. */
  stage: "sending" | "accepted";
  /** The signed transaction's uppercase hex hash. */
  hash: string;
  /** The sequence (or timestamp nonce) it was signed with. */
  sequence: bigint;
}

/**
 * What {@link sendTx} returns.
 *
 * @example
 * ```ts
 * const messages = [bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })];
 * const { hash, height, shortTerm }: SendTxResult = await sendTx(client, { signer: wallet, messages });
 * [hash.length, height !== undefined, shortTerm]; // [64, true, false]
 * ```
 */
export interface SendTxResult extends BroadcastResult {
  /** The account number signed. */
  accountNumber: bigint;
  /** The sequence or timestamp nonce used. */
  sequence: bigint;
  /** The fee paid (empty for clob transactions). */
  fee: TxFee;
  /**
   * For a short-term order place, cancel or batch cancel: the node's memclob accepted it at CheckTx
   * (placed, matched or cancelled there); it never enters a block.
   */
  shortTerm: boolean;
  /** The id of the order a place or cancel message names (undefined otherwise). */
  orderId: clob.OrderId | undefined;
  /**
   * The latest block height seen before broadcasting, when the order windows were checked: the
   * fills of a short-term order land in a later block's proposed operations.
   */
  latestHeight: bigint | undefined;
}

function orderIdOf(message: TxMessage): clob.OrderId | undefined {
  if (message.typeUrl === "/perpx.clob.v1.MsgPlaceOrder")
    return (message.value as clob.MsgPlaceOrder).order?.orderId;
  if (message.typeUrl === "/perpx.clob.v1.MsgCancelOrder")
    return (message.value as clob.MsgCancelOrder).orderId;
  return undefined;
}

/**
 * Parameters of {@link resolveGasPrice}.
 *
 * @example
 * ```ts
 * const params: ResolveGasPriceParams = { denom: "uusdc", timeoutMs: 2_000 };
 * (await resolveGasPrice(client, params)).denom; // "uusdc"
 * ```
 */
export interface ResolveGasPriceParams extends CallOptions {
  /** The fee denom, e.g. `uusdc`. */
  denom: string;
}

/**
 * The gas price of a fee denom: the client's configured prices, else the network preset's, else
 * the node's `minimum-gas-prices` (read once and cached).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - see `ResolveGasPriceParams`: each field is documented there.
 * @returns resolves with the price per gas unit of the denom (an exact decimal string).
 * @throws {InvalidArgumentError} when the node takes no fees in that denom.
 *
 * @example
 * ```ts
 * await resolveGasPrice(client, { denom: "uusdc" }); // { denom: "uusdc", amount: "0.025" }
 * ```
 */
export async function resolveGasPrice(
  client: NodeConnection,
  params: ResolveGasPriceParams,
): Promise<GasPrice> {
  checkParams(params, "resolveGasPrice");
  const { denom, ...options } = params;
  const known = chainFacts(client);
  known.gasPrices ??= await getMinimumGasPrices(client, options);
  const prices = known.gasPrices;
  const price = prices.find((p) => p.denom === denom);
  if (!price) {
    throw new InvalidArgumentError(
      "feeDenom",
      `the chain takes fees in ${prices.map((p) => p.denom).join(", ") || "nothing"}, not ${JSON.stringify(denom)}`,
    );
  }
  return price;
}

/**
 * Gas limit from simulated gas: `ceil(gasUsed × multiplier)`, computed exactly with the multiplier
 * read as the decimal it is written as (`1.1` is 1.1, not the double just above it), so the limit,
 * and the fee at the gas price, is never a unit above the product.
 *
 * @param gasUsed - the gas the simulation used.
 * @param multiplier - the safety factor, at least 1 (e.g. 1.4).
 * @returns the gas limit to sign, rounded up.
 * @example
 * ```ts
 * gasWithMultiplier(100_000n, 1.6); // 160000n
 * gasWithMultiplier(100_000n, 1.1); // 110000n
 * ```
 */
export function gasWithMultiplier(gasUsed: bigint, multiplier: number): bigint {
  if (!Number.isFinite(multiplier) || multiplier <= 0) {
    throw new InvalidArgumentError("gasMultiplier", `must be a positive number, got ${String(multiplier)}`);
  }
  // A float product is off for most decimal factors (100_000 × 1.1 is 110000.00000000001).
  const limit = new Exact(String(multiplier), "gasMultiplier").times(gasUsed).toDecimalPlaces(0, "ceil");
  return BigInt(limit.toFixed());
}

/**
 * The whole send pipeline of a transaction: validation before signing, the sequence (serialized per
 * account; resync and one retry on a mismatch), timestamp nonces or none (short-term orders), gas
 * (simulation × multiplier, or fixed; clob transactions pay nothing), the fee at the minimum gas
 * price (rounded up), signing, and broadcast in `sync`, `async` or `commit` mode. A short-term
 * order place, cancel or batch cancel returns when CheckTx answers, whatever the mode: the node's
 * memclob placed, matched or cancelled it there, and it never enters a block (its fills land in
 * later blocks' proposed operations: `watchShortTermOrder`).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - see `SendTxParams`: each field is documented there.
 * @returns resolves once the node accepted the transaction (per the broadcast mode) with its hash,
 *   height, fee, sequence and order id.
 * @throws {InvalidOrderError | InvalidArgumentError} before signing; {@link BroadcastTxError} when
 *   the chain refuses or fails it; `TxInclusionTimeoutError` (with the hash) when `commit` waits too long.
 *
 * @example
 * ```ts
 * const to = LocalWallet.generate().address;
 * const result = await sendTx(client, {
 *   signer: wallet,
 *   messages: [bankSendMsg({ from: wallet.address, to, amount: [{ denom: "uusdc", amount: 1_000_000n }] })],
 * });
 * result.tx?.code; // 0
 * ```
 */
export async function sendTx(client: NodeConnection, params: SendTxParams): Promise<SendTxResult> {
  checkParams(params, "sendTx");
  assertKnownKeys(params, SEND_TX_KEYS, "sendTx");
  if (!Array.isArray(params.messages) || params.messages.length === 0) {
    throw new InvalidArgumentError("messages", "a transaction needs at least one message");
  }
  const messages = params.messages;
  const account = bech32Address(params.account ?? params.signer.address);
  const defaults = client.txDefaults;
  const timeoutHeight = params.timeoutHeight ?? 0n;
  const call: CallOptions = {
    ...(params.timeoutMs === undefined ? {} : { timeoutMs: params.timeoutMs }),
    ...(params.signal ? { signal: params.signal } : {}),
  };
  if (params.authenticators && params.authenticators.length !== messages.length) {
    throw new InvalidArgumentError(
      "authenticators",
      `one per message: ${messages.length} expected, got ${params.authenticators.length}`,
    );
  }
  const shortTerm = messages.length === 1 && isShortTermClobMessage(messages[0]!);
  let latestHeight: bigint | undefined;
  if (params.validate !== false && needsOrderWindow(messages)) {
    const latest = params.knownLatestBlock ?? (await getLatestBlock(client, call));
    latestHeight = latest.height;
    validateOrderWindows(messages, { latest, shortBlockWindow: defaults.shortBlockWindow, timeoutHeight });
  }
  const chainId = await getChainId(client, call);
  const feeFree = messages.some(isFeeFreeClobMessage);
  let fixedFee: TxFee | undefined = params.fee;
  let gasPrice: GasPrice | undefined;
  if (!fixedFee && feeFree) {
    fixedFee = { amount: [], gasLimit: typeof params.gas === "bigint" ? params.gas : CLOB_GAS_LIMIT };
  }
  if (!fixedFee) {
    gasPrice =
      params.gasPrice ??
      (await resolveGasPrice(client, { ...call, denom: params.feeDenom ?? defaults.feeDenom }));
    if (typeof params.gas === "bigint")
      fixedFee = { amount: [feeForGas(params.gas, gasPrice)], gasLimit: params.gas };
  }
  const mode: SequenceMode = shortTerm ? "none" : (params.nonceMode ?? defaults.nonceMode);
  const requestedMode = params.broadcastMode ?? defaults.broadcastMode;
  const broadcastMode: BroadcastMode = shortTerm && requestedMode === "commit" ? "sync" : requestedMode;
  const multiplier = params.gasMultiplier ?? defaults.gasMultiplier;

  const sent = await client.sequences.run({ address: account, mode }, async ({ accountNumber, sequence }) => {
    let fee = fixedFee;
    if (!fee) {
      const simulation = await simulateTx(client, {
        ...call,
        messages,
        publicKey: params.signer.publicKey,
        keyType: params.signer.keyType,
        sequence,
        ...(params.memo === undefined ? {} : { memo: params.memo }),
        ...(params.authenticators ? { authenticators: params.authenticators } : {}),
      });
      const gasLimit = gasWithMultiplier(simulation.gasUsed, multiplier);
      fee = { amount: [feeForGas(gasLimit, gasPrice!)], gasLimit };
    }
    const signed = await signTx({
      signer: params.signer,
      messages,
      chainId,
      accountNumber,
      sequence,
      fee,
      ...(params.memo === undefined ? {} : { memo: params.memo }),
      ...(timeoutHeight === 0n ? {} : { timeoutHeight }),
      ...(params.authenticators ? { authenticators: params.authenticators } : {}),
    });
    params.onBroadcast?.({ stage: "sending", hash: signed.hash, sequence });
    const hash = await submitTx(client, {
      ...call,
      txBytes: signed.txBytes,
      mode: broadcastMode === "async" ? "async" : "sync",
      ...(params.broadcastTransport ? { transport: params.broadcastTransport } : {}),
    });
    params.onBroadcast?.({ stage: "accepted", hash, sequence });
    return { hash, accountNumber, sequence, fee };
  });

  const base: SendTxResult = {
    ...sent,
    mode: broadcastMode,
    height: undefined,
    gasWanted: undefined,
    gasUsed: undefined,
    events: [],
    tx: undefined,
    shortTerm,
    orderId: messages.length === 1 ? orderIdOf(messages[0]!) : undefined,
    latestHeight,
  };
  if (broadcastMode !== "commit") return base;
  const landed = await waitForTx(client, {
    ...call,
    hash: sent.hash,
    ...(params.broadcastTransport ? { transport: params.broadcastTransport } : {}),
    ...(params.commitTimeoutMs === undefined ? {} : { commitTimeoutMs: params.commitTimeoutMs }),
    ...(params.pollIntervalMs === undefined ? {} : { pollIntervalMs: params.pollIntervalMs }),
  }).catch((error: unknown) => {
    client.sequences.observe(account, error);
    throw error;
  });
  return {
    ...base,
    height: landed.height,
    gasWanted: landed.gasWanted,
    gasUsed: landed.gasUsed,
    events: landed.events,
    tx: landed,
  };
}
