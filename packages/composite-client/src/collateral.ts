import {
  assertKnownKeys,
  CANONICAL_DECIMAL_PATTERN,
  Exact,
  InvalidOrderError,
  optionKeys,
  quantumsToSize,
  subticksToPrice,
} from "@perpx/core";
import { InvalidArgumentError, showValue } from "@perpx/errors";
import type { SendTxResult } from "@perpx/node-client";
import { accountFromNode, imfOf, openInterestOf } from "./account.js";
import type { ClientContext } from "./client.js";
import { effectiveInitialMarginFraction, marginSummary } from "./margin.js";
import type { CompositeMarket } from "./markets.js";
import type { WireOrder } from "./orderPlan.js";
import { subaccountOf, walletOf } from "./trader.js";

/**
 * An order the account cannot afford: placing it needs `required` USDC of free collateral (its
 * notional at its limit or worst price times the market's initial margin fraction, raised by its
 * open interest between its tier's caps, or the account's leverage choice) and the account
 * has `free`. Raised before anything is signed.
 *
 * @example
 * ```ts
 * const error = new InsufficientCollateralError({ market: "BTC-USD", required: "3250", free: "1000" });
 * error.message; // "Invalid order size: BTC-USD: the order needs 3250 USDC of free collateral, the account has 1000"
 * ```
 */
export class InsufficientCollateralError extends InvalidOrderError {
  override name = "InsufficientCollateralError";
  /** The market of the order. */
  readonly market: string;
  /** The free collateral the order needs, USDC. */
  readonly required: string;
  /** The account's free collateral, USDC. */
  readonly free: string;

  /** @param params - the market and the two amounts. */
  constructor(params: { market: string; required: string; free: string }) {
    super(
      "size",
      `${params.market}: the order needs ${params.required} USDC of free collateral, the account has ${params.free}`,
    );
    this.market = params.market;
    this.required = params.required;
    this.free = params.free;
  }
}

/**
 * Checks that an order that adds to the account's exposure in its market fits its free collateral:
 * first from the live account, the cached markets and the leverage choices last read or set (no
 * network call); when that says no, once more from the chain's balances (one node query), since
 * the feed trails the chain by a moment (a deposit or a faucet grant the indexer has not reported
 * yet). Reduce-only orders and orders that only reduce a position pass; so does every order when
 * the client has no live account (the chain judges it).
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param wire - the planned order in wire units.
 * @param market - the order's market.
 * @throws {InsufficientCollateralError} naming the required and the chain's free collateral.
 *
 * @example
 * ```ts
 * const order = { market: "BTC-USD", side: "BUY", size: "1000", price: btc.oraclePrice, rounding: "down" } as const;
 * const wire = planOrder(order, { market: btc, height: client.height(), nowMs: Date.now(), clientId: 1, subaccount });
 * await checkCollateral(context, wire, btc); // throws InsufficientCollateralError
 * ```
 */
export async function checkCollateral(
  context: ClientContext,
  wire: WireOrder,
  market: CompositeMarket,
): Promise<void> {
  const required = requiredFromFeed(context, wire, market);
  if (required === undefined) return;
  const chain = await accountFromNode(context, subaccountOf(context), context.leverage ?? new Map(), {
    entryPrices: false,
  });
  if (chain.freeCollateral === undefined || required.lessThanOrEqualTo(chain.freeCollateral)) return;
  throw new InsufficientCollateralError({
    market: market.ticker,
    required: required.toDecimalPlaces(6, "ceil").toFixed(),
    free: new Exact(chain.freeCollateral).toDecimalPlaces(6, "trunc").toFixed(),
  });
}

/**
 * The free collateral the order needs when the live account says it does not fit; undefined when it
 * fits, only reduces, or the feed cannot tell.
 */
function requiredFromFeed(
  context: ClientContext,
  wire: WireOrder,
  market: CompositeMarket,
): Exact | undefined {
  const view = context.feed?.subaccount?.view;
  // the fraction the chain charges: the leverage choice, or the market's raised by its open interest
  const imf = effectiveInitialMarginFraction({
    oraclePrice: market.oraclePrice,
    initialMarginFraction: imfOf(market, context.leverage ?? new Map()),
    baseInitialMarginFraction: market.indexer?.initialMarginFraction,
    openInterest: openInterestOf(market),
  });
  if (!view || imf === undefined || wire.reduceOnly) return;
  if (view.blockHeight === undefined) return; // the feed has no snapshot of the account yet
  const held = view.positions().find((p) => p.market === market.ticker);
  const current = new Exact(held?.size ?? 0);
  const size = new Exact(quantumsToSize(wire.quantums, market));
  const after = wire.side === "BUY" ? current.plus(size) : current.minus(size);
  if (after.abs().lessThanOrEqualTo(current.abs())) return;
  let usdc = new Exact(0);
  for (const asset of view.assetPositions()) {
    if (asset.symbol === "USDC")
      usdc = asset.side === "SHORT" ? usdc.minus(asset.size) : usdc.plus(asset.size);
  }
  const positions = [];
  for (const p of view.positions()) {
    const m = context.markets.cached(p.market);
    if (!m) return; // a market not loaded yet: no figure to check against
    positions.push({
      market: p.market,
      size: p.size,
      entryPrice: p.entryPrice,
      oraclePrice: m.oraclePrice,
      initialMarginFraction: imfOf(m, context.leverage ?? new Map()),
      maintenanceMarginFraction: m.indexer?.maintenanceMarginFraction,
      baseInitialMarginFraction: m.indexer?.initialMarginFraction,
      openInterest: openInterestOf(m),
    });
  }
  const free = marginSummary({ usdc: usdc.toFixed(), positions }).freeCollateral;
  if (free === undefined) return;
  // A market TWAP (no price) is checked at the oracle price, as the chain checks it.
  const price = new Exact(wire.subticks === 0n ? market.oraclePrice : subticksToPrice(wire.subticks, market));
  const added = after.abs().minus(current.abs());
  const required = added.times(price).times(imf);
  return required.greaterThan(free) ? required : undefined;
}

const CANONICAL_DECIMAL = new RegExp(CANONICAL_DECIMAL_PATTERN);
const LEVERAGE_KEYS = optionKeys<Parameters<typeof setMarketLeverage>[1]>({ market: true, leverage: true });

/** A leverage as given: a finite number or a canonical decimal string, else undefined. */
function leverageOf(given: unknown): Exact | undefined {
  if (typeof given === "string") return CANONICAL_DECIMAL.test(given) ? new Exact(given) : undefined;
  // a leverage is a factor, not money: a finite JS number is read by its shortest decimal form
  if (typeof given !== "number" || !Number.isFinite(given)) return undefined;
  const text = String(given);
  return CANONICAL_DECIMAL.test(text) ? new Exact(text) : undefined;
}

/**
 * Sets the subaccount's leverage on one market (`MsgUpdateLeverage`: an initial margin fraction of
 * 1 / leverage, in ppm), signed by the owner's wallet.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param params - the market's ticker and the leverage (a number or decimal string, e.g. `5`).
 * @returns resolves when the node accepted the transaction.
 * @throws {InvalidArgumentError} for a leverage that is not a number of at least 1, a read-only client or a trading key.
 * @throws {BroadcastTxError} when the chain refuses it (above the market's maximum leverage, or below the margin the positions need).
 *
 * @example
 * ```ts
 * await setMarketLeverage(context, { market: "BTC-USD", leverage: 5 });
 * ```
 */
export async function setMarketLeverage(
  context: ClientContext,
  params: { market: string; leverage: number | string },
): Promise<SendTxResult> {
  assertKnownKeys(params, LEVERAGE_KEYS, "setLeverage");
  const signer = walletOf(context, "setLeverage");
  const leverage = leverageOf(params.leverage);
  if (leverage === undefined || leverage.lessThan(1)) {
    const given: unknown = params.leverage;
    throw new InvalidArgumentError(
      "leverage",
      `must be at least 1, a number or a canonical decimal string, got ${showValue(given)}`,
    );
  }
  const market = await context.markets.get(params.market);
  const imfPpm = Number(new Exact(1_000_000).dividedBy(leverage, { scale: 0, rounding: "ceil" }).toFixed());
  const sent = await context.node.updateLeverage({
    signer,
    subaccount: { owner: signer.address, number: context.subaccountNumber },
    leverage: [{ clobPairId: market.clobPairId, imfPpm }],
  });
  context.leverage = new Map(context.leverage ?? []).set(market.clobPairId, imfPpm);
  return sent;
}
