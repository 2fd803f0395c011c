/**
 * The revenue shares of one fill, as the real chain's `GetAllRevShares` computes them (pure; the
 * keeper gathers the inputs from state):
 * - nothing when the net fee (taker fee + maker fee) is 0;
 * - the taker's affiliate: its fee share of the taker fee, rounded down, unless the taker's
 *   30-day taker volume reached 50M USDC, the taker fee is 0, or the taker's affiliate revenue of
 *   the window reached the per-referred-user cap (then capped at what is left of it);
 * - the order routers only when there is no affiliate share: the taker's router its share of
 *   min(taker fee, taker fee + maker fee), the maker's router its share of max(0, maker fee);
 * - the unconditional recipients and the market mapper their shares of the net fee less the
 *   affiliate (or router) shares, rounded down.
 * When that remainder is not positive, the market mapper details are missing, or the shares add up
 * to more than the net fee, the chain logs an error and shares nothing (the whole fee stays with
 * the fee collector): so does this.
 */
import { mulPpmFloor } from "../subaccounts/dtypes.js";

/** Who a share goes to. */
export type RevShareType = "affiliate" | "order_router" | "unconditional" | "market_mapper";
/** Which fee a share is taken from. */
export type RevShareFeeSource = "taker_fee" | "maker_fee" | "net_protocol_revenue";

/** One revenue share of a fill. */
export interface RevShare {
  readonly recipient: string;
  readonly source: RevShareFeeSource;
  readonly type: RevShareType;
  readonly quoteQuantums: bigint;
  readonly ppm: number;
}

/** The revenue shares of a fill, with their totals by fee source. */
export interface RevSharesForFill {
  /** The taker's affiliate's share, when one was computed. */
  readonly affiliate: RevShare | undefined;
  readonly all: readonly RevShare[];
  readonly quoteQuantumsBySource: Readonly<Record<RevShareFeeSource, bigint>>;
  readonly ppmBySource: Readonly<Record<RevShareFeeSource, number>>;
}

/** No revenue shares (the whole fee to the fee collector). */
export const NO_REV_SHARES: RevSharesForFill = {
  affiliate: undefined,
  all: [],
  quoteQuantumsBySource: { taker_fee: 0n, maker_fee: 0n, net_protocol_revenue: 0n },
  ppmBySource: { taker_fee: 0, maker_fee: 0, net_protocol_revenue: 0 },
};

/** A taker at or above this 30-day taker volume earns its affiliate nothing (50M USDC). */
export const MAX_REFEREE_30D_VOLUME_FOR_AFFILIATE_SHARE = 50_000_000_000_000n;

/** A recipient and its share in ppm. */
export interface Recipient {
  readonly address: string;
  readonly ppm: number;
}

/** What {@link revSharesForFill} reads of the fill and the state. */
export interface RevShareInputs {
  readonly takerFee: bigint;
  readonly makerFee: bigint;
  /** The taker's 30-day taker volume (quote quantums). */
  readonly takerVolume30d: bigint;
  /** The affiliate revenue the taker generated over the window. */
  readonly takerAffiliateRevenue30d: bigint;
  /** The program's per-referred-user revenue cap (0: none). */
  readonly revenueCap: bigint;
  /** The taker's affiliate and its fee share (undefined: nobody referred the taker). */
  readonly affiliate: Recipient | undefined;
  /** The routers with a share (undefined: no router, or a router without a valid share). */
  readonly takerRouter: Recipient | undefined;
  readonly makerRouter: Recipient | undefined;
  readonly unconditional: readonly Recipient[];
  /** The market mapper (undefined: expired or 0 ppm; "missing": no details for the market). */
  readonly marketMapper: Recipient | undefined | "missing";
}

function affiliateShare(inputs: RevShareInputs): RevShare | undefined {
  if (inputs.takerVolume30d >= MAX_REFEREE_30D_VOLUME_FOR_AFFILIATE_SHARE || inputs.takerFee === 0n) {
    return undefined;
  }
  const cap = inputs.revenueCap;
  if (cap !== 0n && inputs.takerAffiliateRevenue30d >= cap) return undefined;
  const affiliate = inputs.affiliate;
  if (affiliate === undefined) return undefined;
  let shared = mulPpmFloor(inputs.takerFee, affiliate.ppm);
  if (cap !== 0n && shared > cap - inputs.takerAffiliateRevenue30d)
    shared = cap - inputs.takerAffiliateRevenue30d;
  return {
    recipient: affiliate.address,
    source: "taker_fee",
    type: "affiliate",
    quoteQuantums: shared,
    ppm: affiliate.ppm,
  };
}

function routerShares(inputs: RevShareInputs): RevShare[] {
  const { takerFee, makerFee, takerRouter, makerRouter } = inputs;
  const shares: RevShare[] = [];
  if (takerRouter !== undefined) {
    // min(taker fee, taker fee + maker fee): a maker rebate comes off the taker's side.
    const side = makerFee < 0n ? takerFee + makerFee : takerFee;
    shares.push({
      recipient: takerRouter.address,
      source: "taker_fee",
      type: "order_router",
      quoteQuantums: mulPpmFloor(side, takerRouter.ppm),
      ppm: takerRouter.ppm,
    });
  }
  if (makerRouter !== undefined) {
    shares.push({
      recipient: makerRouter.address,
      source: "maker_fee",
      type: "order_router",
      quoteQuantums: mulPpmFloor(makerFee > 0n ? makerFee : 0n, makerRouter.ppm),
      ppm: makerRouter.ppm,
    });
  }
  return shares;
}

/**
 * The revenue shares of a fill (see the module comment).
 *
 * @example
 * ```ts
 * const shares = revSharesForFill({
 *   takerFee: 325_000n, // 500 ppm of $650
 *   makerFee: -71_500n, // a 110 ppm rebate
 *   takerVolume30d: 0n,
 *   takerAffiliateRevenue30d: 0n,
 *   revenueCap: 10_000_000_000n,
 *   affiliate: { address: "perpx1affiliate", ppm: 50_000 },
 *   takerRouter: undefined,
 *   makerRouter: undefined,
 *   unconditional: [{ address: "perpx1treasury", ppm: 100_000 }],
 *   marketMapper: undefined,
 * });
 * shares.affiliate?.quoteQuantums; // 16_250n: 5% of the taker fee
 * shares.all[1]?.quoteQuantums; // 23_725n: 10% of 325_000 - 71_500 - 16_250
 * ```
 */
export function revSharesForFill(inputs: RevShareInputs): RevSharesForFill {
  const net = inputs.takerFee + inputs.makerFee;
  if (net === 0n) return NO_REV_SHARES;
  const affiliate = affiliateShare(inputs);
  const first = affiliate === undefined ? routerShares(inputs) : [affiliate];
  const remainder = first.reduce((left, share) => left - share.quoteQuantums, net);
  if (remainder <= 0n) return NO_REV_SHARES;
  if (inputs.marketMapper === "missing") return NO_REV_SHARES;
  const onNet = (recipient: Recipient, type: RevShareType): RevShare => ({
    recipient: recipient.address,
    source: "net_protocol_revenue",
    type,
    quoteQuantums: mulPpmFloor(remainder, recipient.ppm),
    ppm: recipient.ppm,
  });
  const all = [
    ...first,
    ...inputs.unconditional.map((r) => onNet(r, "unconditional")),
    ...(inputs.marketMapper === undefined || inputs.marketMapper.ppm === 0
      ? []
      : [onNet(inputs.marketMapper, "market_mapper")]),
  ];
  const quoteQuantumsBySource = { taker_fee: 0n, maker_fee: 0n, net_protocol_revenue: 0n };
  const ppmBySource = { taker_fee: 0, maker_fee: 0, net_protocol_revenue: 0 };
  let total = 0n;
  for (const share of all) {
    total += share.quoteQuantums;
    quoteQuantumsBySource[share.source] += share.quoteQuantums;
    ppmBySource[share.source] += share.ppm;
  }
  if (total > net) return NO_REV_SHARES;
  return { affiliate, all, quoteQuantumsBySource, ppmBySource };
}

/**
 * The order router fees a fill event reports for each side, as the real chain sums them: every
 * router share whose recipient is that side's router (a router of both sides counts both shares).
 *
 * @example
 * ```ts
 * const shares = revSharesForFill({
 *   takerFee: 325_000n,
 *   makerFee: -71_500n,
 *   takerVolume30d: 0n,
 *   takerAffiliateRevenue30d: 0n,
 *   revenueCap: 0n,
 *   affiliate: undefined,
 *   takerRouter: { address: "perpx1router", ppm: 100_000 },
 *   makerRouter: undefined,
 *   unconditional: [],
 *   marketMapper: undefined,
 * });
 * routerFeesOf(shares, "perpx1router", ""); // { taker: 25_350n, maker: 0n }: 10% of 325_000 - 71_500
 * ```
 */
export function routerFeesOf(
  shares: RevSharesForFill,
  takerRouter: string,
  makerRouter: string,
): { taker: bigint; maker: bigint } {
  let taker = 0n;
  let maker = 0n;
  for (const share of shares.all) {
    if (share.type !== "order_router") continue;
    if (share.recipient === takerRouter) taker += share.quoteQuantums;
    if (share.recipient === makerRouter) maker += share.quoteQuantums;
  }
  return { taker, maker };
}
