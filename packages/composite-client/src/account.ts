import {
  assertKnownKeys,
  Exact,
  MissingEndpointError,
  optionKeys,
  quantumsToSize,
  quoteQuantumsToUsdc,
} from "@perpx/core";
import type { FundingPaymentResponseObject } from "@perpx/core/indexer";
import { isIndexerNotFoundError } from "@perpx/indexer-client";
import { subaccountBalances } from "@perpx/node-client";
import { catalogQueries, perpetualAmounts } from "@perpx/node-client/queries";
import type { perpetuals } from "@perpx/proto";
import type { ClientContext } from "./client.js";
import { type AccountDisplay, accountDisplay } from "./display.js";
import { type MarginPositionInput, marginSummary, type OpenInterestInput } from "./margin.js";
import type { CompositeMarket } from "./markets.js";
import { traderOf } from "./trader.js";

/**
 * A position in human units.
 *
 * @example
 * ```ts
 * const bought = await client.placeOrder({ market: "BTC-USD", side: "BUY", type: "MARKET", size: "0.001", slippage: "1%" });
 * (await bought.result({ timeoutMs: 10_000 })).status; // "FILLED"
 * const account = await client.account();
 * const position: Position | undefined = account.positions.find((p) => p.market === "BTC-USD");
 * position?.entryPrice !== undefined; // true
 * ```
 */
export interface Position {
  /** The market's ticker. */
  market: string;
  /** LONG or SHORT. */
  side: "LONG" | "SHORT";
  /** The size, unsigned, in the base asset. */
  size: string;
  /** The oracle price, USD. */
  oraclePrice: string;
  /** size × oracle price, USD (signed: negative for a short), truncated toward zero to a quote quantum as the chain counts it. */
  value: string;
  /** The average entry price, USD, from the indexer (undefined without one). */
  entryPrice: string | undefined;
  /** (oracle − entry) × signed size, USD (undefined without an entry price). */
  unrealizedPnl: string | undefined;
  /** The estimated oracle price at which the account falls to its maintenance margin, this position's price alone moving. */
  liquidationPrice: string | undefined;
}

/**
 * An open order of the account, in human units.
 *
 * @example
 * ```ts
 * import { Exact } from "@perpx/core";
 * const price = new Exact(btc.oraclePrice).dividedBy(2, { scale: 0, rounding: "floor" }).toFixed();
 * const order = await client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price, rounding: "down" });
 * (await order.result({ timeoutMs: 5_000 })).status; // "RESTING"
 * const open: AccountOrder[] = (await client.account()).openOrders;
 * open.some((o) => o.clientId === order.clientId); // true
 * await client.cancelOrder({ market: "BTC-USD", clientId: order.clientId });
 * ```
 */
export interface AccountOrder {
  /** The market's ticker. */
  market: string;
  /** Its client id. */
  clientId: number;
  /** BUY or SELL. */
  side: string;
  /** The order type (LIMIT, STOP_LIMIT, ...). */
  type: string | undefined;
  /** The indexer's status (OPEN, UNTRIGGERED, BEST_EFFORT_OPENED). */
  status: string;
  /** The limit price, USD. */
  price: string | undefined;
  /** The size, in the base asset. */
  size: string | undefined;
  /** The size filled so far. */
  filledSize: string;
}

/**
 * A fill of the account, in human units.
 *
 * @example
 * ```ts
 * const sold = await client.placeOrder({ market: "BTC-USD", side: "SELL", type: "MARKET", size: "0.001", slippage: "1%" });
 * (await sold.result({ timeoutMs: 10_000 })).status; // "FILLED"
 * const fills: AccountFill[] = (await client.account()).fills;
 * fills.some((f) => f.market === "BTC-USD" && f.side === "SELL"); // true
 * ```
 */
export interface AccountFill {
  /** The market's ticker. */
  market: string;
  /** BUY or SELL. */
  side: string;
  /** The price, USD. */
  price: string;
  /** The size, in the base asset. */
  size: string;
  /** The fee, USDC (negative: a rebate). */
  fee: string;
  /** Whether the order took (`taker`) or was hit (`maker`). */
  liquidity: "taker" | "maker";
  /** The indexer's id of the order filled. */
  orderId: string | undefined;
  /** The block that settled it. */
  height: bigint;
}

/**
 * The account in human units (decimal strings): USDC, equity, free collateral, margin usage,
 * leverage, positions, open orders and fills.
 *
 * @example
 * ```ts
 * const { equity, freeCollateral, marginUsage, leverage, positions }: AccountView = await client.account();
 * ```
 */
export interface AccountView {
  /** The subaccount. */
  subaccount: { owner: string; number: number };
  /**
   * Where it was read: `feed` (the indexer's live account: every field; margin fractions and open
   * interest from the indexer's markets), or `node` (the chain's balances, liquidity tiers and open
   * interest, with or without an indexer; entry prices from the indexer's REST when there is one;
   * no open orders or fills).
   */
  source: "feed" | "node";
  /**
   * The USDC balance (negative when borrowed), with the funding the positions have not settled yet
   * (rounded down to a quote quantum), as the chain counts it when it judges collateral.
   */
  usdc: string;
  /** USDC plus every position's value at the oracle price (each truncated to a quote quantum, as the chain). */
  equity: string;
  /**
   * Equity minus the initial margin of the positions, each rounded up to a quote quantum, at the
   * initial margin fraction the chain charges (the market's raised by its open interest between
   * its tier's caps, or the leverage choice): the chain's own figure (see {@link marginSummary}),
   * so up to it can be withdrawn or committed, one quantum more is refused (undefined when a
   * market's margin fractions are unknown).
   */
  freeCollateral: string | undefined;
  /** Initial margin ÷ equity. */
  marginUsage: string | undefined;
  /** Total notional ÷ equity. */
  leverage: string | undefined;
  /** The open positions. */
  positions: Position[];
  /** The orders that may still fill (from the feed). */
  openOrders: AccountOrder[];
  /** The fills seen since the client connected, oldest first (from the feed). */
  fills: AccountFill[];
  /** The figures above rounded for people (USD to cents, sizes and prices to the market's step and tick). */
  display: AccountDisplay;
}

/**
 * The initial margin fraction of a market for the account: its leverage choice, else the market's
 * (the larger of the two, as the chain charges it).
 *
 * @param market - the market with its default initial margin fraction.
 * @param choices - the account's leverage choices: initial margin fraction in ppm, by clob pair id.
 * @returns the fraction as a human decimal string (`"0.05"` for 20x), or `undefined` when the
 *   market has none.
 * @example
 * ```ts
 * imfOf(btc, new Map([[btc.clobPairId, 200_000]])); // "0.2"
 * ```
 */
export function imfOf(market: CompositeMarket, choices: ReadonlyMap<number, number>): string | undefined {
  return chosenImf(market, market.indexer?.initialMarginFraction, choices);
}

/** {@link imfOf} with the market's own fraction given (`own`). */
function chosenImf(
  market: CompositeMarket,
  own: string | undefined,
  choices: ReadonlyMap<number, number>,
): string | undefined {
  const chosen = choices.get(market.clobPairId);
  if (chosen === undefined) return own;
  // the chain charges the larger of the choice and the market's own fraction
  const choice = Exact.fromUnits(BigInt(chosen), 6);
  return own !== undefined && new Exact(own).greaterThan(choice) ? own : choice.toFixed();
}

/**
 * What a market's margin needs: its liquidity tier's fractions, its open interest and the tier's
 * caps (decimal strings), from the node or from the indexer's perpetual market.
 */
interface MarginTerms {
  /** The tier's initial margin fraction (before a leverage choice or an open-interest raise). */
  initialMarginFraction: string | undefined;
  /** The tier's maintenance margin fraction. */
  maintenanceMarginFraction: string | undefined;
  /** The open interest and the tier's caps, when known. */
  openInterest: OpenInterestInput | undefined;
}

/**
 * The open interest of a market and its tier's caps, from the indexer's perpetual market (undefined
 * without one, or when it gives no caps).
 *
 * @param market - the cached market.
 * @returns the open interest input of {@link marginSummary}.
 * @example
 * ```ts
 * const terms = openInterestOf(btc); // the market's open interest and its tier's caps
 * terms?.upperCap; // "0" (this tier has no open-interest scaling)
 * ```
 */
export function openInterestOf(market: CompositeMarket): OpenInterestInput | undefined {
  const m = market.indexer;
  if (m?.openInterestLowerCap === undefined || m.openInterestUpperCap === undefined) return undefined;
  return { size: m.openInterest, lowerCap: m.openInterestLowerCap, upperCap: m.openInterestUpperCap };
}

/** A market's margin terms from the indexer's perpetual market. */
function indexerTerms(market: CompositeMarket): MarginTerms {
  return {
    initialMarginFraction: market.indexer?.initialMarginFraction,
    maintenanceMarginFraction: market.indexer?.maintenanceMarginFraction,
    openInterest: openInterestOf(market),
  };
}

/** A market's margin terms from the node: its liquidity tier and the perpetual's open interest. */
function nodeTerms(
  market: CompositeMarket,
  tier: perpetuals.LiquidityTier,
  openInterest: bigint,
): MarginTerms {
  const imfPpm = BigInt(tier.initialMarginPpm);
  return {
    initialMarginFraction: Exact.fromUnits(imfPpm, 6).toFixed(),
    // the maintenance fraction is a share (ppm) of the initial one: ppm × ppm
    maintenanceMarginFraction: Exact.fromUnits(imfPpm * BigInt(tier.maintenanceFractionPpm), 12).toFixed(),
    openInterest: {
      size: quantumsToSize(openInterest < 0n ? 0n : openInterest, market),
      lowerCap: quoteQuantumsToUsdc(tier.openInterestLowerCap),
      upperCap: quoteQuantumsToUsdc(tier.openInterestUpperCap),
    },
  };
}

async function leverageChoices(context: ClientContext, subaccount: { owner: string; number: number }) {
  const settings = await context.node.getLeverage(subaccount).catch(() => undefined);
  if (settings) context.leverage = new Map(settings.map((s) => [s.clobPairId, s.imfPpm]));
  return context.leverage ?? new Map<number, number>();
}

function summarize(
  context: ClientContext,
  base: Omit<AccountView, "equity" | "freeCollateral" | "marginUsage" | "leverage" | "positions" | "display">,
  held: {
    market: CompositeMarket;
    size: string;
    entryPrice: string | undefined;
    /** The node's terms of the market; else the indexer's (as cached). */
    terms?: MarginTerms | undefined;
  }[],
  choices: ReadonlyMap<number, number>,
): AccountView {
  const inputs: MarginPositionInput[] = held.map(({ market, size, entryPrice, terms }) => {
    const cached = context.markets.cached(market.ticker) ?? market;
    const own = terms ?? indexerTerms(cached);
    return {
      market: market.ticker,
      size,
      entryPrice,
      oraclePrice: cached.oraclePrice,
      initialMarginFraction: chosenImf(market, own.initialMarginFraction, choices),
      maintenanceMarginFraction: own.maintenanceMarginFraction,
      baseInitialMarginFraction: own.initialMarginFraction,
      openInterest: own.openInterest,
    };
  });
  const summary = marginSummary({ usdc: base.usdc, positions: inputs });
  const view: Omit<AccountView, "display"> = {
    ...base,
    equity: summary.equity,
    freeCollateral: summary.freeCollateral,
    marginUsage: summary.marginUsage,
    leverage: summary.leverage,
    positions: inputs.map((input, i) => {
      const size = new Exact(input.size, "size");
      return {
        market: input.market,
        side: size.isNegative() ? "SHORT" : "LONG",
        size: size.abs().toFixed(),
        oraclePrice: input.oraclePrice,
        value: summary.positions[i]?.value ?? "0",
        entryPrice: input.entryPrice,
        unrealizedPnl: summary.positions[i]?.unrealizedPnl,
        liquidationPrice: summary.positions[i]?.liquidationPrice,
      };
    }),
  };
  const marketOf = (ticker: string) =>
    (held.find((h) => h.market.ticker === ticker) as (typeof held)[0]).market;
  return { ...view, display: accountDisplay(view, marketOf) };
}

/**
 * The account in human units: from the indexer's live account when the client has a feed, once the
 * feed reported the node's latest block (oracle prices from the live market cache, the leverage
 * choices from the node), else from the node's balances with the indexer's entry prices.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @returns resolves with equity, free collateral, margin usage, leverage and each position as human
 *   decimal strings.
 * @throws {InvalidArgumentError} on a read-only client.
 *
 * @example
 * ```ts
 * const account = await accountView(context);
 * ```
 */
export async function accountView(context: ClientContext): Promise<AccountView> {
  const subaccount = { owner: traderOf(context, "account").owner, number: context.subaccountNumber };
  const live = context.feed?.subaccount;
  const choices = await leverageChoices(context, subaccount);
  if (live && live.view.blockHeight !== undefined) {
    // The feed lags the chain by a moment: wait (briefly) until it reported the node's latest block.
    const latest = (await context.node.getLatestBlock()).height;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      context.height.waitAbove(latest - 1n),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, 3_000);
      }),
    ]);
    clearTimeout(timer);
    const view = live.view;
    let usdc = new Exact(0);
    for (const asset of view.assetPositions()) {
      if (asset.symbol === "USDC")
        usdc = asset.side === "SHORT" ? usdc.minus(asset.size) : usdc.plus(asset.size);
    }
    const held = await Promise.all(
      view.positions().map(async (p) => ({
        market: await context.markets.get(p.market),
        size: p.size,
        entryPrice: p.entryPrice,
      })),
    );
    const tickerOf = (clobPairId: string | undefined) =>
      held.find((h) => String(h.market.clobPairId) === clobPairId)?.market.ticker ?? "";
    return summarize(
      context,
      {
        subaccount,
        source: "feed",
        usdc: usdc.toFixed(),
        openOrders: view.openOrders().map((o) => ({
          market: o.ticker ?? tickerOf(o.clobPairId),
          clientId: Number(o.clientId),
          side: o.side ?? "",
          type: o.type,
          status: o.status,
          price: o.price,
          size: o.size,
          filledSize: o.totalFilled ?? "0",
        })),
        fills: view.fills().map((f) => ({
          market: f.ticker,
          side: f.side,
          price: f.price,
          size: f.size,
          fee: f.fee,
          liquidity: f.liquidity === "TAKER" ? "taker" : "maker",
          orderId: f.orderId,
          height: BigInt(f.createdAtHeight),
        })),
      },
      held,
      choices,
    );
  }
  return accountFromNode(context, subaccount, choices, { entryPrices: true });
}

/**
 * The account from the chain's balances (the node's subaccount), at the cached oracle prices, with
 * the margin fractions and open interest of the node's liquidity tiers and perpetuals (the
 * indexer's markets' when the node does not answer the tiers); with `entryPrices`, each position's
 * entry price from the indexer's REST when the network has one.
 *
 * @example
 * ```ts
 * const view = await accountFromNode(context, subaccount, new Map(), { entryPrices: false });
 * view.source; // "node"
 * ```
 */
export async function accountFromNode(
  context: ClientContext,
  subaccount: { owner: string; number: number },
  choices: ReadonlyMap<number, number>,
  options: { entryPrices: boolean },
): Promise<AccountView> {
  const [chain, indexed] = await Promise.all([
    context.node.getSubaccount(subaccount),
    options.entryPrices
      ? context.indexer
          ?.getSubaccount({ owner: subaccount.owner, number: subaccount.number })
          .then((r) => r.subaccount)
          .catch((error: unknown) => {
            if (isIndexerNotFoundError(error)) return undefined;
            throw error;
          })
      : undefined,
  ]);
  const balances = subaccountBalances(chain);
  // The liquidity tiers (margin fractions, open-interest caps), when the account holds a position:
  // with the perpetuals' open interest, the chain's own terms (an indexer's may trail it).
  const tiers =
    balances.perpetuals.length === 0
      ? undefined
      : catalogQueries.getLiquidityTiers(context.node).catch(() => undefined);
  // The funding not settled yet, in millionths of a quote quantum (negative: owed), as the chain
  // settles it before it judges collateral: Σ (position's index − perpetual's index) × quantums.
  let fundingPpm = 0n;
  const held = await Promise.all(
    balances.perpetuals.map(async (position) => {
      const perpetual = await context.node.getPerpetual({ id: position.perpetualId });
      const amounts = perpetualAmounts(perpetual);
      fundingPpm += (position.fundingIndex - amounts.fundingIndex) * position.quantums;
      const ticker = perpetual.params?.ticker ?? "";
      await context.markets.refresh(ticker);
      const market = await context.markets.get(ticker);
      const magnitude = quantumsToSize(
        position.quantums < 0n ? -position.quantums : position.quantums,
        market,
      );
      const tier = (await tiers)?.find((t) => t.id === perpetual.params?.liquidityTier);
      return {
        market,
        size: position.quantums < 0n ? `-${magnitude}` : magnitude,
        entryPrice: indexed?.openPerpetualPositions[ticker]?.entryPrice,
        terms: tier === undefined ? undefined : nodeTerms(market, tier, amounts.openInterest),
      };
    }),
  );
  return summarize(
    context,
    {
      subaccount,
      source: "node",
      // the sum rounded down to quote quantums, as the chain (and the indexer) round it
      usdc: quoteQuantumsToUsdc(
        balances.usdcQuantums +
          (fundingPpm - (((fundingPpm % 1_000_000n) + 1_000_000n) % 1_000_000n)) / 1_000_000n,
      ),
      openOrders: [],
      fills: [],
    },
    held,
    choices,
  );
}

const FUNDING_KEYS = optionKeys<Parameters<typeof fundingPaymentsOf>[1]>({ limit: true, ticker: true });

/**
 * The account's funding payments, newest first, from the indexer's REST (`/v4/fundingPayments`).
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param params - at most `limit` payments, of one market when `ticker` is given.
 * @returns resolves with the payments (amounts in human USDC, negative when paid).
 * @throws {MissingEndpointError} when the network has no indexer.
 * @throws {IndexerHttpError} when the indexer refuses (one that does not serve the route answers 404).
 *
 * @example
 * ```ts
 * // An indexer that does not serve the route yet answers 404 (IndexerNotFoundError).
 * const payments = await fundingPaymentsOf(context, { limit: 10 }).catch(() => []);
 * Array.isArray(payments); // true
 * ```
 */
export async function fundingPaymentsOf(
  context: ClientContext,
  params: { limit?: number; ticker?: string } = {},
): Promise<readonly FundingPaymentResponseObject[]> {
  assertKnownKeys(params, FUNDING_KEYS, "fundingPayments");
  const subaccount = { owner: traderOf(context, "fundingPayments").owner, number: context.subaccountNumber };
  if (!context.indexer) {
    throw new MissingEndpointError("indexer", "PERPX_INDEXER_URL", context.config.network.name);
  }
  const response = await context.indexer.getFundingPayments({
    owner: subaccount.owner,
    number: subaccount.number,
    ...(params.limit === undefined ? {} : { limit: params.limit }),
    ...(params.ticker === undefined ? {} : { ticker: params.ticker }),
  });
  return response.fundingPayments;
}
