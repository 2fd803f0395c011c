/**
 * The matching engine: placing an order in the memclob (reduce-only, post-only, matching against
 * the book in price-time priority, resting) and settling a fill on the subaccounts with its fees.
 *
 * In the memclob (CheckTx of a short-term order, or a stateful order entering the book after its
 * block commits) each fill is settled on the CheckTx state, so later orders are checked against it,
 * and is queued as an operation of the next block (`operations.ts`), whose delivery settles it
 * again on the committed state ({@link Engine.settle} in both). Book and short-term order changes
 * are memclob keys (see `state.ts`); the off-chain order stream gets each change (`stream.ts`).
 */

import { clob } from "@perpx/proto";
import type { OrderRemovalReason } from "../../contract.js";
import type { Context } from "../../kernel/module.js";
import type { KvStore } from "../../kernel/store.js";
import { abciError } from "../../lib/errors.js";
import { ReadMemo } from "../../lib/read-memo.js";
import type { Keepers } from "../index.js";
import { distributeFillFees } from "../revshare/fill.js";
import { routerFeesOf } from "../revshare/shares.js";
import { pow10 } from "../subaccounts/dtypes.js";
import type { SubaccountRef, SubaccountUpdate } from "../subaccounts/keeper.js";
import { OrderBook, type Priority, type RestingOrder } from "./book.js";
import { builderFee, payBuilderFee } from "./builder.js";
import { clobErrors } from "./errors.js";
import { fillFeeQuoteQuantums } from "./fees.js";
import { applyMatch, type FillDecision, matchOrder, opposite, wouldCross } from "./matching.js";
import { queueMatch, queuePlacement, queueRemoval } from "./operations-queue.js";
import {
  bookSlot,
  CLOB,
  expiryKey,
  getOrder,
  isShortTermOrderKey,
  keys,
  markDone,
  orderKey,
  type StoredOrder,
  setOrder,
  sideOf,
} from "./state.js";
import { emitOrderStream } from "./stream.js";
import { recordSuborderFill } from "./twap-state.js";
import { ORDER_FLAGS, orderLabel } from "./validate.js";

/** The keepers the clob uses. */
export type ClobKeepers = Pick<
  Keepers,
  "bank" | "subaccounts" | "prices" | "perpetuals" | "feeTiers" | "revshare" | "rewards"
>;

/** Event types the clob emits (an indexer consumes them). */
export const CLOB_EVENTS = {
  place: "perpx.clob.order_place",
  fill: "perpx.clob.order_fill",
  cancel: "perpx.clob.order_cancel",
  expire: "perpx.clob.order_expire",
  trigger: "perpx.clob.order_trigger",
  leverage: "perpx.clob.leverage_update",
} as const;

/** Quote quantums of `quantums` base quantums at `subticks` (rounded down). */
export function quoteQuantums(subticks: bigint, quantums: bigint, exponent: number): bigint {
  const product = subticks * quantums;
  return exponent >= 0 ? product * pow10(exponent) : product / pow10(-exponent);
}

/** The attributes that identify an order in events. */
export function orderAttributes(order: clob.Order): [string, string][] {
  const id = order.orderId;
  return [
    ["owner", id?.subaccountId?.owner ?? ""],
    ["subaccount_number", String(id?.subaccountId?.number ?? 0)],
    ["client_id", String(id?.clientId ?? 0)],
    ["order_flags", String(id?.orderFlags ?? 0)],
    ["clob_pair_id", String(id?.clobPairId ?? 0)],
  ];
}

/** The subaccount of an order. */
export function refOf(order: clob.Order): SubaccountRef {
  return {
    owner: order.orderId?.subaccountId?.owner ?? "",
    number: order.orderId?.subaccountId?.number ?? 0,
  };
}

/** The perpetual a clob pair trades (0 for a pair without one). */
export function perpetualOf(pair: clob.ClobPair): number {
  return pair.metadata.case === "perpetualClobMetadata" ? pair.metadata.value.perpetualId : 0;
}

/** What placing an order in the memclob did. */
export interface PlaceOutcome {
  /** Quantums filled by this placement. */
  readonly filled: bigint;
  /** The removal of the taker, when it did not rest whole (undefined: it rests or is filled). */
  readonly removed: OrderRemovalReason | undefined;
}

/** A removal of the memclob that the proposer must also apply to state (stateful orders only). */
const PROPOSED_REMOVAL: Partial<Record<OrderRemovalReason, clob.OrderRemoval_RemovalReason>> = {
  undercollateralized: clob.OrderRemoval_RemovalReason.UNDERCOLLATERALIZED,
  post_only_would_cross: clob.OrderRemoval_RemovalReason.POST_ONLY_WOULD_CROSS_MAKER_ORDER,
  self_trade: clob.OrderRemoval_RemovalReason.INVALID_SELF_TRADE,
  reduce_only: clob.OrderRemoval_RemovalReason.INVALID_REDUCE_ONLY,
  conditional_ioc_would_rest: clob.OrderRemoval_RemovalReason.CONDITIONAL_IOC_WOULD_REST_ON_BOOK,
};

/** The matching engine over one context (see the module comment). */
export class Engine {
  readonly store: KvStore;
  readonly book: OrderBook;

  constructor(
    readonly ctx: Context,
    private readonly keepers: ClobKeepers,
  ) {
    this.store = ctx.store(CLOB);
    this.book = new OrderBook(this.store);
  }

  /**
   * Takes an order out of the memclob (its book entry; a short-term order's record and placement
   * bytes) and streams the removal. A stateful order removed for a reason the proposer proposes is
   * queued for removal from state in the next block; `tombstone` keeps a short-term order id spent
   * until its good-til-block (a cancel).
   */
  removeFromMemclob(stored: StoredOrder, reason: OrderRemovalReason, tombstone = false): void {
    const order = stored.order;
    const key = orderKey(order.orderId);
    this.book.remove(order.orderId?.clobPairId ?? 0, bookSlot(stored));
    if (isShortTermOrderKey(key)) {
      this.store.delete(keys.order(key));
      this.store.delete(keys.txBytes(key));
      this.store.delete(expiryKey(order, key));
      if (tombstone) markDone(this.store, key, BigInt(order.goodTilOneof.value ?? 0), "cancelled");
    } else {
      const proposed = PROPOSED_REMOVAL[reason];
      if (proposed !== undefined) queueRemoval(this.store, order.orderId, proposed);
    }
    emitOrderStream(this.store, { kind: "remove", orderId: order.orderId as clob.OrderId, reason });
  }

  /** The signed position of a subaccount in a perpetual (base quantums). */
  position(ref: SubaccountRef, perpetualId: number): bigint {
    const view = this.keepers.subaccounts.get(this.ctx, ref);
    return view.perpetualPositions.find((p) => p.perpetualId === perpetualId)?.quantums ?? 0n;
  }

  /**
   * The fee of a side of a fill on `pair` (signed; negative is a rebate), rounded toward +infinity:
   * the owner's tier (with the affiliates' referee floor) and the pair's fee discount.
   */
  fee(owner: string, quote: bigint, isTaker: boolean, pair: clob.ClobPair, memo?: ReadMemo): bigint {
    return fillFeeQuoteQuantums(
      quote,
      this.keepers.feeTiers.feePpm(this.ctx, owner, isTaker, pair.id, memo ?? new ReadMemo(this.ctx)),
    );
  }

  /**
   * One side of a fill: the size in the perpetual position, the quote amount (paid by a buyer,
   * received by a seller) and the fee in the USDC asset position, as the reference chain books it.
   */
  private update(
    ref: SubaccountRef,
    perpetualId: number,
    buy: boolean,
    quantums: bigint,
    quote: bigint,
    fee: bigint,
  ): SubaccountUpdate {
    return {
      id: ref,
      usdcDelta: (buy ? -quote : quote) - fee,
      perpetualDeltas: [{ perpetualId, quantumsDelta: buy ? quantums : -quantums }],
    };
  }

  /**
   * The collateral check of a stateful order at placement: the subaccount must carry the whole
   * order filled at its own price, with the maker fee.
   *
   * @throws AbciError 3007 when it cannot.
   */
  checkStatefulCollateral(order: clob.Order, pair: clob.ClobPair): void {
    const ref = refOf(order);
    const quote = quoteQuantums(order.subticks, order.quantums, pair.quantumConversionExponent);
    // As the real chain, the builder fee of this check is taken on the order's quantums.
    const fee = this.fee(ref.owner, quote, false, pair) + builderFee(order, order.quantums);
    const check = this.keepers.subaccounts.canApplyUpdates(this.ctx, [
      this.update(ref, perpetualOf(pair), sideOf(order) === "buy", order.quantums, quote, fee),
    ]);
    if (!check.ok) {
      throw abciError(clobErrors.collateralizationCheckFailed, `order ${orderLabel(order)}: ${check.reason}`);
    }
  }

  /**
   * Settles one fill of `taker` against `maker` at the maker's price: both subaccounts (collateral
   * checked), the fees, the traded volume, and the fill event (ABCI and indexer). `makerTotalFilled`
   * and `takerTotalFilled` are what each order will have filled with it.
   */
  settle(
    pair: clob.ClobPair,
    taker: clob.Order,
    maker: clob.Order,
    quantums: bigint,
    makerTotalFilled: bigint,
    takerTotalFilled: bigint,
  ): FillDecision {
    const perpetualId = perpetualOf(pair);
    const side = sideOf(taker);
    const ref = refOf(taker);
    const makerRef = refOf(maker);
    const quote = quoteQuantums(maker.subticks, quantums, pair.quantumConversionExponent);
    // Nothing is written between the two fees: they share their reads.
    const feeReads = new ReadMemo(this.ctx);
    const takerFee = this.fee(ref.owner, quote, true, pair, feeReads);
    const makerFee = this.fee(makerRef.owner, quote, false, pair, feeReads);
    const takerBuilderFee = builderFee(taker, quote);
    const makerBuilderFee = builderFee(maker, quote);
    const takerUpdate = this.update(
      ref,
      perpetualId,
      side === "buy",
      quantums,
      quote,
      takerFee + takerBuilderFee,
    );
    const makerUpdate = this.update(
      makerRef,
      perpetualId,
      side !== "buy",
      quantums,
      quote,
      makerFee + makerBuilderFee,
    );
    const refused = this.keepers.subaccounts.tryApplyEach(this.ctx, [takerUpdate, makerUpdate]);
    if (refused === 0) return "taker-fails";
    if (refused === 1) return "maker-fails";
    payBuilderFee(this.ctx, this.keepers, ref, taker, takerBuilderFee);
    payBuilderFee(this.ctx, this.keepers, makerRef, maker, makerBuilderFee);
    recordSuborderFill(this.ctx, taker, quantums);
    recordSuborderFill(this.ctx, maker, quantums);
    // The fees' reads of referrals serve the distribution too: a fill writes no referral.
    const shares = distributeFillFees(
      this.ctx,
      this.keepers,
      {
        perpetualId,
        taker: ref.owner,
        maker: makerRef.owner,
        takerFee,
        makerFee,
        quoteQuantums: quote,
        takerRouter: taker.orderRouterAddress,
        makerRouter: maker.orderRouterAddress,
      },
      feeReads,
    );
    const routerFees = routerFeesOf(shares, taker.orderRouterAddress, maker.orderRouterAddress);
    this.keepers.feeTiers.recordFill(this.ctx, ref.owner, makerRef.owner, quote);
    // The event's texts are spelled only when it is kept (not at CheckTx, whose events are discarded).
    if (this.ctx.events.recording) {
      this.ctx.events.emitEvent(CLOB_EVENTS.fill, [
        ["clob_pair_id", String(pair.id)],
        ["taker_owner", ref.owner],
        ["taker_subaccount_number", String(ref.number)],
        ["taker_client_id", String(taker.orderId?.clientId ?? 0)],
        ["taker_order_flags", String(taker.orderId?.orderFlags ?? 0)],
        ["taker_side", side],
        ["maker_owner", makerRef.owner],
        ["maker_subaccount_number", String(makerRef.number)],
        ["maker_client_id", String(maker.orderId?.clientId ?? 0)],
        ["maker_order_flags", String(maker.orderId?.orderFlags ?? 0)],
        ["subticks", maker.subticks.toString()],
        ["quantums", quantums.toString()],
        ["quote_quantums", quote.toString()],
        ["taker_fee", takerFee.toString()],
        ["maker_fee", makerFee.toString()],
        ["maker_total_filled", makerTotalFilled.toString()],
        ["taker_builder_fee_quantums", takerBuilderFee.toString()],
        ["maker_builder_fee_quantums", makerBuilderFee.toString()],
        ["taker_order_router_fee_quantums", routerFees.taker.toString()],
        ["maker_order_router_fee_quantums", routerFees.maker.toString()],
      ]);
    }
    // Reward shares come after the rev shares, from what is left of the fees (x/rewards).
    this.keepers.rewards.addRewardSharesForFill(this.ctx, {
      taker: ref.owner,
      maker: makerRef.owner,
      takerFee,
      makerFee,
      fillQuote: quote,
      revShares: {
        takerOrderRouter: routerFees.taker,
        makerOrderRouter: routerFees.maker,
        netProtocolRevenuePpm: shares.ppmBySource.net_protocol_revenue,
      },
    });
    // The indexer's fill is built only when it is kept (a CheckTx scope discards it).
    if (this.ctx.events.recording) {
      this.ctx.events.indexer({
        kind: "order_fill",
        clobPairId: pair.id,
        taker,
        maker,
        quantums,
        subticks: maker.subticks,
        quoteQuantums: quote,
        takerFee,
        makerFee,
        takerTotalFilled,
        makerTotalFilled,
        affiliateRevShare: shares.affiliate?.quoteQuantums ?? 0n,
      });
    }
    return "ok";
  }

  /**
   * The memclob's side of a maker's fill: its placement queued (short-term), its new fill amount
   * streamed, and the order gone when filled or kept with its fill amount.
   */
  recordMakerFill(key: string, makerStored: StoredOrder, makerFilled: bigint): void {
    const makerId = makerStored.order.orderId as clob.OrderId;
    if (isShortTermOrderKey(key)) queuePlacement(this.store, key, this.store.get(keys.txBytes(key)));
    emitOrderStream(this.store, { kind: "update", orderId: makerId, totalFilled: makerFilled });
    if (makerFilled >= makerStored.order.quantums) {
      this.store.delete(keys.order(key));
      this.store.delete(expiryKey(makerStored.order, key));
      this.store.delete(keys.txBytes(key));
      const gt = makerStored.order.goodTilOneof;
      if (gt.case === "goodTilBlock") markDone(this.store, key, BigInt(gt.value), "filled");
      emitOrderStream(this.store, { kind: "remove", orderId: makerId, reason: "fully_filled" });
    } else {
      setOrder(this.store, key, { ...makerStored, filled: makerFilled });
    }
  }

  /**
   * Places an order in the memclob as a taker: checks reduce-only and post-only, matches it (each
   * fill settled on this context's state and queued for the next block), then rests the remainder
   * (unless IOC) without a collateral check. `key` is the order's key (`orderKey`); `filled` carries
   * over from a replaced order or from state; `txBytes` is a short-term order's signed placement
   * (queued with its first match).
   *
   * @throws AbciError 2003 (post-only would cross), 2001 (reduce-only would increase), 24
   * (nothing left to fill); nothing is changed then.
   */
  place(
    order: clob.Order,
    key: string,
    pair: clob.ClobPair,
    priority: Priority,
    filled: bigint,
    txBytes?: Uint8Array,
  ): PlaceOutcome {
    const pairId = pair.id;
    const perpetualId = perpetualOf(pair);
    const side = sideOf(order);
    const ref = refOf(order);
    const shortTerm = (order.orderId?.orderFlags ?? 0) === ORDER_FLAGS.shortTerm;
    let open = order.quantums - filled;
    if (open <= 0n)
      throw abciError(clobErrors.orderFullyFilled, `order ${orderLabel(order)} is fully filled`);
    const ioc = order.timeInForce === clob.Order_TimeInForce.IOC;
    if (order.reduceOnly) {
      const position = this.position(ref, perpetualId);
      const reduces = side === "sell" ? position > 0n : position < 0n;
      if (!reduces) {
        // Unwrapped, as the reference memclob's `validateNewOrder` returns it.
        throw abciError(clobErrors.reduceOnlyWouldIncrease);
      }
      const size = position < 0n ? -position : position;
      if (open > size) open = size;
    }
    if (
      order.timeInForce === clob.Order_TimeInForce.POST_ONLY &&
      wouldCross(this.book.best(pairId, opposite(side)), { side, subticks: order.subticks })
    ) {
      // Unwrapped, as the reference memclob's `matchOrder` returns it.
      throw abciError(clobErrors.postOnlyWouldCross);
    }
    let takerFilled = filled;
    const makerFills: { makerId: clob.OrderId; quantums: bigint }[] = [];
    const tryFill = (maker: RestingOrder, quantums: bigint): FillDecision => {
      const makerStored = getOrder(this.store, maker.key);
      if (makerStored === undefined) return "skip";
      const makerFilled = makerStored.filled + quantums;
      const decision = this.settle(
        pair,
        order,
        makerStored.order,
        quantums,
        makerFilled,
        takerFilled + quantums,
      );
      if (decision !== "ok") return decision;
      takerFilled += quantums;
      makerFills.push({ makerId: makerStored.order.orderId as clob.OrderId, quantums });
      this.recordMakerFill(maker.key, makerStored, makerFilled);
      return "ok";
    };
    const result = matchOrder(
      { side, subticks: order.subticks, quantums: open, owner: ref.owner, number: ref.number },
      this.book.orders(pairId, opposite(side)),
      tryFill,
    );
    applyMatch(this.book, pairId, result);
    for (const { maker, reason } of result.removed) {
      const stored = getOrder(this.store, maker.key);
      if (stored !== undefined) {
        this.removeFromMemclob(stored, reason === "self-trade" ? "self_trade" : "undercollateralized");
      }
    }
    const fillQuantums = result.fills.reduce((sum, f) => sum + f.quantums, 0n);
    if (makerFills.length > 0) {
      if (shortTerm) queuePlacement(this.store, key, txBytes);
      queueMatch(this.store, order.orderId as clob.OrderId, makerFills);
      emitOrderStream(this.store, {
        kind: "update",
        orderId: order.orderId as clob.OrderId,
        totalFilled: takerFilled,
      });
    }
    const remaining = open - fillQuantums;
    const gtb = order.goodTilOneof.case === "goodTilBlock" ? BigInt(order.goodTilOneof.value) : undefined;
    if (remaining > 0n && !ioc && !result.takerFailed) {
      this.book.insert(pairId, {
        key,
        side,
        subticks: order.subticks,
        ...priority,
        remaining,
        owner: ref.owner,
        number: ref.number,
      });
      setOrder(this.store, key, {
        order,
        ...priority,
        height: this.ctx.block.height,
        txIndex: 0,
        filled: takerFilled,
        triggered: order.orderId?.orderFlags === ORDER_FLAGS.conditional,
      });
      if (shortTerm) {
        this.store.set(expiryKey(order, key), new Uint8Array(0));
        if (txBytes !== undefined) this.store.set(keys.txBytes(key), txBytes);
      }
      return { filled: fillQuantums, removed: undefined };
    }
    let removed: OrderRemovalReason | undefined;
    if (remaining > 0n) {
      removed = result.takerFailed
        ? "undercollateralized"
        : shortTerm
          ? "immediate_or_cancel"
          : "conditional_ioc_would_rest";
      if (!shortTerm && PROPOSED_REMOVAL[removed] !== undefined) {
        queueRemoval(this.store, order.orderId, PROPOSED_REMOVAL[removed] as clob.OrderRemoval_RemovalReason);
      }
      emitOrderStream(this.store, {
        kind: "remove",
        orderId: order.orderId as clob.OrderId,
        reason: removed,
      });
    } else if (shortTerm) {
      emitOrderStream(this.store, {
        kind: "remove",
        orderId: order.orderId as clob.OrderId,
        reason: "fully_filled",
      });
    }
    if (!shortTerm && remaining === 0n) this.store.delete(keys.order(key));
    // A short-term order that did not rest leaves its fill amount behind (the chain keeps it in state
    // until the good-til-block): a full fill spends the id, a partial one an immediate-or-cancel
    // replay (2004); an order that left without a fill leaves nothing (as on the chain).
    if (gtb !== undefined && !result.takerFailed && takerFilled > 0n) {
      const spent = takerFilled >= order.quantums ? "filled" : "partly-filled";
      markDone(this.store, key, gtb, spent, takerFilled);
    }
    return { filled: fillQuantums, removed };
  }
}
