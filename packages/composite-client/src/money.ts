import { quantumsToSize, quoteQuantumsToUsdc, usdcToQuoteQuantums } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import { isIndexerNotFoundError } from "@perpx/indexer-client";
import { type Market, type SendTxResult, subaccountBalances } from "@perpx/node-client";
import type { ClientContext } from "./client.js";
import { traderOf } from "./trading.js";

function walletOf(context: ClientContext, action: string) {
  const trader = traderOf(context, action);
  if (trader.kind !== "wallet") {
    throw new InvalidArgumentError(
      action,
      "a trading key only places and cancels orders; moving USDC needs the owner's wallet",
    );
  }
  return trader.signer;
}

/**
 * Moves USDC from the wallet's bank balance into its subaccount.
 *
 * @throws {InvalidAmountError} for an amount with more than 6 decimals.
 * @throws {InvalidArgumentError} for a read-only client or a trading key.
 *
 * @example
 * ```ts
 * await depositUsdc(context, { amount: "100" });
 * ```
 */
export async function depositUsdc(context: ClientContext, params: { amount: string }): Promise<SendTxResult> {
  const signer = walletOf(context, "deposit");
  const quantums = usdcToQuoteQuantums(params?.amount);
  return context.node.depositToSubaccount({
    signer,
    sender: signer.address,
    recipient: { owner: signer.address, number: context.subaccountNumber },
    quantums,
  });
}

/**
 * Moves USDC from the subaccount to a bank account (the wallet's own by default).
 *
 * @example
 * ```ts
 * await withdrawUsdc(context, { amount: "50" });
 * ```
 */
export async function withdrawUsdc(
  context: ClientContext,
  params: { amount: string; recipient?: string },
): Promise<SendTxResult> {
  const signer = walletOf(context, "withdraw");
  const quantums = usdcToQuoteQuantums(params?.amount);
  return context.node.withdrawFromSubaccount({
    signer,
    sender: { owner: signer.address, number: context.subaccountNumber },
    recipient: params.recipient ?? signer.address,
    quantums,
  });
}

/**
 * Moves USDC from the subaccount to another subaccount (the wallet's own `subaccountNumber`, or
 * another owner's).
 *
 * @example
 * ```ts
 * await transferUsdc(context, { amount: "25", to: { number: 1 } });
 * ```
 */
export async function transferUsdc(
  context: ClientContext,
  params: { amount: string; to: { owner?: string; number: number } },
): Promise<SendTxResult> {
  const signer = walletOf(context, "transfer");
  const quantums = usdcToQuoteQuantums(params?.amount);
  return context.node.transfer({
    signer,
    sender: { owner: signer.address, number: context.subaccountNumber },
    recipient: { owner: params.to?.owner ?? signer.address, number: params.to?.number },
    quantums,
  });
}

/**
 * A position in human units.
 *
 * @example
 * ```ts
 * const bought = await client.placeOrder({ market: "BTC-USD", side: "BUY", type: "MARKET", size: "0.001", slippage: "1%" });
 * (await bought.result({ timeoutMs: 10_000 })).status; // "FILLED"
 * const account = await client.account();
 * const { market, side, size }: Position = account.positions[0]!;
 * [market, side, size]; // ["BTC-USD", "LONG", "0.001"]
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
  /** size × oracle price, USD (signed: negative for a short). */
  value: string;
  /** The average entry price, USD, from the indexer (undefined without one, or before it saw the position). */
  entryPrice: string | undefined;
  /** The unrealized PnL, USD, from the indexer (as `entryPrice`). */
  unrealizedPnl: string | undefined;
}

/**
 * The account in human units, from the node: USDC, positions at the oracle price, and equity.
 *
 * @example
 * ```ts
 * const { equity, usdc, positions }: AccountView = await accountView(context);
 * ```
 */
export interface AccountView {
  /** The subaccount. */
  subaccount: { owner: string; number: number };
  /** The USDC balance (negative when borrowed). */
  usdc: string;
  /** USDC plus every position's value at the oracle price. */
  equity: string;
  /** Free collateral, USD, from the indexer (undefined without one). */
  freeCollateral: string | undefined;
  /** The open positions. */
  positions: Position[];
}

async function marketOfPerpetual(context: ClientContext, perpetualId: number): Promise<Market> {
  const perpetual = await context.node.getPerpetual({ id: perpetualId });
  return context.markets.get(perpetual.params?.ticker ?? "");
}

/**
 * Reads the account from the node, valuing positions at the oracle prices (markets refreshed),
 * with free collateral, entry prices and unrealized PnL from the indexer when one is configured.
 *
 * @example
 * ```ts
 * const account = await accountView(context);
 * ```
 */
export async function accountView(context: ClientContext): Promise<AccountView> {
  const subaccount = { owner: traderOf(context, "account").owner, number: context.subaccountNumber };
  const [chain, indexed] = await Promise.all([
    context.node.getSubaccount(subaccount),
    context.indexer
      ?.getSubaccount({ address: subaccount.owner, subaccountNumber: subaccount.number })
      .then((r) => r.subaccount)
      .catch((error: unknown) => {
        if (isIndexerNotFoundError(error)) return undefined;
        throw error;
      }),
  ]);
  const balances = subaccountBalances(chain);
  let equity = balances.usdcQuantums;
  const positions: Position[] = [];
  for (const position of balances.perpetuals) {
    const market = await marketOfPerpetual(context, position.perpetualId);
    await context.markets.refresh(market.ticker);
    const fresh = context.markets.cached(market.ticker) ?? market;
    // value in quote quantums: quantums × price × 10^(atomicResolution + 6)
    const subticksPerQuantum = fresh.oracle;
    const exponent = fresh.atomicResolution + subticksPerQuantum.exponent + 6;
    const raw = position.quantums * subticksPerQuantum.price;
    const value = exponent >= 0 ? raw * 10n ** BigInt(exponent) : raw / 10n ** BigInt(-exponent);
    equity += value;
    positions.push({
      market: fresh.ticker,
      side: position.quantums > 0n ? "LONG" : "SHORT",
      size: quantumsToSize(position.quantums < 0n ? -position.quantums : position.quantums, fresh),
      oraclePrice: fresh.oraclePrice,
      value: quoteQuantumsToUsdc(value),
      entryPrice: indexed?.openPerpetualPositions[fresh.ticker]?.entryPrice,
      unrealizedPnl: indexed?.openPerpetualPositions[fresh.ticker]?.unrealizedPnl,
    });
  }
  return {
    subaccount,
    usdc: quoteQuantumsToUsdc(balances.usdcQuantums),
    equity: quoteQuantumsToUsdc(equity),
    freeCollateral: indexed?.freeCollateral,
    positions,
  };
}
