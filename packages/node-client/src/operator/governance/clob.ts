/**
 * Governance messages of the clob: creating and updating clob pairs, and the clob's order limits
 * (equity tiers, per-block rate limits) and liquidation config.
 */
import { type IntegerInput, InvalidArgumentError } from "@perpx/core";
import { clob } from "@perpx/proto";
import { checkParams, positiveUint64, uint32, uint64 } from "../../messages/validate.js";
import type { TxMessage } from "../../tx/encode.js";
import {
  authorityOf,
  type GovernanceParams,
  int32,
  intIn,
  list,
  object,
  serializableUint,
} from "./fields.js";
import { govMsg } from "./msg.js";

/**
 * The statuses a clob pair may be given (the chain supports these transitions: initializing ->
 * active or final settlement, active -> final settlement, final settlement -> initializing).
 *
 * @example
 * ```ts
 * const status: ClobPairStatus = "initializing";
 * ```
 */
export type ClobPairStatus = "initializing" | "active" | "final-settlement";

const STATUSES: Record<ClobPairStatus, clob.ClobPair_Status> = {
  initializing: clob.ClobPair_Status.INITIALIZING,
  active: clob.ClobPair_Status.ACTIVE,
  "final-settlement": clob.ClobPair_Status.FINAL_SETTLEMENT,
};

/**
 * A perpetual clob pair.
 *
 * @example
 * ```ts
 * const pair: ClobPairInput = { id: 5, perpetualId: 5, stepBaseQuantums: 1_000_000n, subticksPerTick: 1_000_000, quantumConversionExponent: -9, status: "initializing" };
 * ```
 */
export interface ClobPairInput {
  /** The clob pair id (uint32). */
  id: number;
  /** The perpetual it trades. */
  perpetualId: number;
  /** Order sizes are multiples of this many base quantums, > 0. */
  stepBaseQuantums: IntegerInput;
  /** Subticks per tick (order prices are multiples of it), > 0. */
  subticksPerTick: number;
  /** The quantum conversion exponent (int32). */
  quantumConversionExponent: number;
  /** The pair's status. */
  status: ClobPairStatus;
}

function clobPair(input: ClobPairInput, argument: string) {
  object(input, argument);
  const status = STATUSES[input.status];
  if (status === undefined) {
    throw new InvalidArgumentError(
      `${argument}.status`,
      `must be one of ${Object.keys(STATUSES).join(", ")}, got ${JSON.stringify(String(input.status))}`,
    );
  }
  return {
    id: uint32(input.id, `${argument}.id`),
    metadata: {
      case: "perpetualClobMetadata" as const,
      value: { perpetualId: uint32(input.perpetualId, `${argument}.perpetualId`) },
    },
    stepBaseQuantums: positiveUint64(input.stepBaseQuantums, `${argument}.stepBaseQuantums`),
    subticksPerTick: intIn(input.subticksPerTick, `${argument}.subticksPerTick`, 1),
    quantumConversionExponent: int32(
      input.quantumConversionExponent,
      `${argument}.quantumConversionExponent`,
    ),
    status,
  };
}

/**
 * Parameters of {@link createClobPairMsg} and {@link updateClobPairMsg}.
 *
 * @example
 * ```ts
 * const params: ClobPairParams = { clobPair: { id: 5, perpetualId: 5, stepBaseQuantums: 1_000_000n, subticksPerTick: 1_000_000, quantumConversionExponent: -9, status: "initializing" } };
 * ```
 */
export interface ClobPairParams extends GovernanceParams {
  /** The clob pair. */
  clobPair: ClobPairInput;
}

/**
 * Builds a `MsgCreateClobPair` (governance): opens an order book on a perpetual.
 *
 * @param params - the message's fields in chain units (`ClobPairParams`: each field is documented
 *   there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = createClobPairMsg({ clobPair: { id: 5, perpetualId: 5, stepBaseQuantums: 1_000_000n, subticksPerTick: 1_000_000, quantumConversionExponent: -9, status: "initializing" } });
 * ```
 */
export function createClobPairMsg(params: ClobPairParams): TxMessage<typeof clob.MsgCreateClobPairSchema> {
  checkParams(params, "createClobPairMsg");
  return govMsg(clob.MsgCreateClobPairSchema, {
    authority: authorityOf(params),
    clobPair: clobPair(params.clobPair, "clobPair"),
  });
}

/**
 * Builds a `MsgUpdateClobPair` (governance), e.g. to activate a pair.
 *
 * @param params - the message's fields in chain units (`ClobPairParams`: each field is documented
 *   there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const pair: ClobPairInput = { id: 5, perpetualId: 5, stepBaseQuantums: 1_000_000n, subticksPerTick: 1_000_000, quantumConversionExponent: -9, status: "initializing" };
 * const msg = updateClobPairMsg({ clobPair: { ...pair, status: "active" } });
 * ```
 */
export function updateClobPairMsg(params: ClobPairParams): TxMessage<typeof clob.MsgUpdateClobPairSchema> {
  checkParams(params, "updateClobPairMsg");
  return govMsg(clob.MsgUpdateClobPairSchema, {
    authority: authorityOf(params),
    clobPair: clobPair(params.clobPair, "clobPair"),
  });
}

/**
 * One equity tier: subaccounts with at least this net collateral may hold this many open orders.
 *
 * @example
 * ```ts
 * const tier: EquityTierLimitInput = { usdTncRequired: 20_000_000n, limit: 5 };
 * ```
 */
export interface EquityTierLimitInput {
  /** Total net collateral required, in quote quantums (>= 0). */
  usdTncRequired: IntegerInput;
  /** The open-order limit (uint32). */
  limit: number;
}

/**
 * Parameters of {@link updateEquityTierLimitConfigMsg}.
 *
 * @example
 * ```ts
 * const params: UpdateEquityTierLimitConfigParams = { shortTermOrderEquityTiers: [], statefulOrderEquityTiers: [{ usdTncRequired: 0n, limit: 0 }, { usdTncRequired: 20_000_000n, limit: 5 }] };
 * ```
 */
export interface UpdateEquityTierLimitConfigParams extends GovernanceParams {
  /** The tiers limiting short-term orders. */
  shortTermOrderEquityTiers: readonly EquityTierLimitInput[];
  /** The tiers limiting stateful orders. */
  statefulOrderEquityTiers: readonly EquityTierLimitInput[];
}

function equityTiers(tiers: readonly EquityTierLimitInput[], argument: string) {
  return list(tiers, argument).map((tier, i) => {
    object(tier, `${argument}[${i}]`);
    return {
      usdTncRequired: serializableUint(tier.usdTncRequired, `${argument}[${i}].usdTncRequired`),
      limit: uint32(tier.limit, `${argument}[${i}].limit`),
    };
  });
}

/**
 * Builds a `MsgUpdateEquityTierLimitConfiguration` (governance).
 *
 * @param params - the message's fields in chain units (`UpdateEquityTierLimitConfigParams`: each
 *   field is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = updateEquityTierLimitConfigMsg({ shortTermOrderEquityTiers: [], statefulOrderEquityTiers: [{ usdTncRequired: 20_000_000n, limit: 5 }] });
 * ```
 */
export function updateEquityTierLimitConfigMsg(
  params: UpdateEquityTierLimitConfigParams,
): TxMessage<typeof clob.MsgUpdateEquityTierLimitConfigurationSchema> {
  checkParams(params, "updateEquityTierLimitConfigMsg");
  return govMsg(clob.MsgUpdateEquityTierLimitConfigurationSchema, {
    authority: authorityOf(params),
    equityTierLimitConfig: {
      shortTermOrderEquityTiers: equityTiers(params.shortTermOrderEquityTiers, "shortTermOrderEquityTiers"),
      statefulOrderEquityTiers: equityTiers(params.statefulOrderEquityTiers, "statefulOrderEquityTiers"),
    },
  });
}

/**
 * At most `limit` of something per `numBlocks` blocks.
 *
 * @example
 * ```ts
 * const rate: BlockRateLimitInput = { numBlocks: 1, limit: 200 };
 * ```
 */
export interface BlockRateLimitInput {
  /** The window in blocks, > 0. */
  numBlocks: number;
  /** The most allowed in the window, > 0. */
  limit: number;
}

/**
 * Parameters of {@link updateBlockRateLimitConfigMsg}: each list may be empty (no limit).
 *
 * @example
 * ```ts
 * const params: UpdateBlockRateLimitConfigParams = { maxStatefulOrdersPerNBlocks: [{ numBlocks: 1, limit: 2 }], maxShortTermOrdersAndCancelsPerNBlocks: [{ numBlocks: 1, limit: 400 }] };
 * ```
 */
export interface UpdateBlockRateLimitConfigParams extends GovernanceParams {
  /** @default [] */
  maxShortTermOrdersPerNBlocks?: readonly BlockRateLimitInput[];
  /** @default [] */
  maxStatefulOrdersPerNBlocks?: readonly BlockRateLimitInput[];
  /** @default [] */
  maxShortTermOrderCancellationsPerNBlocks?: readonly BlockRateLimitInput[];
  /** @default [] */
  maxShortTermOrdersAndCancelsPerNBlocks?: readonly BlockRateLimitInput[];
  /** @default [] */
  maxLeverageUpdatesPerNBlocks?: readonly BlockRateLimitInput[];
}

function rateLimits(limits: readonly BlockRateLimitInput[] | undefined, argument: string) {
  return list(limits ?? [], argument).map((limit, i) => {
    object(limit, `${argument}[${i}]`);
    return {
      numBlocks: intIn(limit.numBlocks, `${argument}[${i}].numBlocks`, 1),
      limit: intIn(limit.limit, `${argument}[${i}].limit`, 1),
    };
  });
}

/**
 * Builds a `MsgUpdateBlockRateLimitConfiguration` (governance).
 *
 * @param params - the message's fields in chain units (`UpdateBlockRateLimitConfigParams`: each
 *   field is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} (a zero window or limit) before anything is built.
 *
 * @example
 * ```ts
 * const msg = updateBlockRateLimitConfigMsg({ maxStatefulOrdersPerNBlocks: [{ numBlocks: 1, limit: 2 }, { numBlocks: 100, limit: 20 }] });
 * ```
 */
export function updateBlockRateLimitConfigMsg(
  params: UpdateBlockRateLimitConfigParams,
): TxMessage<typeof clob.MsgUpdateBlockRateLimitConfigurationSchema> {
  checkParams(params, "updateBlockRateLimitConfigMsg");
  return govMsg(clob.MsgUpdateBlockRateLimitConfigurationSchema, {
    authority: authorityOf(params),
    blockRateLimitConfig: {
      maxShortTermOrdersPerNBlocks: rateLimits(
        params.maxShortTermOrdersPerNBlocks,
        "maxShortTermOrdersPerNBlocks",
      ),
      maxStatefulOrdersPerNBlocks: rateLimits(
        params.maxStatefulOrdersPerNBlocks,
        "maxStatefulOrdersPerNBlocks",
      ),
      maxShortTermOrderCancellationsPerNBlocks: rateLimits(
        params.maxShortTermOrderCancellationsPerNBlocks,
        "maxShortTermOrderCancellationsPerNBlocks",
      ),
      maxShortTermOrdersAndCancelsPerNBlocks: rateLimits(
        params.maxShortTermOrdersAndCancelsPerNBlocks,
        "maxShortTermOrdersAndCancelsPerNBlocks",
      ),
      maxLeverageUpdatesPerNBlocks: rateLimits(
        params.maxLeverageUpdatesPerNBlocks,
        "maxLeverageUpdatesPerNBlocks",
      ),
    },
  });
}

/**
 * Parameters of {@link updateLiquidationsConfigMsg}.
 *
 * @example
 * ```ts
 * const params: UpdateLiquidationsConfigParams = { maxLiquidationFeePpm: 15_000, maxPositionPortionLiquidatedPpm: 1_000_000, minPositionNotionalLiquidated: 1_000n, maxNotionalLiquidated: 100_000_000_000_000n, maxQuantumsInsuranceLost: 100_000_000_000_000n, bankruptcyAdjustmentPpm: 1_000_000, spreadToMaintenanceMarginRatioPpm: 1_500_000 };
 * ```
 */
export interface UpdateLiquidationsConfigParams extends GovernanceParams {
  /** The largest liquidation fee, in ppm, 1 to 1,000,000. */
  maxLiquidationFeePpm: number;
  /** The largest part of a position liquidated per block, in ppm, 1 to 1,000,000. */
  maxPositionPortionLiquidatedPpm: number;
  /** The smallest notional liquidated at once, in quote quantums. */
  minPositionNotionalLiquidated: IntegerInput;
  /** The most notional liquidated per subaccount per block, in quote quantums, > 0. */
  maxNotionalLiquidated: IntegerInput;
  /** The most insurance fund quantums lost per subaccount per block, > 0. */
  maxQuantumsInsuranceLost: IntegerInput;
  /** The bankruptcy price adjustment, in ppm, at least 1,000,000. */
  bankruptcyAdjustmentPpm: number;
  /** The spread to maintenance margin ratio, in ppm, > 0. */
  spreadToMaintenanceMarginRatioPpm: number;
}

/**
 * Builds a `MsgUpdateLiquidationsConfig` (governance).
 *
 * @param params - the message's fields in chain units (`UpdateLiquidationsConfigParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} with the chain's bounds, before anything is built.
 *
 * @example
 * ```ts
 * const msg = updateLiquidationsConfigMsg({ maxLiquidationFeePpm: 15_000, maxPositionPortionLiquidatedPpm: 1_000_000, minPositionNotionalLiquidated: 1_000n, maxNotionalLiquidated: 10n ** 14n, maxQuantumsInsuranceLost: 10n ** 14n, bankruptcyAdjustmentPpm: 1_000_000, spreadToMaintenanceMarginRatioPpm: 1_500_000 });
 * ```
 */
export function updateLiquidationsConfigMsg(
  params: UpdateLiquidationsConfigParams,
): TxMessage<typeof clob.MsgUpdateLiquidationsConfigSchema> {
  checkParams(params, "updateLiquidationsConfigMsg");
  return govMsg(clob.MsgUpdateLiquidationsConfigSchema, {
    authority: authorityOf(params),
    liquidationsConfig: {
      maxLiquidationFeePpm: intIn(params.maxLiquidationFeePpm, "maxLiquidationFeePpm", 1, 1_000_000),
      positionBlockLimits: {
        minPositionNotionalLiquidated: uint64(
          params.minPositionNotionalLiquidated,
          "minPositionNotionalLiquidated",
        ),
        maxPositionPortionLiquidatedPpm: intIn(
          params.maxPositionPortionLiquidatedPpm,
          "maxPositionPortionLiquidatedPpm",
          1,
          1_000_000,
        ),
      },
      subaccountBlockLimits: {
        maxNotionalLiquidated: positiveUint64(params.maxNotionalLiquidated, "maxNotionalLiquidated"),
        maxQuantumsInsuranceLost: positiveUint64(params.maxQuantumsInsuranceLost, "maxQuantumsInsuranceLost"),
      },
      fillablePriceConfig: {
        bankruptcyAdjustmentPpm: intIn(params.bankruptcyAdjustmentPpm, "bankruptcyAdjustmentPpm", 1_000_000),
        spreadToMaintenanceMarginRatioPpm: intIn(
          params.spreadToMaintenanceMarginRatioPpm,
          "spreadToMaintenanceMarginRatioPpm",
          1,
        ),
      },
    },
  });
}
