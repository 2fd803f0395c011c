/**
 * The clob's side of funding (`funding.ts`'s {@link FundingBook}): premium votes from the memclob's
 * books (`premium.ts`) against the oracle price, and the oracle price in subticks.
 */
import type { clob } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import type { FundingBook, PremiumVoteRequest } from "../funding/funding.js";
import { OrderBook } from "./book.js";
import type { ClobKeepers } from "./engine.js";
import { type Fraction, premiumPpm, scaledFraction } from "./premium.js";
import { allPairs, CLOB } from "./state.js";

/** The oracle price of a pair's perpetual in subticks, as a fraction; undefined without a price. */
export function oracleSubticksFraction(
  ctx: Context,
  keepers: Pick<ClobKeepers, "perpetuals" | "prices">,
  pair: clob.ClobPair,
): Fraction | undefined {
  if (pair.metadata.case !== "perpetualClobMetadata") return undefined;
  const params = keepers.perpetuals.findParams(ctx, pair.metadata.value.perpetualId);
  if (params === undefined) return undefined;
  const price = keepers.prices.marketPrice(ctx, params.marketId);
  if (price === undefined || price.price === 0n) return undefined;
  return scaledFraction(
    price.price,
    price.exponent - pair.quantumConversionExponent + params.atomicResolution + 6,
  );
}

/** The premium votes and oracle prices of the clob's books over `keepers`. */
export function clobFundingBook(keepers: Pick<ClobKeepers, "perpetuals" | "prices">): FundingBook {
  // One block's pairs by perpetual, read once per context (a sample epoch asks for every perpetual).
  const cache = new WeakMap<Context, Map<number, { id: number; qce: number }>>();
  const pairsByPerpetual = (ctx: Context) => {
    const cached = cache.get(ctx);
    if (cached !== undefined) return cached;
    const out = new Map<number, { id: number; qce: number }>();
    for (const pair of allPairs(ctx.store(CLOB))) {
      if (pair.metadata.case !== "perpetualClobMetadata") continue;
      out.set(pair.metadata.value.perpetualId, { id: pair.id, qce: pair.quantumConversionExponent });
    }
    cache.set(ctx, out);
    return out;
  };
  /** The oracle price in subticks as a fraction, or undefined without a price. */
  const indexSubticks = (ctx: Context, perpetualId: number, qce: number) => {
    const params = keepers.perpetuals.findParams(ctx, perpetualId);
    if (params === undefined) return undefined;
    const price = keepers.prices.marketPrice(ctx, params.marketId);
    if (price === undefined || price.price === 0n) return undefined;
    return scaledFraction(price.price, price.exponent - qce + params.atomicResolution + 6);
  };
  return {
    premiumVotes(ctx: Context, requests: readonly PremiumVoteRequest[]): Map<number, bigint> {
      const pairs = pairsByPerpetual(ctx);
      const book = new OrderBook(ctx.store(CLOB));
      const votes = new Map<number, bigint>();
      for (const request of requests) {
        const pair = pairs.get(request.perpetualId);
        if (pair === undefined) continue;
        // Most books are empty: skip them before reading the oracle price.
        if (book.best(pair.id, "buy") === undefined && book.best(pair.id, "sell") === undefined) continue;
        const index = indexSubticks(ctx, request.perpetualId, pair.qce);
        if (index === undefined) continue;
        const vote = premiumPpm(
          () => book.orders(pair.id, "buy"),
          () => book.orders(pair.id, "sell"),
          index,
          request.impactNotional,
          pair.qce,
          request.maxAbsPpm,
        );
        if (vote !== 0n) votes.set(request.perpetualId, vote);
      }
      return votes;
    },
    oracleSubticks(ctx: Context, perpetualId: number): bigint | undefined {
      const pair = pairsByPerpetual(ctx).get(perpetualId);
      if (pair === undefined) return undefined;
      const index = indexSubticks(ctx, perpetualId, pair.qce);
      return index === undefined ? undefined : index.num / index.den;
    },
  };
}
