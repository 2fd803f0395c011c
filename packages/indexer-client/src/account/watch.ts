/**
 * A subaccount (or parent subaccount) kept live from its channel; after a reconnect or a lost
 * message it rebuilds from the fresh snapshot and says so with a `resync` event.
 */
import { InvalidArgumentError } from "@perpx/errors";
import type { IndexerSocket } from "../ws/connection.js";
import { Emitter } from "../ws/emitter.js";
import type { ResetReason, Subscription } from "../ws/subscription.js";
import { SubaccountView, type SubaccountViewOptions } from "./subaccountView.js";

/**
 * The events of a {@link LiveSubaccount}, by name.
 *
 * @example
 * ```ts
 * const event: LiveSubaccountEvents["resync"] = { reason: "gap" };
 * event.reason; // "gap"
 * ```
 */
export interface LiveSubaccountEvents {
  [event: string]: unknown;
  /** The view changed. */
  change: { readonly cause: "snapshot" | "update" };
  /** The view was rebuilt from a fresh snapshot. */
  resync: { readonly reason: ResetReason };
}

/**
 * Which account to watch: a subaccount `{ owner, number }`, or with `parent: true` a parent
 * subaccount (its number, 0..127) and all its children.
 *
 * @example
 * ```ts
 * const one: WatchSubaccountOptions = { owner: "perpx1...", number: 0 };
 * const family: WatchSubaccountOptions = { owner: "perpx1...", number: 0, parent: true };
 * ```
 */
export type WatchSubaccountOptions = SubaccountViewOptions & {
  /** The owner's address. */
  readonly owner: string;
  /** The subaccount number (the parent's with `parent`). */
  readonly number: number;
  /** Watch the parent subaccount `number` and all its children. @default false */
  readonly parent?: boolean;
};

/**
 * A live account view.
 *
 * @example
 * ```ts
 * const socket = await connectIndexerSocket({ url: devnet.endpoints.indexerWs });
 * const live = watchSubaccount(socket, { owner: devnet.accounts[0]!.address, number: 0 });
 * const view = await live.ready();
 * Array.isArray(view.openOrders()); // true
 * live.close();
 * await socket.close();
 * ```
 */
export class LiveSubaccount extends Emitter<LiveSubaccountEvents> {
  /** The view. */
  readonly view: SubaccountView;
  /** The subscription feeding it. */
  readonly subscription: Subscription<"v4_subaccounts" | "v4_parent_subaccounts">;

  /**
   * @param subscription - a fresh subaccount or parent subaccount subscription.
   * @param options - view options.
   */
  constructor(
    subscription: Subscription<"v4_subaccounts"> | Subscription<"v4_parent_subaccounts">,
    options: SubaccountViewOptions = {},
  ) {
    super();
    this.view = new SubaccountView(options);
    const sub = subscription as Subscription<"v4_subaccounts">;
    this.subscription = subscription;
    sub.on("snapshot", ({ contents, reason }) => {
      this.view.applySnapshot(contents);
      this.emit("change", { cause: "snapshot" });
      if (reason !== "initial") this.emit("resync", { reason });
    });
    sub.on("update", ({ contents, subaccountNumber }) => {
      this.view.applyUpdate(contents, subaccountNumber);
      this.emit("change", { cause: "update" });
    });
    sub.on("end", () => this.removeAllListeners());
  }

  /**
   * Resolves once the first snapshot is applied.
   *
   * @returns resolves with the view once the first snapshot is in; rejects when the subscription
   *   fails first.
   */
  async ready(): Promise<SubaccountView> {
    await this.subscription.ready();
    return this.view;
  }

  /** Unsubscribes. */
  close(): void {
    this.subscription.unsubscribe();
  }
}

/**
 * Subscribes to a subaccount (`subaccountNumber`) or a parent and its children
 * (`parentSubaccountNumber`) and keeps a {@link SubaccountView}.
 *
 * @param socket - the indexer socket to subscribe on.
 * @param options - see `WatchSubaccountOptions`: the subaccount `{ owner, number }`, `parent: true`
 *   for a parent and its children.
 * @returns the live subaccount: `ready()` resolves once its first snapshot is in, `view` holds its
 *   positions, orders and fills, its events announce each change, `close()` unsubscribes.
 * @example
 * ```ts
 * const socket = await connectIndexerSocket({ url: devnet.endpoints.indexerWs });
 * const live = watchSubaccount(socket, { owner: devnet.accounts[0]!.address, number: 0 });
 * const view = await live.ready();
 * Array.isArray(view.openOrders()); // true
 * live.close();
 * await socket.close();
 * ```
 * @throws InvalidArgumentError for another shape (`address`, `subaccountNumber`: use `owner`, `number`).
 */
export function watchSubaccount(socket: IndexerSocket, options: WatchSubaccountOptions): LiveSubaccount {
  for (const [old, use] of [
    ["address", "owner"],
    ["subaccountNumber", "number"],
    ["parentSubaccountNumber", "number with parent: true"],
  ] as const) {
    if (old in options) {
      throw new InvalidArgumentError(old, `is not an option: a subaccount is { owner, number }, use ${use}`);
    }
  }
  const view = options.maxFills === undefined ? {} : { maxFills: options.maxFills };
  const id = `${options.owner}/${options.number}`;
  const subscription =
    options.parent === true
      ? socket.subscribe("v4_parent_subaccounts", id)
      : socket.subscribe("v4_subaccounts", id);
  return new LiveSubaccount(subscription, view);
}
