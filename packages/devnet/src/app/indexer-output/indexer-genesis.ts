/**
 * Genesis as the block-event stream sees it: the genesis markets, perpetuals, clob pairs, tiers,
 * prices and subaccounts, emitted as events of the first block so that an indexer builds itself
 * from the stream alone.
 */

import type { Context } from "../kernel/module.js";
import { allPairs, CLOB } from "../modules/clob/state.js";
import type { Keepers } from "../modules/index.js";
import { clobPairEvent, liquidityTierEvent, perpetualEvent, subaccountUpdateEvent } from "./indexer-emit.js";
import type { IndexerEvent } from "./indexer-events.js";

/**
 * The genesis state as indexer events: tiers, price markets and their prices, perpetuals, their
 * non-zero funding indices (a fork's live ones), clob pairs, then every subaccount.
 */
export function genesisIndexerEvents(ctx: Context, keepers: Keepers): IndexerEvent[] {
  const out: IndexerEvent[] = [];
  for (const tier of keepers.perpetuals.allLiquidityTiers(ctx)) out.push(liquidityTierEvent(tier));
  for (const param of keepers.prices.allMarketParams(ctx)) {
    out.push({ kind: "market_create", marketId: param.id, pair: param.pair, exponent: param.exponent });
    const price = keepers.prices.marketPrice(ctx, param.id);
    if (price !== undefined) out.push({ kind: "oracle_price", marketId: param.id, price: price.price });
  }
  const perpetuals = keepers.perpetuals.allPerpetuals(ctx);
  for (const perpetual of perpetuals) out.push(perpetualEvent(perpetual.params));
  for (const perpetual of perpetuals) {
    if (perpetual.fundingIndex === 0n) continue;
    const { id } = perpetual.params;
    out.push({ kind: "funding", phase: "genesis", perpetualId: id, fundingIndex: perpetual.fundingIndex });
  }
  for (const pair of allPairs(ctx.store(CLOB))) {
    const e = clobPairEvent(pair);
    if (e !== undefined) out.push(e);
  }
  for (const view of keepers.subaccounts.all(ctx)) out.push(subaccountUpdateEvent(view));
  return out;
}
