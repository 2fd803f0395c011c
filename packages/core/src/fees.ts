import { InvalidArgumentError } from "@perpx/errors";
import { type IntegerInput, parseDecimal, parseInteger, toGrid } from "./decimal.js";
import type { GasPrice } from "./networks.js";

/**
 * A fee amount in one denom.
 *
 * @example
 * ```ts
 * const fee: FeeCoin = { denom: "uusdc", amount: 5000n };
 * ```
 */
export interface FeeCoin {
  readonly denom: string;
  /** Base units of `denom`. */
  readonly amount: bigint;
}

/**
 * The fee a node requires for `gasLimit` at `gasPrice`: `ceil(gasLimit × gasPrice.amount)`, exactly
 * as the Cosmos SDK's minimum-gas-price check computes it.
 *
 * @param gasLimit - the transaction's gas limit (non-negative integer).
 * @param gasPrice - a fee denom and its price per unit of gas, e.g. `network.minimumGasPrices[1]`.
 * @returns the fee coin.
 * @throws {InvalidArgumentError} when the gas limit is negative or the price is not a non-negative decimal.
 *
 * @example
 * ```ts
 * import { feeForGas, testnet } from "@perpx/core";
 *
 * feeForGas(200_000n, { denom: "uusdc", amount: "0.025" }); // { denom: "uusdc", amount: 5000n }
 * feeForGas(200_000n, testnet.minimumGasPrices[0]!); // { denom: "aperpx", amount: 5_000_000_000_000_000n }
 * ```
 */
export function feeForGas(gasLimit: IntegerInput, gasPrice: GasPrice): FeeCoin {
  const gas = parseInteger(gasLimit, "gasLimit");
  if (gas < 0n) throw new InvalidArgumentError("gasLimit", `must not be negative, got ${gas}`);
  if (typeof gasPrice !== "object" || gasPrice === null || typeof gasPrice.denom !== "string") {
    throw new InvalidArgumentError("gasPrice", "expected { denom, amount }");
  }
  let price: ReturnType<typeof parseDecimal>;
  try {
    price = parseDecimal(gasPrice.amount, "amount");
  } catch (error) {
    throw new InvalidArgumentError("gasPrice.amount", "is not a decimal string", { cause: error });
  }
  if (price.coefficient < 0n) throw new InvalidArgumentError("gasPrice.amount", "must not be negative");
  const fee = toGrid({ coefficient: price.coefficient * gas, exponent: price.exponent }, 0, 1n, "up");
  return { denom: gasPrice.denom, amount: fee.rounded };
}
