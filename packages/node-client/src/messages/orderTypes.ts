import type { DecimalInput, IntegerInput, SubaccountRef } from "@perpx/core";
import type { OrderAmounts } from "./market.js";
import type { TwapParams } from "./twap.js";

/**
 * Order flag values (`OrderId.order_flags`).
 *
 * @example
 * ```ts
 * ORDER_FLAGS["long-term"]; // 64
 * ```
 */
export const ORDER_FLAGS = { "short-term": 0, conditional: 32, "long-term": 64, twap: 128 } as const;

/**
 * How an order lives: in memory until a block height (short-term), or in state until a time
 * (long-term, conditional), or as a TWAP the chain splits into suborders over its duration.
 *
 * @example
 * ```ts
 * const kind: OrderKind = "long-term";
 * ```
 */
export type OrderKind = keyof typeof ORDER_FLAGS;

/**
 * `BUY` or `SELL`.
 *
 * @example
 * ```ts
 * const side: OrderSide = "SELL";
 * ```
 */
export type OrderSide = "BUY" | "SELL";

/**
 * Time in force. `GTC` is the chain's `TIME_IN_FORCE_UNSPECIFIED` (match, then rest);
 * `FILL_OR_KILL` is deprecated on chain (clob 48) and is sent as given.
 *
 * @example
 * ```ts
 * const tif: TimeInForce = "POST_ONLY";
 * ```
 */
export type TimeInForce = "GTC" | "IOC" | "POST_ONLY" | "FILL_OR_KILL";

/**
 * Stop-loss or take-profit (conditional orders).
 *
 * @example
 * ```ts
 * const condition: ConditionType = "TAKE_PROFIT";
 * ```
 */
export type ConditionType = "STOP_LOSS" | "TAKE_PROFIT";

/**
 * Fields every order has, besides its amounts ({@link OrderAmounts}: a clob pair id, quantums and
 * subticks, or a market, a size and a price).
 *
 * @example
 * ```ts
 * const common: OrderCommonParams = { subaccount, clientId: 1, side: "BUY" };
 * ```
 */
export interface OrderCommonParams {
  /** The subaccount placing the order (owner in either address form). */
  subaccount: SubaccountRef;
  /** Client-chosen id, unique per subaccount, uint32. */
  clientId: number;
  /** Buy or sell. */
  side: OrderSide;
  /**
   * Time in force.
   * @default "GTC"
   */
  timeInForce?: TimeInForce;
  /**
   * Only reduce an open position (the chain allows it on IOC orders only).
   * @default false
   */
  reduceOnly?: boolean;
  /**
   * Opaque uint32 the protocol carries untouched (the incumbent client sets 1 for market orders).
   * @default 0
   */
  clientMetadata?: number;
  /**
   * A builder code: `builderAddress` (bech32) earns `feePpm` (1 to 10,000) of each fill's notional.
   * @default undefined
   */
  builderCode?: { builderAddress: string; feePpm: number };
  /**
   * Address (bech32) of the order router (the front end that routed the order), which earns the
   * network's order-router share of the fees.
   * @default ""
   */
  orderRouterAddress?: string;
}

/**
 * Parameters of `placeOrderMsg`: common fields plus the kind and its expiry.
 *
 * @example
 * ```ts
 * const { height } = await client.getLatestBlock();
 * const order: PlaceOrderParams = {
 *   subaccount, clientId: 1, side: "BUY",
 *   market: btc, size: "0.001", price: "65000", kind: "short-term", goodTilBlock: Number(height) + 10,
 * };
 * ```
 */
export type PlaceOrderParams = OrderCommonParams &
  OrderAmounts &
  (
    | {
        /** Short-term: lives in memory until `goodTilBlock`; pays no fee, uses no sequence. */
        kind: "short-term";
        /** Last block height the order may fill in (next height ≤ it ≤ next height + 40, the ShortBlockWindow). */
        goodTilBlock: number;
      }
    | {
        /** Long-term: a stateful order that rests until `goodTilBlockTime`. */
        kind: "long-term";
        /** Expiry, unix seconds (within 95 days of the previous block's time). */
        goodTilBlockTime: number;
      }
    | {
        /** Conditional: a stateful order that triggers on the oracle price. */
        kind: "conditional";
        /** Expiry, unix seconds. */
        goodTilBlockTime: number;
        /** Stop-loss or take-profit. */
        conditionType: ConditionType;
        /**
         * Trigger price in subticks (> 0); or give `triggerPrice`.
         * @default converted from `triggerPrice`
         */
        triggerSubticks?: IntegerInput;
        /**
         * Trigger price in USD, converted exactly on the order's `market`; or give `triggerSubticks`.
         * @default undefined
         */
        triggerPrice?: DecimalInput;
      }
    | {
        /**
         * TWAP: the chain splits the order into suborders over `twap.durationSeconds` (see
         * {@link TwapParams}). Subticks (or price) 0 makes a market TWAP.
         */
        kind: "twap";
        /** Unix seconds; the chain requires one on every stateful order. */
        goodTilBlockTime: number;
        /** The schedule and the price tolerance. */
        twap: TwapParams;
      }
  );
