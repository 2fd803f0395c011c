/**
 * The clob's genesis records: one clob pair per devnet market (ids and perpetual ids equal to the
 * market's id; step, tick and quantum conversion exponent from `genesis-markets.ts`), the equity tier limits
 * and the liquidations configuration of the reference genesis (chain-protocol.md 1.9). The block
 * rate limits come from `clobRecords()` in `genesis.ts`.
 */
import { clob, encodeSerializableInt } from "@perpx/proto";
import { type MarketSpec, marketIdOf } from "../../genesis/genesis-markets.js";
import { wireCreate } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import { type ProtoRecord, padKey, record } from "../records.js";

/** The clob pairs, one per market (BTC-USD 0, ETH-USD 1, SOL-USD 2, ...), active. */
export function clobPairs(markets: readonly MarketSpec[]): clob.ClobPair[] {
  return markets.map((m, index) => {
    const id = marketIdOf(m, index);
    return wireCreate(wire.perpx_clob_v1_ClobPair, {
      id,
      metadata: { case: "perpetualClobMetadata", value: { perpetualId: id } },
      stepBaseQuantums: m.stepBaseQuantums,
      subticksPerTick: m.subticksPerTick,
      quantumConversionExponent: m.quantumConversionExponent,
      status: clob.ClobPair_Status.ACTIVE,
    });
  });
}

/** The reference equity tiers (USD thresholds in quote quantums). */
export function equityTiers(): clob.EquityTierLimitConfiguration {
  const tiers = (limits: readonly number[]) =>
    [0n, 20n, 100n, 1_000n, 10_000n, 100_000n].map((usd, i) =>
      wireCreate(wire.perpx_clob_v1_EquityTierLimit, {
        usdTncRequired: encodeSerializableInt(usd * 1_000_000n),
        limit: limits[i] ?? 0,
      }),
    );
  return wireCreate(wire.perpx_clob_v1_EquityTierLimitConfiguration, {
    shortTermOrderEquityTiers: tiers([0, 1, 5, 10, 100, 1_000]),
    statefulOrderEquityTiers: tiers([0, 1, 5, 10, 100, 200]),
  });
}

/** The clob's genesis records besides the block rate limits. */
export function clobGenesisRecords(markets: readonly MarketSpec[]): ProtoRecord[] {
  return [
    ...clobPairs(markets).map((p) => record(`pair/${padKey(p.id, 10)}`, wire.perpx_clob_v1_ClobPair, p)),
    record("equity_tier_config", wire.perpx_clob_v1_EquityTierLimitConfiguration, equityTiers()),
    record(
      "liquidations_config",
      wire.perpx_clob_v1_LiquidationsConfig,
      wireCreate(wire.perpx_clob_v1_LiquidationsConfig, {
        maxLiquidationFeePpm: 15_000,
        // At most max(10% of the position, $1,000 notional) per position per block.
        positionBlockLimits: {
          minPositionNotionalLiquidated: 1_000_000_000n,
          maxPositionPortionLiquidatedPpm: 100_000,
        },
        // At most $100k notional liquidated and $1M insurance fund loss per subaccount per block.
        subaccountBlockLimits: {
          maxNotionalLiquidated: 100_000_000_000n,
          maxQuantumsInsuranceLost: 1_000_000_000_000n,
        },
        fillablePriceConfig: {
          bankruptcyAdjustmentPpm: 1_000_000,
          spreadToMaintenanceMarginRatioPpm: 1_500_000,
        },
      }),
    ),
  ];
}
