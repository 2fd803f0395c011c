/**
 * An account kept from `v4_subaccounts` (one subaccount) or `v4_parent_subaccounts` (a parent and
 * its children): open positions, asset balances, orders merged by id from partial updates, fills,
 * and equity.
 */
import { Decimal } from "decimal.js";
import type {
  AssetPositionContents,
  FillContents,
  OrderContents,
  ParentSubaccountContents,
  ParentSubaccountSnapshot,
  PerpetualPositionContents,
  SubaccountContents,
  SubaccountSnapshot,
  SubaccountUpdate,
} from "../ws/channels.js";

/** Order statuses that mean the order may still fill. */
const OPEN_STATUSES = new Set(["OPEN", "UNTRIGGERED", "BEST_EFFORT_OPENED"]);

/**
 * Options of a {@link SubaccountView}.
 *
 * @example
 * ```ts
 * const options: SubaccountViewOptions = { maxFills: 500 };
 * ```
 */
export interface SubaccountViewOptions {
  /**
   * How many fills to keep (the oldest are dropped first).
   * @default 1000
   */
  readonly maxFills?: number;
}

/**
 * The state of a subaccount (or of a parent and its children).
 *
 * @example
 * ```ts
 * const view = new SubaccountView();
 * view.applySnapshot({ subaccount, orders: [], blockHeight: "10" });
 * view.applyUpdate({ orders: [{ id: "o1", status: "FILLED", clientId: "7" }] });
 * view.openOrders(); // orders still OPEN, UNTRIGGERED or BEST_EFFORT_OPENED
 * view.equity({ "BTC-USD": "65000" });
 * ```
 */
export class SubaccountView {
  private readonly positionsByKey = new Map<string, PerpetualPositionContents>();
  private readonly assetsByKey = new Map<string, AssetPositionContents>();
  private readonly ordersById = new Map<string, OrderContents>();
  private readonly fillList: FillContents[] = [];
  private readonly fillIds = new Set<string>();
  private readonly maxFills: number;
  private snapshotEquity: string | undefined;
  private height: string | undefined;
  private defaultNumber = 0;

  /** @param options - how many fills to keep. */
  constructor(options: SubaccountViewOptions = {}) {
    this.maxFills = options.maxFills ?? 1000;
  }

  /** Replaces positions, balances and orders with a snapshot (fills are kept: snapshots carry none). */
  applySnapshot(snapshot: SubaccountSnapshot | ParentSubaccountSnapshot): void {
    this.positionsByKey.clear();
    this.assetsByKey.clear();
    this.ordersById.clear();
    const account = snapshot.subaccount;
    this.snapshotEquity = account?.equity;
    this.height = snapshot.blockHeight;
    const parent = account as Partial<ParentSubaccountContents> | undefined;
    const children: readonly SubaccountContents[] =
      account === undefined ? [] : (parent?.childSubaccounts ?? [account as SubaccountContents]);
    const number =
      parent?.parentSubaccountNumber ?? (account as SubaccountContents | undefined)?.subaccountNumber;
    if (typeof number === "number") this.defaultNumber = number;
    for (const child of children) {
      for (const position of Object.values(child.openPerpetualPositions ?? {})) {
        this.positionsByKey.set(`${child.subaccountNumber}/${position.market}`, {
          ...position,
          subaccountNumber: child.subaccountNumber,
        });
      }
      for (const asset of Object.values(child.assetPositions ?? {})) {
        this.assetsByKey.set(`${child.subaccountNumber}/${asset.symbol}`, {
          ...asset,
          subaccountNumber: child.subaccountNumber,
        });
      }
    }
    for (const order of snapshot.orders ?? []) this.ordersById.set(order.id, order);
  }

  /**
   * Applies one update.
   *
   * @param update - the update contents.
   * @param childNumber - on `v4_parent_subaccounts`, the child the update is about.
   */
  applyUpdate(update: SubaccountUpdate, childNumber?: number): void {
    const fallback = childNumber ?? this.defaultNumber;
    for (const position of update.perpetualPositions ?? []) {
      const key = `${position.subaccountNumber ?? fallback}/${position.market}`;
      if (position.status !== "OPEN") this.positionsByKey.delete(key);
      else this.positionsByKey.set(key, { ...this.positionsByKey.get(key), ...position });
    }
    for (const asset of update.assetPositions ?? []) {
      const key = `${asset.subaccountNumber ?? fallback}/${asset.symbol}`;
      if (new Decimal(asset.size).isZero()) this.assetsByKey.delete(key);
      else this.assetsByKey.set(key, { ...this.assetsByKey.get(key), ...asset });
    }
    for (const order of update.orders ?? []) {
      this.ordersById.set(order.id, { ...this.ordersById.get(order.id), ...order });
    }
    for (const fill of update.fills ?? []) {
      if (this.fillIds.has(fill.id)) continue;
      this.fillIds.add(fill.id);
      this.fillList.push(fill);
      if (this.fillList.length > this.maxFills)
        this.fillIds.delete((this.fillList.shift() as FillContents).id);
    }
    if (update.blockHeight !== undefined) this.height = update.blockHeight;
  }

  /** Open perpetual positions (size is signed: negative is short). */
  positions(): PerpetualPositionContents[] {
    return [...this.positionsByKey.values()];
  }

  /** Asset balances (`USDC` is the quote balance; `side` SHORT means owed). */
  assetPositions(): AssetPositionContents[] {
    return [...this.assetsByKey.values()];
  }

  /** Every order seen, merged by id. */
  orders(): OrderContents[] {
    return [...this.ordersById.values()];
  }

  /** Orders that may still fill: OPEN, UNTRIGGERED or BEST_EFFORT_OPENED. */
  openOrders(): OrderContents[] {
    return this.orders().filter((order) => OPEN_STATUSES.has(order.status));
  }

  /** One order by id. */
  order(id: string): OrderContents | undefined {
    return this.ordersById.get(id);
  }

  /** Fills received since the view started, oldest first. */
  fills(): FillContents[] {
    return [...this.fillList];
  }

  /** The latest block height the feed reported. */
  get blockHeight(): string | undefined {
    return this.height;
  }

  /**
   * Equity. Without prices: the snapshot's (stale after trades). With oracle prices by ticker:
   * the quote balance plus every open position's signed size times its oracle price.
   *
   * @param oraclePrices - oracle prices by market ticker.
   * @returns a decimal string, or undefined without a snapshot (or a price for an open market).
   */
  equity(oraclePrices?: Readonly<Record<string, string>>): string | undefined {
    if (!oraclePrices) return this.snapshotEquity;
    let total = new Decimal(0);
    for (const asset of this.assetsByKey.values()) {
      if (asset.symbol !== "USDC") continue;
      total = asset.side === "SHORT" ? total.minus(asset.size) : total.plus(asset.size);
    }
    for (const position of this.positionsByKey.values()) {
      const price = oraclePrices[position.market];
      if (price === undefined) return undefined;
      total = total.plus(new Decimal(position.size).times(price));
    }
    return total.toFixed();
  }
}
