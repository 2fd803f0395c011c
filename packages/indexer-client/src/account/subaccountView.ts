/**
 * An account kept from `v4_subaccounts` (one subaccount) or `v4_parent_subaccounts` (a parent and
 * its children): open positions, asset balances, orders merged by id from partial updates, fills,
 * and equity.
 */
import { Exact } from "@perpx/core";
import type {
  AssetPositionResponseObject,
  AssetPositionUpdate,
  FillUpdate,
  OrderUpdate,
  ParentSubaccountsSnapshotContents,
  PerpetualPositionResponseObject,
  PerpetualPositionUpdate,
  SubaccountResponseObject,
  SubaccountsSnapshotContents,
  SubaccountUpdateContents,
} from "@perpx/core/indexer";

/**
 * An open perpetual position, as the snapshot (REST object) or an update carries it.
 *
 * @example
 * ```ts
 * const position: SubaccountPosition = {
 *   address: "perpx1abc", subaccountNumber: 0, positionId: "p1", market: "BTC-USD", side: "SHORT",
 *   status: "OPEN", size: "-0.1", maxSize: "-0.1", netFunding: "0", entryPrice: "65000", sumOpen: "0.1", sumClose: "0",
 * };
 * position.size; // "-0.1"
 * ```
 */
export type SubaccountPosition = PerpetualPositionResponseObject | PerpetualPositionUpdate;

/**
 * An asset balance, as the snapshot or an update carries it.
 *
 * @example
 * ```ts
 * const usdc: SubaccountAsset = { symbol: "USDC", side: "LONG", size: "100", assetId: "0", subaccountNumber: 0 };
 * usdc.size; // "100"
 * ```
 */
export type SubaccountAsset = AssetPositionResponseObject | AssetPositionUpdate;

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
 * view.applySnapshot({}); // a subaccount that does not exist yet
 * view.applyUpdate({
 *   orders: [{ id: "o1", subaccountId: "s0", clientId: "7", status: "OPEN", orderFlags: "64", price: "100", size: "1" }],
 *   assetPositions: [
 *     { address: "perpx1abc", subaccountNumber: 0, positionId: "a", assetId: "0", symbol: "USDC", side: "LONG", size: "500" },
 *   ],
 * });
 * view.applyUpdate({ orders: [{ id: "o1", subaccountId: "s0", clientId: "7", status: "FILLED", orderFlags: "64" }] });
 * view.openOrders().length; // 0
 * view.order("o1")?.price; // "100": the partial update is merged into what was known
 * view.equity({}); // "500"
 * ```
 */
export class SubaccountView {
  private readonly positionsByKey = new Map<string, SubaccountPosition>();
  private readonly assetsByKey = new Map<string, SubaccountAsset>();
  private readonly ordersById = new Map<string, OrderUpdate>();
  private readonly fillList: FillUpdate[] = [];
  private readonly fillIds = new Set<string>();
  private readonly maxFills: number;
  private snapshotEquity: string | undefined;
  private height: string | undefined;
  private defaultNumber = 0;

  /** @param options - how many fills to keep. */
  constructor(options: SubaccountViewOptions = {}) {
    this.maxFills = options.maxFills ?? 1000;
  }

  /**
   * Replaces positions, balances and orders with a snapshot (fills are kept: snapshots carry none).
   *
   * @param snapshot - the `subscribed` contents of a subaccount or parent subaccount channel.
   */
  applySnapshot(snapshot: SubaccountsSnapshotContents | ParentSubaccountsSnapshotContents): void {
    this.positionsByKey.clear();
    this.assetsByKey.clear();
    this.ordersById.clear();
    if (!("subaccount" in snapshot)) {
      // `{}`: the subaccount does not exist yet.
      this.snapshotEquity = undefined;
      this.height = undefined;
      return;
    }
    const account = snapshot.subaccount;
    this.snapshotEquity = account.equity;
    this.height = snapshot.blockHeight;
    let children: readonly SubaccountResponseObject[];
    if ("childSubaccounts" in account) {
      children = account.childSubaccounts;
      this.defaultNumber = account.parentSubaccountNumber;
    } else {
      children = [account];
      this.defaultNumber = account.subaccountNumber;
    }
    for (const child of children) {
      for (const position of Object.values(child.openPerpetualPositions)) {
        this.positionsByKey.set(`${child.subaccountNumber}/${position.market}`, position);
      }
      for (const asset of Object.values(child.assetPositions)) {
        this.assetsByKey.set(`${child.subaccountNumber}/${asset.symbol}`, asset);
      }
    }
    for (const order of snapshot.orders) this.ordersById.set(order.id, order);
  }

  /**
   * Applies one update.
   *
   * @param update - the update contents.
   * @param childNumber - on `v4_parent_subaccounts`, the child the update is about.
   */
  applyUpdate(update: SubaccountUpdateContents, childNumber?: number): void {
    const fallback = childNumber ?? this.defaultNumber;
    for (const position of update.perpetualPositions ?? []) {
      const key = `${position.subaccountNumber ?? fallback}/${position.market}`;
      if (position.status !== "OPEN") this.positionsByKey.delete(key);
      else this.positionsByKey.set(key, { ...this.positionsByKey.get(key), ...position });
    }
    for (const asset of update.assetPositions ?? []) {
      const key = `${asset.subaccountNumber ?? fallback}/${asset.symbol}`;
      if (new Exact(asset.size, "size").isZero()) this.assetsByKey.delete(key);
      else this.assetsByKey.set(key, { ...this.assetsByKey.get(key), ...asset });
    }
    for (const order of update.orders ?? []) {
      this.ordersById.set(order.id, { ...this.ordersById.get(order.id), ...order });
    }
    for (const fill of update.fills ?? []) {
      if (this.fillIds.has(fill.id)) continue;
      this.fillIds.add(fill.id);
      this.fillList.push(fill);
      if (this.fillList.length > this.maxFills) this.fillIds.delete((this.fillList.shift() as FillUpdate).id);
    }
    if (update.blockHeight !== undefined) this.height = update.blockHeight;
  }

  /**
   * Open perpetual positions (size is signed: negative is short).
   *
   * @returns the open positions; sizes and prices are human decimal strings.
   */
  positions(): SubaccountPosition[] {
    return [...this.positionsByKey.values()];
  }

  /**
   * Asset balances (`USDC` is the quote balance; `side` SHORT means owed).
   *
   * @returns the asset balances as human decimal strings.
   */
  assetPositions(): SubaccountAsset[] {
    return [...this.assetsByKey.values()];
  }

  /**
   * Every order seen, merged by id.
   *
   * @returns every order, its latest state.
   */
  orders(): OrderUpdate[] {
    return [...this.ordersById.values()];
  }

  /**
   * Orders that may still fill: OPEN, UNTRIGGERED or BEST_EFFORT_OPENED.
   *
   * @returns the orders still open.
   */
  openOrders(): OrderUpdate[] {
    return this.orders().filter((order) => OPEN_STATUSES.has(order.status));
  }

  /**
   * One order by id.
   *
   * @param id - the order's indexer id.
   * @returns its latest state, or `undefined` when not seen.
   */
  order(id: string): OrderUpdate | undefined {
    return this.ordersById.get(id);
  }

  /**
   * Fills received since the view started, oldest first.
   *
   * @returns the fills, oldest first.
   */
  fills(): FillUpdate[] {
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
    let total = new Exact(0);
    for (const asset of this.assetsByKey.values()) {
      if (asset.symbol !== "USDC") continue;
      total = asset.side === "SHORT" ? total.minus(asset.size) : total.plus(asset.size);
    }
    for (const position of this.positionsByKey.values()) {
      const price = oraclePrices[position.market];
      if (price === undefined) return undefined;
      total = total.plus(new Exact(position.size, "size").times(price));
    }
    return total.toFixed();
  }
}
