import { isValidAddress, MAX_SUBACCOUNT_NUMBER } from "@perpx/address";
import {
  assertKnownKeys,
  CANONICAL_DECIMAL_PATTERN,
  InvalidAmountError,
  optionKeys,
  usdcToQuoteQuantums,
} from "@perpx/core";
import { InvalidArgumentError, showValue } from "@perpx/errors";
import type { SendTxResult } from "@perpx/node-client";
import type { ClientContext } from "./client.js";
import { walletOf } from "./trader.js";

/**
 * What {@link transferUsdc} moves: `amount` USDC from the wallet's subaccount `from.number` (the
 * client's own subaccount by default) to `to` (a subaccount of the wallet, or of `to.owner`).
 *
 * @example
 * ```ts
 * const back: TransferParams = { amount: "25", from: { number: 1 }, to: { number: 0 } };
 * ```
 */
export interface TransferParams {
  /** The USDC amount, a canonical decimal (`"25"`, `"0.5"`) with at most 6 decimals, above zero. */
  amount: string;
  /**
   * The wallet's subaccount the USDC leaves.
   * @default { number: the client's subaccountNumber }
   */
  from?: { number: number };
  /** The subaccount that receives it: the wallet's own (`owner` left out) or another account's. */
  to: { owner?: string; number: number };
}

const TRANSFER_KEYS = optionKeys<TransferParams>({ amount: true, from: true, to: true });
const FROM_KEYS = optionKeys<{ number: number }>({ number: true });
const TO_KEYS = optionKeys<TransferParams["to"]>({ owner: true, number: true });
const CANONICAL = new RegExp(CANONICAL_DECIMAL_PATTERN);
/** The most quote quantums a message carries (the chain's uint64). */
const MAX_QUANTUMS = (1n << 64n) - 1n;

/**
 * Reads a USDC amount given by a person: a canonical decimal above zero with at most 6 decimals
 * (USDC's) and at most the chain's uint64 of quote quantums (18,446,744,073,709.551615), as quote
 * quantums. Nothing is rounded.
 *
 * @param amount - the amount, e.g. `"12.5"`.
 * @returns its quote quantums (`uusdc`).
 * @throws {InvalidAmountError} (`kind: "amount"`) for anything else, naming the nearest valid
 *   amounts when it has too many decimals.
 *
 * @example
 * ```ts
 * usdcAmount("12.5"); // 12_500_000n
 * usdcAmount("0.0000001"); // throws InvalidAmountError (more than 6 decimals)
 * usdcAmount("0"); // throws InvalidAmountError (not above zero)
 * usdcAmount("18446744073710"); // throws InvalidAmountError (above uint64 quote quantums)
 * ```
 */
export function usdcAmount(amount: string): bigint {
  if (typeof amount !== "string" || !CANONICAL.test(amount)) {
    throw new InvalidAmountError({
      kind: "amount",
      value: shown(amount),
      reason: "not-a-decimal",
      problem: 'must be a decimal string of digits with an optional fraction, like "25" or "0.5"',
    });
  }
  const quantums = usdcToQuoteQuantums(amount);
  if (quantums <= 0n) {
    throw new InvalidAmountError({
      kind: "amount",
      value: amount,
      reason: "not-positive",
      problem: "must be above zero",
    });
  }
  if (quantums > MAX_QUANTUMS) {
    throw new InvalidAmountError({
      kind: "amount",
      value: shown(amount),
      reason: "out-of-range",
      problem: "is above the chain's uint64 maximum of 18446744073709.551615 USDC",
    });
  }
  return quantums;
}

/** A refused value as the error shows it: short, secrets redacted, and never throwing. */
function shown(value: unknown): string {
  return showValue(value, 40);
}

/**
 * Checks a subaccount number given for `field` against the chain's range (0 to
 * `MAX_SUBACCOUNT_NUMBER`, from `@perpx/address`).
 *
 * @throws {InvalidArgumentError} naming `field`.
 */
function subaccountNumber(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_SUBACCOUNT_NUMBER) {
    throw new InvalidArgumentError(
      field,
      `must be a subaccount number, an integer from 0 to ${MAX_SUBACCOUNT_NUMBER}, got ${shown(value)}`,
    );
  }
  return value;
}

/**
 * Moves USDC between subaccounts: from any subaccount of the client's wallet (`from`, the client's
 * own by default) to any subaccount of the wallet or of another account (`to`). Everything is
 * checked before anything is signed; the owner's wallet signs `MsgCreateTransfer`.
 *
 * @param context - the client's context (its wallet signs).
 * @param params - the amount and the two subaccounts.
 * @returns the transaction, included in a block.
 * @throws {InvalidAmountError} for an amount that is not a canonical decimal above zero with at
 *   most 6 decimals.
 * @throws {InvalidArgumentError} naming `from.number`, `to.number` or `to.owner` when it is out of
 *   range or not an address, when `from` and `to` are the same subaccount, and for a read-only
 *   client or a trading key.
 * @throws {BroadcastTxError} when the chain refuses it (too little USDC in `from`).
 *
 * @example
 * ```ts
 * await transferUsdc(context, { amount: "25", to: { number: 1 } });
 * await transferUsdc(context, { amount: "25", from: { number: 1 }, to: { number: 0 } }); // and back, same client
 * await transferUsdc(context, { amount: "1", to: { number: 128_001 } }); // throws InvalidArgumentError (to.number)
 * ```
 */
export async function transferUsdc(context: ClientContext, params: TransferParams): Promise<SendTxResult> {
  assertKnownKeys(params, TRANSFER_KEYS, "transfer");
  assertKnownKeys(params.to, TO_KEYS, "transfer", "to");
  if (params.from !== undefined) assertKnownKeys(params.from, FROM_KEYS, "transfer", "from");
  const signer = walletOf(context, "transfer");
  const quantums = usdcAmount(params.amount);
  const from =
    params.from === undefined
      ? context.subaccountNumber
      : subaccountNumber(params.from.number, "from.number");
  const to = subaccountNumber(params.to.number, "to.number");
  const owner = params.to.owner ?? signer.address;
  if (typeof owner !== "string" || !isValidAddress(owner)) {
    throw new InvalidArgumentError("to.owner", `must be an account address, got ${shown(owner)}`);
  }
  const recipient = { owner, number: to };
  if (owner === signer.address && to === from) {
    throw new InvalidArgumentError("to", `is the subaccount the USDC leaves (${from}): nothing would move`);
  }
  return context.node.transfer({
    signer,
    sender: { owner: signer.address, number: from },
    recipient,
    quantums,
  });
}
