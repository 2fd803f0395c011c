/**
 * Hostile updates: for each of five channels a valid update with every field filled, and from it
 * one case per field and wrong value (a number where a string belongs, a string where a number or
 * a boolean belongs, `null` where the contract allows none), each with the path the client must
 * name (`bids[0][0]`, `trading["BTC-USD"].ticker`).
 */

/** The channels the hostile cases cover. */
export const HOSTILE_CHANNELS = [
  "v4_orderbook",
  "v4_trades",
  "v4_subaccounts",
  "v4_markets",
  "v4_candles",
] as const;

type HostileChannel = (typeof HOSTILE_CHANNELS)[number];

/** One hostile update. */
export interface HostileCase {
  readonly channel: HostileChannel;
  /** A fresh subscription id for the n-th case (each case subscribes anew). */
  readonly id: (n: number) => string;
  readonly path: string;
  readonly contents: unknown;
}

const TIME = "2026-01-01T00:00:00.000Z";
const market = {
  clobPairId: "0",
  ticker: "BTC-USD",
  status: "ACTIVE",
  oraclePrice: "65000",
  priceChange24H: "-10.5",
  volume24H: "100",
  trades24H: 12,
  nextFundingRate: "0.00001",
  initialMarginFraction: "0.05",
  maintenanceMarginFraction: "0.03",
  openInterest: "1.5",
  atomicResolution: -10,
  quantumConversionExponent: -9,
  tickSize: "1",
  stepSize: "0.0001",
  stepBaseQuantums: 1000000,
  subticksPerTick: 100000,
  marketType: "CROSS",
  openInterestLowerCap: "0",
  openInterestUpperCap: "0",
  baseOpenInterest: "0",
  defaultFundingRate1H: "0",
  id: "0",
  marketId: 0,
};
const subaccountUpdate = {
  perpetualPositions: [
    {
      address: "perpx1abc",
      subaccountNumber: 0,
      positionId: "p1",
      market: "BTC-USD",
      side: "LONG",
      status: "OPEN",
      size: "0.1",
      maxSize: "0.1",
      netFunding: "0",
      entryPrice: "65000",
      exitPrice: null,
      sumOpen: "0.1",
      sumClose: "0",
      realizedPnl: "0",
      unrealizedPnl: "1.5",
    },
  ],
  assetPositions: [
    {
      address: "perpx1abc",
      subaccountNumber: 0,
      positionId: "a1",
      assetId: "0",
      symbol: "USDC",
      side: "LONG",
      size: "9990",
    },
  ],
  orders: [
    {
      id: "o1",
      subaccountId: "s0",
      clientId: "42",
      clobPairId: "0",
      side: "BUY",
      size: "1",
      totalFilled: "0",
      price: "100",
      type: "LIMIT",
      status: "OPEN",
      timeInForce: "GTT",
      postOnly: false,
      reduceOnly: false,
      orderFlags: "64",
      goodTilBlockTime: TIME,
      createdAtHeight: "5",
      clientMetadata: "0",
      ticker: "BTC-USD",
      removalReason: "ORDER_REMOVAL_REASON_USER_CANCELED",
    },
  ],
  fills: [
    {
      id: "f1",
      subaccountId: "s0",
      side: "BUY",
      liquidity: "TAKER",
      type: "LIMIT",
      clobPairId: "0",
      orderId: "o1",
      size: "0.1",
      price: "65000",
      quoteAmount: "6500",
      eventId: "0000007b",
      transactionHash: "A1B2",
      createdAt: TIME,
      createdAtHeight: "123",
      fee: "3.25",
      affiliateRevShare: "0",
      ticker: "BTC-USD",
    },
  ],
  transfers: {
    sender: { address: "perpx1abc" },
    recipient: { address: "perpx1def", subaccountNumber: 0 },
    symbol: "USDC",
    size: "100",
    type: "DEPOSIT",
    transactionHash: "A1B2",
    createdAt: TIME,
    createdAtHeight: "7",
  },
  tradingReward: { tradingReward: "0.01", createdAtHeight: "12", createdAt: TIME },
  blockHeight: "124",
};

const SAMPLES: Record<HostileChannel, { id: (n: number) => string; contents: unknown }> = {
  v4_orderbook: { id: (n) => `B${n}-USD`, contents: { bids: [["100", "1"]], asks: [["101", "2"]] } },
  v4_trades: {
    id: (n) => `T${n}-USD`,
    contents: {
      trades: [
        {
          id: "t1",
          side: "BUY",
          size: "1",
          price: "10",
          type: "LIMIT",
          createdAt: TIME,
          createdAtHeight: "5",
        },
      ],
    },
  },
  v4_subaccounts: { id: (n) => `perpx1abc/${n}`, contents: subaccountUpdate },
  v4_markets: {
    id: () => "v4_markets",
    contents: {
      trading: { "BTC-USD": market },
      oraclePrices: {
        "BTC-USD": { oraclePrice: "65010", effectiveAt: TIME, effectiveAtHeight: "43", marketId: 0 },
      },
    },
  },
  v4_candles: {
    id: (n) => `C${n}-USD/1MIN`,
    contents: {
      startedAt: TIME,
      ticker: "BTC-USD",
      resolution: "1MIN",
      low: "1",
      high: "2",
      open: "1.5",
      close: "1.75",
      baseTokenVolume: "10",
      usdVolume: "15",
      trades: 3,
      startingOpenInterest: "0",
      orderbookMidPriceOpen: "1.5",
      orderbookMidPriceClose: null,
    },
  },
};

/** Fields the contract allows to be `null`. */
const NULLABLE = new Set(["exitPrice", "closedAt", "orderbookMidPriceOpen", "orderbookMidPriceClose"]);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

/** Every leaf of a value: its path, its key, its value. */
function leaves(value: unknown, path = "", key = ""): { path: string; key: string; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, join(path, i), key));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([k, item]) => leaves(item, join(path, k), k));
  }
  return [{ path, key, value }];
}

/** A copy of `root` with the leaf at `path` replaced. */
function replaced(root: unknown, path: string, value: unknown): unknown {
  const copy = structuredClone(root);
  const steps = [...path.matchAll(/([A-Za-z_$][\w$]*)|\[(\d+)\]|\["([^"]+)"\]/g)].map(
    (m) => m[1] ?? (m[2] === undefined ? (m[3] as string) : Number(m[2])),
  );
  let node = copy as Record<string | number, unknown>;
  for (const step of steps.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[steps.at(-1) as string | number] = value;
  return copy;
}

/** The wrong values of a leaf. */
function wrongValues(key: string, value: unknown): unknown[] {
  const wrong: unknown[] = [typeof value === "string" || value === null ? 7 : String(value)];
  if (value !== null && !NULLABLE.has(key)) wrong.push(null);
  return wrong;
}

/** One case per field and wrong value, for each channel. */
export function hostileCases(): HostileCase[] {
  return HOSTILE_CHANNELS.flatMap((channel) => {
    const sample = SAMPLES[channel];
    return leaves(sample.contents).flatMap(({ path, key, value }) =>
      wrongValues(key, value).map((wrong) => ({
        channel,
        id: sample.id,
        path,
        contents: replaced(sample.contents, path, wrong),
      })),
    );
  });
}
