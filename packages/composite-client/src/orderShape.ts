import { assertKnownKeys, InvalidOrderError, optionKeys } from "@perpx/core";
import { showValue } from "@perpx/errors";
import type { GoodTil, HumanOrder } from "./orderPlan.js";

const HUMAN_ORDER_KEYS = optionKeys<HumanOrder>({
  market: true,
  side: true,
  type: true,
  size: true,
  price: true,
  slippage: true,
  timeInForce: true,
  postOnly: true,
  reduceOnly: true,
  goodTil: true,
  clientId: true,
  triggerPrice: true,
  rounding: true,
  twap: true,
  builderCode: true,
  orderRouterAddress: true,
});
const GOOD_TIL_KEYS = optionKeys<GoodTil>({ blocks: true, seconds: true });

/**
 * Refuses what would be misread rather than refused further on: an unknown key, a flag that is not
 * a boolean (`postOnly: "false"` is truthy), a `goodTil` that is not `{ blocks }` or `{ seconds }`.
 * Values are checked further on (sizes and prices by core, `goodTil`'s numbers by the plan).
 *
 * @param order - the order as the caller gave it.
 * @returns nothing.
 * @throws {UnknownOptionError} for a key a {@link HumanOrder} (or its `goodTil`) does not have.
 * @throws {InvalidOrderError} naming `postOnly`, `reduceOnly` or `goodTil`.
 *
 * @example
 * ```ts
 * checkOrderShape({ market: "BTC-USD", side: "BUY", size: "1", price: "30000", postOnly: true }); // passes
 * checkOrderShape({ market: "BTC-USD", side: "BUY", size: "1", price: "30000", postOnly: "false" as unknown as boolean }); // throws InvalidOrderError
 * checkOrderShape({ market: "BTC-USD", side: "BUY", size: "1", price: "30000", goodTill: { blocks: 5 } } as HumanOrder); // throws UnknownOptionError
 * ```
 */
export function checkOrderShape(order: HumanOrder): void {
  assertKnownKeys(order, HUMAN_ORDER_KEYS, "placeOrder");
  for (const flag of ["postOnly", "reduceOnly"] as const) {
    const value: unknown = order[flag];
    if (value !== undefined && typeof value !== "boolean") {
      throw new InvalidOrderError(flag, `must be true or false, got ${showValue(value)}`);
    }
  }
  const goodTil: unknown = order.goodTil;
  if (goodTil === undefined) return;
  if (typeof goodTil !== "object" || goodTil === null || Array.isArray(goodTil)) {
    throw new InvalidOrderError("goodTil", `must be { blocks } or { seconds }, got ${showValue(goodTil)}`);
  }
  assertKnownKeys(goodTil, GOOD_TIL_KEYS, "placeOrder", "goodTil");
  if ("blocks" in goodTil === "seconds" in goodTil) {
    throw new InvalidOrderError("goodTil", "give exactly one of blocks or seconds");
  }
}
