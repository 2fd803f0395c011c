/**
 * Governance messages of the Ethereum bridge: its event, propose and safety parameters, and
 * completing a recognized deposit.
 */
import { type IntegerInput, InvalidArgumentError } from "@perpx/core";
import { bridge } from "@perpx/proto";
import {
  bech32Address,
  checkParams,
  nonEmpty,
  positiveAmount,
  positiveUint64,
  uint32,
  uint64,
} from "../../messages/validate.js";
import type { TxMessage } from "../../tx/encode.js";
import { authorityOf, bool, durationOf, type GovernanceParams, object, ppm } from "./fields.js";
import { govMsg } from "./msg.js";

const ETH_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function ethAddress(value: string, argument: string): string {
  if (typeof value !== "string" || !ETH_ADDRESS.test(value)) {
    throw new InvalidArgumentError(
      argument,
      `must be an Ethereum address 0x + 40 hex digits, got ${JSON.stringify(String(value))}`,
    );
  }
  return value;
}

/**
 * Parameters of {@link updateBridgeEventParamsMsg}: the bridge contract of one Ethereum chain.
 *
 * @example
 * ```ts
 * const params: UpdateBridgeEventParamsParams = { denom: "aperpx", ethChainId: 11155111n, ethAddress: "0x8c9fDe8a10E5e4bCB2E5A8f0b2a1a3C3F0c8D9e1", tokenAddress: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238" };
 * ```
 */
export interface UpdateBridgeEventParamsParams extends GovernanceParams {
  /** The denom minted for deposits. */
  denom: string;
  /** The Ethereum chain id, > 0. */
  ethChainId: IntegerInput;
  /** The bridge contract. */
  ethAddress: string;
  /** The bridged token's contract. */
  tokenAddress: string;
}

/**
 * Builds a `MsgUpdateEventParams` (governance) of the bridge.
 *
 * @param params - the message's fields in chain units (`UpdateBridgeEventParamsParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = updateBridgeEventParamsMsg({ denom: "aperpx", ethChainId: 11155111n, ethAddress: "0x8c9fDe8a10E5e4bCB2E5A8f0b2a1a3C3F0c8D9e1", tokenAddress: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238" });
 * ```
 */
export function updateBridgeEventParamsMsg(
  params: UpdateBridgeEventParamsParams,
): TxMessage<typeof bridge.MsgUpdateEventParamsSchema> {
  checkParams(params, "updateBridgeEventParamsMsg");
  return govMsg(bridge.MsgUpdateEventParamsSchema, {
    authority: authorityOf(params),
    params: {
      denom: nonEmpty(params.denom, "denom"),
      ethChainId: positiveUint64(params.ethChainId, "ethChainId"),
      ethAddress: ethAddress(params.ethAddress, "ethAddress"),
      tokenAddress: ethAddress(params.tokenAddress, "tokenAddress"),
    },
  });
}

/**
 * Parameters of {@link updateBridgeProposeParamsMsg}.
 *
 * @example
 * ```ts
 * const params: UpdateBridgeProposeParamsParams = { maxBridgesPerBlock: 10, proposeDelaySeconds: 60, skipRatePpm: 800_000, skipIfBlockDelayedBySeconds: 5 };
 * ```
 */
export interface UpdateBridgeProposeParamsParams extends GovernanceParams {
  /** The most deposits acknowledged per block (uint32). */
  maxBridgesPerBlock: number;
  /** How long a recognized deposit waits before it is proposed, in whole seconds. */
  proposeDelaySeconds: number;
  /** The chance a proposer skips proposing, in ppm. */
  skipRatePpm: number;
  /** Proposers skip when the block is this late, in whole seconds. */
  skipIfBlockDelayedBySeconds: number;
}

/**
 * Builds a `MsgUpdateProposeParams` (governance) of the bridge.
 *
 * @param params - the message's fields in chain units (`UpdateBridgeProposeParamsParams`: each
 *   field is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = updateBridgeProposeParamsMsg({ maxBridgesPerBlock: 10, proposeDelaySeconds: 60, skipRatePpm: 800_000, skipIfBlockDelayedBySeconds: 5 });
 * ```
 */
export function updateBridgeProposeParamsMsg(
  params: UpdateBridgeProposeParamsParams,
): TxMessage<typeof bridge.MsgUpdateProposeParamsSchema> {
  checkParams(params, "updateBridgeProposeParamsMsg");
  return govMsg(bridge.MsgUpdateProposeParamsSchema, {
    authority: authorityOf(params),
    params: {
      maxBridgesPerBlock: uint32(params.maxBridgesPerBlock, "maxBridgesPerBlock"),
      proposeDelayDuration: durationOf(params.proposeDelaySeconds, "proposeDelaySeconds"),
      skipRatePpm: ppm(params.skipRatePpm, "skipRatePpm"),
      skipIfBlockDelayedByDuration: durationOf(
        params.skipIfBlockDelayedBySeconds,
        "skipIfBlockDelayedBySeconds",
      ),
    },
  });
}

/**
 * Parameters of {@link updateBridgeSafetyParamsMsg}.
 *
 * @example
 * ```ts
 * const params: UpdateBridgeSafetyParamsParams = { isDisabled: false, delayBlocks: 86_400 };
 * ```
 */
export interface UpdateBridgeSafetyParamsParams extends GovernanceParams {
  /** Whether deposits are stopped. */
  isDisabled: boolean;
  /** Blocks between a deposit's acknowledgement and its completion (uint32). */
  delayBlocks: number;
}

/**
 * Builds a `MsgUpdateSafetyParams` (governance) of the bridge.
 *
 * @param params - the message's fields in chain units (`UpdateBridgeSafetyParamsParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = updateBridgeSafetyParamsMsg({ isDisabled: true, delayBlocks: 86_400 });
 * ```
 */
export function updateBridgeSafetyParamsMsg(
  params: UpdateBridgeSafetyParamsParams,
): TxMessage<typeof bridge.MsgUpdateSafetyParamsSchema> {
  checkParams(params, "updateBridgeSafetyParamsMsg");
  return govMsg(bridge.MsgUpdateSafetyParamsSchema, {
    authority: authorityOf(params),
    params: {
      isDisabled: bool(params.isDisabled, "isDisabled"),
      delayBlocks: uint32(params.delayBlocks, "delayBlocks"),
    },
  });
}

/**
 * A deposit on an Ethereum bridge contract.
 *
 * @example
 * ```ts
 * const event: BridgeEventInput = { id: 7, coin: { denom: "aperpx", amount: 10n ** 18n }, address: wallet.address, ethBlockHeight: 123n, ethChainId: 11155111n, tokenAddress: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", ethTxHash: `0x${"ab".repeat(32)}` };
 * ```
 */
export interface BridgeEventInput {
  /** The deposit id on its chain (uint32). */
  id: number;
  /** The coin credited, amount > 0. */
  coin: { denom: string; amount: IntegerInput };
  /** The account credited (either address form). */
  address: string;
  /** The Ethereum block of the deposit. */
  ethBlockHeight: IntegerInput;
  /** The Ethereum chain id, > 0. */
  ethChainId: IntegerInput;
  /** The bridged token's contract. */
  tokenAddress: string;
  /** The deposit's Ethereum transaction hash, 0x + 64 hex digits. */
  ethTxHash: string;
}

/**
 * Parameters of {@link completeBridgeMsg}.
 *
 * @example
 * ```ts
 * const event: BridgeEventInput = { id: 7, coin: { denom: "aperpx", amount: 10n ** 18n }, address: wallet.address, ethBlockHeight: 123n, ethChainId: 11155111n, tokenAddress: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", ethTxHash: `0x${"ab".repeat(32)}` };
 * const params: CompleteBridgeParams = { event };
 * ```
 */
export interface CompleteBridgeParams extends GovernanceParams {
  /** The deposit completed. */
  event: BridgeEventInput;
}

/**
 * Builds a `MsgCompleteBridge`: credits a recognized deposit. The chain schedules it itself (signed
 * by the delaymsg module) once the safety delay has passed; governance may send it too.
 *
 * @param params - the message's fields in chain units (`CompleteBridgeParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = completeBridgeMsg({ event: { id: 7, coin: { denom: "aperpx", amount: 10n ** 18n }, address: wallet.address, ethBlockHeight: 123n, ethChainId: 11155111n, tokenAddress: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", ethTxHash: `0x${"ab".repeat(32)}` } });
 * ```
 */
export function completeBridgeMsg(
  params: CompleteBridgeParams,
): TxMessage<typeof bridge.MsgCompleteBridgeSchema> {
  checkParams(params, "completeBridgeMsg");
  const event = object(params.event, "event");
  object(event.coin, "event.coin");
  if (typeof event.ethTxHash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(event.ethTxHash)) {
    throw new InvalidArgumentError("event.ethTxHash", "must be 0x + 64 hex digits");
  }
  return govMsg(bridge.MsgCompleteBridgeSchema, {
    authority: authorityOf(params),
    event: {
      id: uint32(event.id, "event.id"),
      coin: {
        denom: nonEmpty(event.coin.denom, "event.coin.denom"),
        amount: positiveAmount(event.coin.amount, "event.coin.amount"),
      },
      address: bech32Address(event.address),
      ethBlockHeight: uint64(event.ethBlockHeight, "event.ethBlockHeight"),
      ethChainId: positiveUint64(event.ethChainId, "event.ethChainId"),
      tokenAddress: ethAddress(event.tokenAddress, "event.tokenAddress"),
      ethTxHash: event.ethTxHash,
    },
  });
}
