import { create } from "@bufbuild/protobuf";
import { InvalidArgumentError } from "@perpx/core";
import { cosmosBank, typeUrlOf } from "@perpx/proto";
import type { TxMessage } from "../tx/encode.js";
import { type CoinInput, sortedCoins } from "./transfers.js";
import { bech32Address, checkParams } from "./validate.js";

/**
 * Parameters of {@link bankMultiSendMsg}: one account pays several.
 *
 * @example
 * ```ts
 * const [b, c] = [LocalWallet.generate().address, LocalWallet.generate().address];
 * const params: BankMultiSendParams = { from: wallet.address, outputs: [{ to: b, amount: [{ denom: "uusdc", amount: 1n }] }, { to: c, amount: [{ denom: "uusdc", amount: 2n }] }] };
 * ```
 */
export interface BankMultiSendParams {
  /** The account paying (either address form); it signs. The chain takes one payer only. */
  from: string;
  /** The accounts credited and their coins (at least one); the payer pays their sum. */
  outputs: readonly { to: string; amount: readonly CoinInput[] }[];
}

/**
 * Builds a bank `MsgMultiSend` from one payer to several accounts; the input is the sum of the
 * outputs, so the two always balance.
 *
 * @param params - the message's fields in chain units (`BankMultiSendParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} (no output, an amount not above zero or not below 2^256) before anything is signed.
 *
 * @example
 * ```ts
 * const [b, c] = [LocalWallet.generate().address, LocalWallet.generate().address];
 * const msg = bankMultiSendMsg({ from: wallet.address, outputs: [{ to: b, amount: [{ denom: "uusdc", amount: 1_000n }] }, { to: c, amount: [{ denom: "uusdc", amount: 2_000n }] }] });
 * msg.value.inputs[0]?.coins[0]?.amount; // "3000": the payer pays the sum
 * ```
 */
export function bankMultiSendMsg(
  params: BankMultiSendParams,
): TxMessage<typeof cosmosBank.MsgMultiSendSchema> {
  checkParams(params, "bankMultiSendMsg");
  if (!Array.isArray(params.outputs) || params.outputs.length === 0) {
    throw new InvalidArgumentError("outputs", "must be a non-empty array of { to, amount }");
  }
  const totals = new Map<string, bigint>();
  const outputs = params.outputs.map((output, i) => {
    if (typeof output !== "object" || output === null) {
      throw new InvalidArgumentError(`outputs[${i}]`, "must be { to, amount }");
    }
    if (!Array.isArray(output.amount) || output.amount.length === 0) {
      throw new InvalidArgumentError(`outputs[${i}].amount`, "must be a non-empty array of coins");
    }
    const coins = sortedCoins(output.amount, `outputs[${i}].amount`);
    for (const coin of coins) totals.set(coin.denom, (totals.get(coin.denom) ?? 0n) + BigInt(coin.amount));
    return { address: bech32Address(output.to), coins };
  });
  const input = sortedCoins(
    [...totals].map(([denom, amount]) => ({ denom, amount })),
    "outputs (their sum)",
  );
  return {
    typeUrl: typeUrlOf(cosmosBank.MsgMultiSendSchema),
    value: create(cosmosBank.MsgMultiSendSchema, {
      inputs: [{ address: bech32Address(params.from), coins: input }],
      outputs,
    }),
  };
}
