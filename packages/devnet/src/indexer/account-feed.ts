/**
 * The subaccount channels (`v4_subaccounts`, `v4_parent_subaccounts`): the changes one block or
 * one order stream step made to each subaccount (positions, USDC, orders, fills, transfers, trading
 * rewards) as channel messages, and the channels' snapshots.
 */

import { CHILD_SUBACCOUNT_STRIDE, MAX_PARENT_SUBACCOUNT_NUMBER, MAX_SUBACCOUNT_NUMBER } from "@perpx/address";
import { Exact } from "@perpx/core";
import {
  type AccountViewModels,
  fillUpdateBody,
  orderBody,
  orderUpdateBody,
  positionBody,
  subaccountBody,
  subaccountValue,
  transferType,
} from "./account-views.js";
import type { ChannelInterest, ChannelMessage, ChannelSnapshot } from "./feed.js";
import { iso, usdc } from "./format.js";
import { uuidOf } from "./ids.js";
import { subaccountKey } from "./models/accounts.js";
import type { FillRecord, TransferRecord } from "./models/history.js";
import type { OrderRecord, OrdersModel } from "./models/orders.js";
import { type BlockReward, rewardAmount } from "./models/trading-rewards.js";

/** The largest subaccount number a channel id may name, and the parents' count. */
const SUBACCOUNTS_VERSION = "3.0.0";

/** What changed for one subaccount. */
export interface SubaccountChange {
  readonly address: string;
  readonly subaccountNumber: number;
  /** Perpetual ids whose positions changed. */
  readonly perpetuals: Set<number>;
  usdc: boolean;
  readonly orders: OrderRecord[];
  readonly fills: FillRecord[];
  readonly transfers: TransferRecord[];
}

/** Collects changes per subaccount. */
export class ChangeSet {
  /** By {@link subaccountKey}, which is the subaccount's `v4_subaccounts` channel id. */
  readonly changes = new Map<string, SubaccountChange>();

  /** The change entry of a subaccount. */
  of(address: string, subaccountNumber: number): SubaccountChange {
    const key = subaccountKey(address, subaccountNumber);
    let change = this.changes.get(key);
    if (change === undefined) {
      change = {
        address,
        subaccountNumber,
        perpetuals: new Set(),
        usdc: false,
        orders: [],
        fills: [],
        transfers: [],
      };
      this.changes.set(key, change);
    }
    return change;
  }
}

/** The models the subaccount channels read. */
export interface AccountFeedModels extends AccountViewModels {
  readonly orders: OrdersModel;
}

function channelMessages(
  address: string,
  subaccountNumber: number,
  contents: Record<string, unknown>,
  internalTransfer: boolean,
): ChannelMessage[] {
  const out: ChannelMessage[] = [
    {
      channel: "v4_subaccounts",
      id: `${address}/${subaccountNumber}`,
      version: SUBACCOUNTS_VERSION,
      contents,
    },
  ];
  // As the reference forwards it: a transfer between two children of one parent is removed from
  // the parent stream, the rest of the child's update (its USDC, its block height) still goes out.
  const { transfers: _internal, ...withoutTransfer } = contents;
  out.push({
    channel: "v4_parent_subaccounts",
    id: `${address}/${subaccountNumber % CHILD_SUBACCOUNT_STRIDE}`,
    version: SUBACCOUNTS_VERSION,
    contents: internalTransfer ? withoutTransfer : contents,
    subaccountNumber,
  });
  return out;
}

/** Every channel id is wanted. */
const EVERY_ID: ChannelInterest = () => true;

/**
 * The channel messages of a change set (one per subaccount, and one per extra transfer); a
 * subaccount whose channel ids (its own, its parent's) `wanted` refuses both gets none.
 */
export function subaccountMessages(
  models: AccountFeedModels,
  changes: ChangeSet,
  wanted: ChannelInterest = EVERY_ID,
): ChannelMessage[] {
  const out: ChannelMessage[] = [];
  const blockHeight = models.height.toString();
  // The change set's key is the subaccount's channel id, and a parent's id is its own.
  for (const [id, change] of changes.changes) {
    const { address, subaccountNumber } = change;
    const parent = subaccountNumber % CHILD_SUBACCOUNT_STRIDE;
    if (
      !wanted("v4_subaccounts", id) &&
      !wanted("v4_parent_subaccounts", parent === subaccountNumber ? id : `${address}/${parent}`)
    )
      continue;
    const record = models.accounts.subaccount(address, subaccountNumber);
    const contents: Record<string, unknown> = {};
    const positions = models.accounts
      .positions(address, subaccountNumber)
      .filter((p) => change.perpetuals.has(p.perpetualId) && (p.status === "OPEN" || p.closedAt !== null))
      .filter((p, i, all) => all.findLastIndex((q) => q.perpetualId === p.perpetualId) === i)
      .flatMap((p) => {
        const body = positionBody(models, record, subaccountNumber, p);
        if (body === undefined) return [];
        const { createdAt: _c, createdAtHeight: _h, closedAt: _x, subaccountNumber: _n, ...rest } = body;
        return [
          {
            address,
            subaccountNumber,
            positionId: uuidOf(`position/${address}/${subaccountNumber}/${p.openSeq}`),
            ...rest,
          },
        ];
      });
    if (positions.length > 0) contents.perpetualPositions = positions;
    if (change.usdc && record !== undefined) {
      const value = models.accounts.value(record).usdcWithFunding;
      contents.assetPositions = [
        {
          address,
          subaccountNumber,
          positionId: uuidOf(`asset/${address}/${subaccountNumber}/0`),
          assetId: "0",
          symbol: "USDC",
          side: value < 0n ? "SHORT" : "LONG",
          size: usdc(value < 0n ? -value : value),
        },
      ];
    }
    const orders = [...new Set(change.orders)].flatMap((o) => {
      const market = models.markets.marketOfPair(o.order.orderId?.clobPairId ?? 0);
      return market === undefined ? [] : [orderUpdateBody(market, o)];
    });
    if (orders.length > 0) contents.orders = orders;
    const fills = change.fills.flatMap((f) => {
      const market = models.markets.marketOfPair(f.clobPairId);
      return market === undefined ? [] : [fillUpdateBody(market, f)];
    });
    if (fills.length > 0) contents.fills = fills;
    const [first, ...more] = change.transfers;
    if (first !== undefined) contents.transfers = transferUpdate(first, address, subaccountNumber);
    if (Object.keys(contents).length > 0) {
      contents.blockHeight = blockHeight;
      out.push(
        ...channelMessages(address, subaccountNumber, contents, first !== undefined && isInternal(first)),
      );
    }
    for (const transfer of more) {
      out.push(
        ...channelMessages(
          address,
          subaccountNumber,
          { transfers: transferUpdate(transfer, address, subaccountNumber), blockHeight },
          isInternal(transfer),
        ),
      );
    }
  }
  return out;
}

/**
 * The messages of a trading reward: as the reference's ender, one update of the address's
 * subaccount 0 holding only `tradingReward` (and the block height), whether or not it exists.
 */
export function tradingRewardMessages(reward: BlockReward, blockHeight: bigint): ChannelMessage[] {
  const tradingReward = {
    tradingReward: rewardAmount(reward.amount),
    createdAtHeight: reward.height.toString(),
    createdAt: iso(reward.time),
  };
  return channelMessages(reward.address, 0, { tradingReward, blockHeight: blockHeight.toString() }, false);
}

/** Whether a transfer moves money between two children of one parent (left out of parent streams). */
function isInternal(transfer: TransferRecord): boolean {
  const s = transfer.sender;
  const r = transfer.recipient;
  return (
    s.address === r.address &&
    s.subaccountNumber !== undefined &&
    r.subaccountNumber !== undefined &&
    s.subaccountNumber % CHILD_SUBACCOUNT_STRIDE === r.subaccountNumber % CHILD_SUBACCOUNT_STRIDE
  );
}

function transferUpdate(transfer: TransferRecord, address: string, subaccountNumber: number) {
  const side = (s: TransferRecord["sender"]) => ({
    address: s.address,
    ...(s.subaccountNumber === undefined ? {} : { subaccountNumber: s.subaccountNumber }),
  });
  return {
    sender: side(transfer.sender),
    recipient: side(transfer.recipient),
    symbol: "USDC",
    size: usdc(transfer.quantums),
    type: transferType(transfer, address, subaccountNumber),
    transactionHash: transfer.transactionHash,
    createdAt: transfer.createdAt.toISOString(),
    createdAtHeight: transfer.createdAtHeight.toString(),
  };
}

/** The orders a subaccount snapshot lists: open ones, and recent best-effort cancels. */
export function snapshotOrders(models: AccountFeedModels, address: string, numbers: readonly number[]) {
  const recent = models.height - 20n;
  return numbers.flatMap((n) =>
    models.orders.ofSubaccount(subaccountKey(address, n)).flatMap((o) => {
      const gt = o.order.goodTilOneof;
      const listed =
        o.status === "OPEN" ||
        o.status === "UNTRIGGERED" ||
        o.status === "BEST_EFFORT_OPENED" ||
        (o.status === "BEST_EFFORT_CANCELED" && gt.case === "goodTilBlock" && BigInt(gt.value) > recent);
      const market = models.markets.marketOfPair(o.order.orderId?.clobPairId ?? 0);
      return listed && market !== undefined ? [orderBody(market, o)] : [];
    }),
  );
}

/** Parses `address/number` below `max`; undefined when malformed. */
function parseId(id: string, max: number): { address: string; n: number } | undefined {
  const match = /^([a-zA-Z0-9]{1,90})\/(\d+)$/.exec(id);
  if (match === null) return undefined;
  const n = Number(match[2]);
  return n < max ? { address: match[1] as string, n } : undefined;
}

/** The snapshot of `v4_subaccounts` (`address/number`). */
export function subaccountSnapshot(models: AccountFeedModels, id: string): ChannelSnapshot {
  const parsed = parseId(id, MAX_SUBACCOUNT_NUMBER);
  if (parsed === undefined) return { kind: "invalid-id" };
  const record = models.accounts.subaccount(parsed.address, parsed.n);
  if (record === undefined) return { kind: "snapshot", contents: {} };
  return {
    kind: "snapshot",
    contents: {
      subaccount: subaccountBody(models, record),
      orders: snapshotOrders(models, parsed.address, [parsed.n]),
      blockHeight: models.height.toString(),
    },
  };
}

/** The parent subaccount body (children that exist), or undefined when there are none. */
export function parentBody(models: AccountViewModels, address: string, parent: number) {
  const children = models.accounts
    .numbersOf(address)
    .filter((n) => n % CHILD_SUBACCOUNT_STRIDE === parent)
    .flatMap((n) => {
      const record = models.accounts.subaccount(address, n);
      return record === undefined ? [] : [record];
    });
  if (children.length === 0) return undefined;
  let equity = new Exact(0);
  let free = new Exact(0);
  for (const child of children) {
    const value = subaccountValue(models, child);
    equity = equity.plus(value.equity);
    free = free.plus(value.freeCollateral);
  }
  return {
    address,
    parentSubaccountNumber: parent,
    equity: equity.toString(),
    freeCollateral: free.toString(),
    childSubaccounts: children.map((c) => subaccountBody(models, c)),
  };
}

/** The snapshot of `v4_parent_subaccounts` (`address/parent`). */
export function parentSnapshot(models: AccountFeedModels, id: string): ChannelSnapshot {
  const parsed = parseId(id, MAX_PARENT_SUBACCOUNT_NUMBER + 1);
  if (parsed === undefined) return { kind: "invalid-id" };
  const body = parentBody(models, parsed.address, parsed.n);
  if (body === undefined) return { kind: "snapshot", contents: {} };
  const numbers = body.childSubaccounts.map((c) => c.subaccountNumber);
  return {
    kind: "snapshot",
    contents: {
      subaccount: body,
      orders: snapshotOrders(models, parsed.address, numbers),
      blockHeight: models.height.toString(),
    },
  };
}
