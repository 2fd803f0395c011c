/**
 * The shape of every channel's snapshot and update (`@perpx/core/indexer` `IndexerChannelSnapshots`
 * and `IndexerChannelUpdates`), checked before a subscription sees them: a frame whose contents do
 * not fit is refused with the path of the first bad field, and the subscription resyncs.
 *
 * Required here are the fields the client's views read (a book level's price and size, an order's
 * id and status, a position's market, status, side and size...); every other field of the contract
 * is type-checked when present. A position's size must be signed as the indexer writes it (see
 * `positions.ts`). The `v4_orderbook` update, the busiest message, has a hand-written check.
 */
import type { IndexerChannel } from "@perpx/core/indexer";
import { assetPosition, perpetualPosition, positionFields, positionSide, sideSigned } from "./positions.js";
import {
  array,
  boolean,
  type Check,
  decimal,
  digits,
  integer,
  nullable,
  number,
  object,
  record,
  type ShapeProblem,
  text,
  tuple,
  unsignedDecimal,
} from "./shape.js";

const level = object({ price: unsignedDecimal, size: unsignedDecimal });
const levels = array(level);
const orderbookSnapshot = object({ bids: levels, asks: levels });
const updateLevel = tuple(unsignedDecimal, unsignedDecimal);
const UNSIGNED_DECIMAL = /^\d+(\.\d+)?$/;

/** The hand-written check of one side of a `v4_orderbook` update (the hot path). */
function updateSide(value: unknown, path: string): ShapeProblem | undefined {
  if (!Array.isArray(value)) return { path, expected: "an array", found: value };
  for (let i = 0; i < value.length; i++) {
    const entry: unknown = value[i];
    if (
      Array.isArray(entry) &&
      entry.length === 2 &&
      typeof entry[0] === "string" &&
      typeof entry[1] === "string" &&
      UNSIGNED_DECIMAL.test(entry[0]) &&
      UNSIGNED_DECIMAL.test(entry[1])
    ) {
      continue;
    }
    return updateLevel(entry, `${path}[${i}]`);
  }
  return undefined;
}

const orderbookUpdate: Check = (value, path) => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { path, expected: "an object", found: value };
  }
  const { bids, asks } = value as { bids?: unknown; asks?: unknown };
  return (
    (bids === undefined ? undefined : updateSide(bids, "bids")) ??
    (asks === undefined ? undefined : updateSide(asks, "asks"))
  );
};

const tradeFields = { id: text, side: text, size: decimal, price: decimal, type: text, createdAt: text };
const trade = object(tradeFields, { createdAtHeight: digits });
const trades = object({ trades: array(trade) });

const candle = object(
  {
    startedAt: text,
    ticker: text,
    resolution: text,
    low: decimal,
    high: decimal,
    open: decimal,
    close: decimal,
    baseTokenVolume: decimal,
    usdVolume: decimal,
    trades: integer,
  },
  {
    startingOpenInterest: decimal,
    orderbookMidPriceOpen: nullable(decimal),
    orderbookMidPriceClose: nullable(decimal),
  },
);

const marketFields: Record<string, Check> = {
  clobPairId: text,
  ticker: text,
  status: text,
  oraclePrice: decimal,
  priceChange24H: decimal,
  volume24H: decimal,
  trades24H: number,
  nextFundingRate: decimal,
  initialMarginFraction: decimal,
  maintenanceMarginFraction: decimal,
  openInterest: decimal,
  atomicResolution: integer,
  quantumConversionExponent: integer,
  tickSize: decimal,
  stepSize: decimal,
  stepBaseQuantums: number,
  subticksPerTick: number,
  marketType: text,
  openInterestLowerCap: decimal,
  openInterestUpperCap: decimal,
  baseOpenInterest: decimal,
  defaultFundingRate1H: decimal,
};
const marketsSnapshot = object({ markets: record(object({ ticker: text }, marketFields)) });
const marketsUpdate = object(
  {},
  {
    trading: record(object({}, { ...marketFields, id: text, marketId: integer })),
    oraclePrices: record(
      object({ oraclePrice: decimal }, { effectiveAt: text, effectiveAtHeight: digits, marketId: integer }),
    ),
  },
);

const position = perpetualPosition;
const asset = assetPosition;
const subaccount = object(
  { subaccountNumber: integer, openPerpetualPositions: record(position), assetPositions: record(asset) },
  {
    address: text,
    equity: decimal,
    freeCollateral: decimal,
    marginEnabled: boolean,
    updatedAtHeight: digits,
    latestProcessedBlockHeight: digits,
  },
);
const parentSubaccount = object(
  { parentSubaccountNumber: integer, childSubaccounts: array(subaccount) },
  { address: text, equity: decimal, freeCollateral: decimal },
);
const orderFields: Record<string, Check> = {
  subaccountId: text,
  clientId: text,
  clobPairId: text,
  side: text,
  size: decimal,
  totalFilled: decimal,
  price: decimal,
  type: text,
  timeInForce: text,
  postOnly: boolean,
  reduceOnly: boolean,
  orderFlags: text,
  goodTilBlock: digits,
  goodTilBlockTime: text,
  createdAtHeight: digits,
  createdAt: text,
  clientMetadata: text,
  triggerPrice: decimal,
  updatedAt: text,
  updatedAtHeight: digits,
  ticker: text,
  subaccountNumber: integer,
  removalReason: text,
  totalOptimisticFilled: decimal,
  builderAddress: text,
  feePpm: text,
  orderRouterAddress: text,
  duration: text,
  interval: text,
  priceTolerance: text,
};
const order = object({ id: text, status: text }, orderFields);

/** A subaccount snapshot: `{}` for a subaccount that does not exist yet, else the whole of it. */
function accountSnapshot(account: Check): Check {
  const full = object({ subaccount: account, orders: array(order) }, { blockHeight: digits });
  return (value, path) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { path, expected: "an object", found: value };
    }
    return Object.keys(value).length === 0 ? undefined : full(value, path);
  };
}

const endpoint = object({ address: text }, { subaccountNumber: integer });
const fill = object(
  { id: text },
  {
    subaccountId: text,
    side: text,
    liquidity: text,
    type: text,
    clobPairId: text,
    orderId: text,
    size: decimal,
    price: decimal,
    quoteAmount: decimal,
    eventId: text,
    transactionHash: text,
    createdAt: text,
    createdAtHeight: digits,
    fee: decimal,
    ticker: text,
    clientMetadata: text,
    affiliateRevShare: decimal,
    builderFee: decimal,
    builderAddress: text,
    orderRouterAddress: text,
    orderRouterFee: decimal,
  },
);
const subaccountUpdate = object(
  {},
  {
    perpetualPositions: array(
      sideSigned(object({ market: text, status: text, side: positionSide, size: decimal }, positionFields)),
    ),
    assetPositions: array(asset),
    orders: array(order),
    fills: array(fill),
    transfers: object(
      {},
      {
        sender: endpoint,
        recipient: endpoint,
        symbol: text,
        size: decimal,
        type: text,
        transactionHash: text,
        createdAt: text,
        createdAtHeight: digits,
      },
    ),
    tradingReward: object({}, { tradingReward: decimal, createdAtHeight: digits, createdAt: text }),
    blockHeight: digits,
  },
);

const SNAPSHOTS: Record<IndexerChannel, Check> = {
  v4_orderbook: orderbookSnapshot,
  v4_trades: trades,
  v4_candles: object({ candles: array(candle) }),
  v4_markets: marketsSnapshot,
  v4_subaccounts: accountSnapshot(subaccount),
  v4_parent_subaccounts: accountSnapshot(parentSubaccount),
  v4_block_height: object({ height: digits, time: text }),
};

const UPDATES: Record<IndexerChannel, Check> = {
  v4_orderbook: orderbookUpdate,
  v4_trades: trades,
  v4_candles: candle,
  v4_markets: marketsUpdate,
  v4_subaccounts: subaccountUpdate,
  v4_parent_subaccounts: subaccountUpdate,
  v4_block_height: object({ blockHeight: digits, time: text }),
};

/**
 * Checks a channel's snapshot or update contents.
 *
 * @returns the first bad field, or undefined when the contents fit.
 */
export function checkContents(
  channel: IndexerChannel,
  kind: "snapshot" | "update",
  contents: unknown,
): ShapeProblem | undefined {
  return (kind === "snapshot" ? SNAPSHOTS : UPDATES)[channel](contents, "");
}
