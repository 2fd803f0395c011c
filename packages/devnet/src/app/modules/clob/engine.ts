/**
 * The matching engine in state: placing an order (replacement, reduce-only, post-only, matching,
 * fills through the subaccounts keeper with fees, resting), cancelling, and removing orders. Every
 * change goes to the module's store slice, so it rolls back with a failed tx; short-term orders'
 * keys are volatile there (in memory only, see `state.ts`), their fills are committed state.
 */

import { USDC_DENOM } from "@perpx/core";
import { clob } from "@perpx/proto";
import { abciError } from "../../errors.js";
import type { Context } from "../../module.js";
import type { KvStore } from "../../store.js";
import type { Keepers } from "../index.js";
import type { SubaccountRef, SubaccountUpdate } from "../subaccounts.js";
import { OrderBook, type Priority, type RestingOrder } from "./book.js";
import { clobErrors } from "./errors.js";
import { fillFeeQuoteQuantums } from "./fees.js";
import { applyMatch, type FillDecision, matchOrder, opposite, wouldCross } from "./matching.js";
import {
  bookSlot,
  CLOB,
  expiryKey,
  getOrder,
  markDone,
  orderKey,
  type StoredOrder,
  setOrder,
  sideOf,
} from "./state.js";
import { orderLabel } from "./validate.js";

/** The keepers the clob uses. */
export type ClobKeepers = Pick<Keepers, "bank" | "subaccounts" | "prices" | "perpetuals" | "feeTiers">;

/** Event types the clob emits (an indexer consumes them). */
export const CLOB_EVENTS = {
  place: "perpx.clob.order_place",
  fill: "perpx.clob.order_fill",
  cancel: "perpx.clob.order_cancel",
  expire: "perpx.clob.order_expire",
  trigger: "perpx.clob.order_trigger",
  funding: "perpx.clob.funding",
  leverage: "perpx.clob.leverage_update",
} as const;

/** Quote quantums of `quantums` base quantums at `subticks` (rounded down). */
export function quoteQuantums(subticks: bigint, quantums: bigint, exponent: number): bigint {
  const product = subticks * quantums;
  return exponent >= 0 ? product * 10n ** BigInt(exponent) : product / 10n ** BigInt(-exponent);
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

function refOf(order: clob.Order): SubaccountRef {
  return {
    owner: order.orderId?.subaccountId?.owner ?? "",
    number: order.orderId?.subaccountId?.number ?? 0,
  };
}

/** Where a placement comes from: a tx, or the end-block trigger of a conditional order. */
export interface PlacementSource {
  readonly txIndex: number;
}

/** The matching engine over one context (a tx's message, or a block hook). */
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

  private emit(type: string, order: clob.Order, extra: ReadonlyArray<readonly [string, string]>): void {
    this.ctx.events.emitEvent(type, [...orderAttributes(order), ...extra]);
  }

  /** Removes an open order from the book, the store and the trigger index; emits `type`. */
  removeOrder(stored: StoredOrder, type: string, reason: string): void {
    const order = stored.order;
    const key = orderKey(order.orderId);
    const pairId = order.orderId?.clobPairId ?? 0;
    this.book.remove(pairId, bookSlot(stored));
    this.store.delete(`order/${key}`);
    this.store.delete(`trig/${String(pairId).padStart(10, "0")}/${key}`);
    this.store.delete(expiryKey(order, key));
    if (order.goodTilOneof.case === "goodTilBlock") {
      markDone(this.store, key, BigInt(order.goodTilOneof.value), "cancelled");
    }
    this.emit(type, order, [
      ["reason", reason],
      ["remaining_quantums", (order.quantums - stored.filled).toString()],
    ]);
  }

  /** The signed position of a subaccount in a perpetual (base quantums). */
  position(ref: SubaccountRef, perpetualId: number): bigint {
    const view = this.keepers.subaccounts.get(this.ctx, ref);
    return view.perpetualPositions.find((p) => p.perpetualId === perpetualId)?.quantums ?? 0n;
  }

  /** The fee of a side of a fill (signed; negative is a rebate), rounded toward +infinity. */
  private fee(owner: string, quote: bigint, isTaker: boolean): bigint {
    return fillFeeQuoteQuantums(quote, this.keepers.feeTiers.feePpm(this.ctx, owner, isTaker));
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

  /** Moves a side's fee between its collateral pool and the fee collector. */
  private moveFee(ref: SubaccountRef, fee: bigint): void {
    if (fee === 0n) return;
    const pool = this.keepers.subaccounts.poolOf(this.ctx, ref);
    const coins = [{ denom: USDC_DENOM, amount: fee > 0n ? fee : -fee }];
    if (fee > 0n) this.keepers.bank.sendCoinsFromModuleToModule(this.ctx, pool, "fee_collector", coins);
    else this.keepers.bank.sendCoinsFromModuleToModule(this.ctx, "fee_collector", pool, coins);
  }

  /**
   * Places an order that passed validation (windows, pair, rate limits, replacement) as a taker:
   * matches it, then rests the remainder (unless IOC). `filled` carries over from a replaced order.
   *
   * @throws AbciError 2003 (post-only would cross), 2001 (reduce-only would increase), 3007
   * (collateralization check failed before any fill), 24 (nothing left to fill).
   */
  place(
    order: clob.Order,
    pair: clob.ClobPair,
    source: PlacementSource,
    filled: bigint,
    priority: Priority,
  ): void {
    const key = orderKey(order.orderId);
    const pairId = pair.id;
    const perpetualId = pair.metadata.case === "perpetualClobMetadata" ? pair.metadata.value.perpetualId : 0;
    const side = sideOf(order);
    const ref = refOf(order);
    let open = order.quantums - filled;
    if (open <= 0n)
      throw abciError(clobErrors.orderFullyFilled, `order ${orderLabel(order)} is fully filled`);
    const ioc = order.timeInForce === clob.Order_TimeInForce.IOC;
    if (order.reduceOnly) {
      const position = this.position(ref, perpetualId);
      const reduces = side === "sell" ? position > 0n : position < 0n;
      if (!reduces) {
        throw abciError(
          clobErrors.reduceOnlyWouldIncrease,
          `reduce-only order ${orderLabel(order)} would increase position ${position}`,
        );
      }
      const size = position < 0n ? -position : position;
      if (open > size) open = size;
    }
    if (
      order.timeInForce === clob.Order_TimeInForce.POST_ONLY &&
      wouldCross(this.book.best(pairId, opposite(side)), order_(side, order))
    ) {
      throw abciError(clobErrors.postOnlyWouldCross, `post-only order ${orderLabel(order)} would cross`);
    }
    this.emit(CLOB_EVENTS.place, order, [
      ["side", side],
      ["quantums", order.quantums.toString()],
      ["subticks", order.subticks.toString()],
      ["time_in_force", clob.Order_TimeInForce[order.timeInForce] ?? String(order.timeInForce)],
      ["reduce_only", String(order.reduceOnly)],
      ["good_til", order.goodTilOneof.value?.toString() ?? "0"],
    ]);
    const exponent = pair.quantumConversionExponent;
    const subaccounts = this.keepers.subaccounts;
    const tryFill = (maker: RestingOrder, quantums: bigint): FillDecision => {
      const makerStored = getOrder(this.store, maker.key);
      if (makerStored === undefined) return "maker-fails";
      const quote = quoteQuantums(maker.subticks, quantums, exponent);
      const takerFee = this.fee(ref.owner, quote, true);
      const makerRef = { owner: maker.owner, number: maker.number };
      const makerFee = this.fee(maker.owner, quote, false);
      const takerUpdate = this.update(ref, perpetualId, side === "buy", quantums, quote, takerFee);
      const makerUpdate = this.update(makerRef, perpetualId, side !== "buy", quantums, quote, makerFee);
      const refused = subaccounts.tryApplyEach(this.ctx, [takerUpdate, makerUpdate]);
      if (refused === 0) return "taker-fails";
      if (refused === 1) return "maker-fails";
      this.moveFee(ref, takerFee);
      this.moveFee(makerRef, makerFee);
      this.keepers.feeTiers.recordVolume(this.ctx, ref.owner, quote);
      this.keepers.feeTiers.recordVolume(this.ctx, maker.owner, quote);
      const makerFilled = makerStored.filled + quantums;
      this.ctx.events.emitEvent(CLOB_EVENTS.fill, [
        ["clob_pair_id", String(pairId)],
        ["taker_owner", ref.owner],
        ["taker_subaccount_number", String(ref.number)],
        ["taker_client_id", String(order.orderId?.clientId ?? 0)],
        ["taker_order_flags", String(order.orderId?.orderFlags ?? 0)],
        ["taker_side", side],
        ["maker_owner", maker.owner],
        ["maker_subaccount_number", String(maker.number)],
        ["maker_client_id", String(makerStored.order.orderId?.clientId ?? 0)],
        ["maker_order_flags", String(makerStored.order.orderId?.orderFlags ?? 0)],
        ["subticks", maker.subticks.toString()],
        ["quantums", quantums.toString()],
        ["quote_quantums", quote.toString()],
        ["taker_fee", takerFee.toString()],
        ["maker_fee", makerFee.toString()],
        ["maker_total_filled", makerFilled.toString()],
      ]);
      if (makerFilled >= makerStored.order.quantums) {
        this.store.delete(`order/${maker.key}`);
        this.store.delete(expiryKey(makerStored.order, maker.key));
        const gt = makerStored.order.goodTilOneof;
        if (gt.case === "goodTilBlock") markDone(this.store, maker.key, BigInt(gt.value), "filled");
      } else {
        setOrder(this.store, maker.key, { ...makerStored, filled: makerFilled });
      }
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
      if (stored !== undefined) this.removeOrder(stored, CLOB_EVENTS.cancel, reason);
    }
    const fillQuantums = result.fills.reduce((sum, f) => sum + f.quantums, 0n);
    if (result.takerFailed && fillQuantums === 0n) {
      throw abciError(
        clobErrors.collateralizationCheckFailed,
        `order ${orderLabel(order)} would leave subaccount ${ref.owner}/${ref.number} undercollateralized`,
      );
    }
    const totalFilled = filled + fillQuantums;
    const stored: StoredOrder = {
      order,
      ...priority,
      height: this.ctx.block.height,
      txIndex: source.txIndex,
      filled: totalFilled,
      triggered: order.orderId?.orderFlags === 32,
    };
    const remaining = open - fillQuantums;
    const gtb = order.goodTilOneof.case === "goodTilBlock" ? BigInt(order.goodTilOneof.value) : undefined;
    if (remaining > 0n && !ioc && !result.takerFailed) {
      // Rest only if the subaccount could carry the whole remainder filled at its own price.
      const quote = quoteQuantums(order.subticks, remaining, exponent);
      const check = subaccounts.canApplyUpdates(this.ctx, [
        this.update(ref, perpetualId, side === "buy", remaining, quote, 0n),
      ]);
      if (check.ok) {
        this.book.insert(pairId, {
          key,
          side,
          subticks: order.subticks,
          ...priority,
          remaining,
          owner: ref.owner,
          number: ref.number,
        });
        setOrder(this.store, key, stored);
        this.store.set(expiryKey(order, key), new Uint8Array(0));
        return;
      }
      if (fillQuantums === 0n) {
        throw abciError(
          clobErrors.collateralizationCheckFailed,
          `order ${orderLabel(order)}: ${check.reason}`,
        );
      }
    }
    if (remaining > 0n) {
      this.emit(CLOB_EVENTS.cancel, order, [
        ["reason", ioc ? "immediate_or_cancel" : "undercollateralized"],
        ["remaining_quantums", remaining.toString()],
      ]);
    }
    if (gtb !== undefined) markDone(this.store, key, gtb, remaining === 0n ? "filled" : "cancelled");
  }
}

function order_(side: "buy" | "sell", order: clob.Order): { side: "buy" | "sell"; subticks: bigint } {
  return { side, subticks: order.subticks };
}
