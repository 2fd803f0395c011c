/**
 * The devnet indexer: read models fed only by the chain application's two streams (committed
 * blocks with their indexer events, and the memclob's off-chain order stream), answering REST
 * and the WebSocket channels ({@link IndexerFeed}). It never reads chain state.
 */
import type { IndexerChannel } from "@perpx/core/indexer";
import type { clob } from "@perpx/proto";
import type { BlockRecord, OrderStreamMessage } from "../app/contract.js";
import type { LocatedIndexerEvent } from "../app/indexer-output/indexer-events.js";
import {
  type AccountFeedModels,
  ChangeSet,
  parentSnapshot,
  subaccountMessages,
  subaccountSnapshot,
  tradingRewardMessages,
} from "./account-feed.js";
import { subaccountValue } from "./account-views.js";
import { locateBlockEvents } from "./block-events.js";
import type { ChannelInterest, ChannelMessage, ChannelSnapshot, IndexerFeed } from "./feed.js";
import { iso } from "./format.js";
import { oraclePriceContents, tradingContents } from "./markets-feed.js";
import { AccountsModel, subaccountKey } from "./models/accounts.js";
import { AffiliatesModel } from "./models/affiliates.js";
import { type CandleRecord, type CandleResolution, CandlesModel, RESOLUTIONS } from "./models/candles.js";
import { FundingPaymentsModel } from "./models/funding-payments.js";
import { HistoryModel } from "./models/history.js";
import { MarketsModel, type PerpetualMarketBody } from "./models/markets.js";
import { MidPricesModel } from "./models/mid-prices.js";
import { LevelChanges, OrderBookModel, streamOrderKey } from "./models/orderbook.js";
import { OrdersModel } from "./models/orders.js";
import { PnlModel } from "./models/pnl.js";
import { TradesModel } from "./models/trades.js";
import { type BlockReward, TradingRewardsModel } from "./models/trading-rewards.js";
import { candleBody, levelUpdateBody, orderbookBody, tradeBody, tradeUpdateBody } from "./views.js";

/**
 * The two streams of a chain application the indexer consumes (a block listener also gets the
 * wall-clock moment of the block's commit, which the indexer does not need).
 */
export interface IndexerSource {
  onBlock(listener: (block: BlockRecord, committedAt: number) => void): () => void;
  onOrderStream(listener: (messages: readonly OrderStreamMessage[]) => void): () => void;
}

/** The channel versions of the reference. */
export const CHANNEL_VERSIONS: Readonly<Record<IndexerChannel, string>> = {
  v4_orderbook: "1.0.0",
  v4_subaccounts: "3.0.0",
  v4_parent_subaccounts: "3.0.0",
  v4_trades: "2.1.0",
  v4_markets: "1.0.0",
  v4_candles: "1.0.0",
  v4_block_height: "1.0.0",
};

/** The default and largest `limit` of list routes. */
export const API_LIMIT = 1000;

/** The indexer (see the module comment). */
export class Indexer implements IndexerFeed {
  /**
   * @param retainBlocks - how many recent blocks of history (trades, fills, transfers, final
   *   orders) the read models keep, as a node keeps its recent blocks; 0 keeps everything.
   */
  constructor(private readonly retainBlocks = 0) {}

  readonly markets = new MarketsModel();
  readonly book = new OrderBookModel();
  readonly trades = new TradesModel();
  readonly candles = new CandlesModel();
  readonly midPrices = new MidPricesModel();
  readonly accounts = new AccountsModel(this.markets);
  readonly orders = new OrdersModel();
  readonly history = new HistoryModel();
  readonly pnl = new PnlModel();
  readonly fundingPayments = new FundingPaymentsModel();
  readonly affiliates = new AffiliatesModel();
  readonly rewards = new TradingRewardsModel();
  private latest: { height: bigint; time: Date } | undefined;
  /**
   * The perpetual market bodies at `height` (they change only when a block is applied) and their
   * serialized REST answers by `limit`, so that market-wide reads format and serialize once per block.
   */
  private marketCache:
    | {
        readonly height: bigint | undefined;
        readonly bodies: ReadonlyMap<string, PerpetualMarketBody>;
        readonly json: Map<number, Buffer>;
      }
    | undefined;
  /** The listeners, each with the channel ids it wants (undefined: every one). */
  private readonly listeners = new Map<
    (messages: readonly ChannelMessage[]) => void,
    ChannelInterest | undefined
  >();
  /** Whether some listener wants a channel id's messages. */
  private readonly wanted: ChannelInterest = (channel, id) => {
    for (const wants of this.listeners.values()) if (wants === undefined || wants(channel, id)) return true;
    return false;
  };

  /** The latest indexed block's height and time. */
  get head(): { height: bigint; time: Date } | undefined {
    return this.latest;
  }

  /**
   * Applies one committed block; returns (and publishes) its channel messages (its trade and
   * subaccount messages only for the channel ids some listener wants).
   */
  applyBlock(block: BlockRecord): ChannelMessage[] {
    const located = locateBlockEvents(block);
    const nowMs = block.time.getTime();
    // What readers saw before this block (the cache, or the bodies as they stand).
    const before = this.marketBodies();
    this.markets.trim(nowMs);
    this.markets.beginBlock();
    // roundtable's mid price samples, from the book as the block finds it.
    this.midPrices.block(
      nowMs,
      this.markets.markets().map((m) => m.clobPairId),
      (clobPairId) => this.book.bestSum(clobPairId),
    );
    const messages: ChannelMessage[] = [];
    const changedCandles = new Set<CandleRecord>();
    const oraclePrices: ChannelMessage[] = [];
    const changes = new ChangeSet();
    const rewards: BlockReward[] = [];
    for (const event of located) {
      this.applyEvent(event, messages, changedCandles);
      this.applyAccountEvent(event, changes);
      this.pnl.apply(event);
      this.fundingPayments.apply(event);
      this.affiliates.apply(event);
      rewards.push(...this.rewards.apply(event));
      if (event.event.kind === "oracle_price") {
        const contents = oraclePriceContents(this.markets, event.event.marketId);
        if (contents !== undefined) oraclePrices.push(this.message("v4_markets", "v4_markets", contents));
      }
    }
    this.latest = { height: block.height, time: block.time };
    this.rewards.block(block.height, block.time);
    // The reference's roundtable tasks on their cadence (block time): funding payments, next funding rates.
    this.fundingPayments.block(this.accounts.records(), nowMs);
    this.markets.runMarketUpdater(nowMs);
    this.pnl.block(block.height, block.time, () => this.tickEquities());
    if (this.retainBlocks > 0) {
      const oldest = block.height - BigInt(this.retainBlocks) + 1n;
      this.trades.prune(oldest);
      this.history.prune(oldest);
      this.fundingPayments.prune(oldest);
      this.orders.prune(oldest);
      this.rewards.prune(oldest);
    }
    for (const order of this.orders.expire(block.height))
      this.changeOf(changes, order.order).orders.push(order);
    messages.push(...subaccountMessages(this.accountModels(), changes, this.wanted));
    for (const reward of rewards) messages.push(...tradingRewardMessages(reward, block.height));
    for (const market of this.markets.markets()) {
      const moment = this.moment(market.clobPairId, market.perpetualId);
      for (const c of this.candles.tick(market.clobPairId, nowMs, moment)) changedCandles.add(c);
    }
    for (const candle of changedCandles) {
      const market = this.markets.marketOfPair(candle.clobPairId);
      if (market === undefined) continue;
      messages.push(
        this.message(
          "v4_candles",
          `${market.ticker}/${candle.resolution}`,
          candleBody(market, candle, false),
        ),
      );
    }
    const after = this.computeMarketBodies(nowMs);
    this.marketCache = { height: block.height, bodies: after, json: new Map() };
    // As the reference: ender sends each oracle price update as its own message, and roundtable's
    // market updater the changed trading figures in another.
    messages.push(...oraclePrices);
    const trading = tradingContents(this.markets, before, after);
    if (trading !== undefined) messages.push(this.message("v4_markets", "v4_markets", trading));
    messages.push(
      this.message("v4_block_height", "v4_block_height", {
        blockHeight: block.height.toString(),
        time: iso(block.time),
      }),
    );
    this.publish(messages);
    return messages;
  }

  private applyEvent(located: LocatedIndexerEvent, out: ChannelMessage[], candles: Set<CandleRecord>): void {
    this.markets.apply(located);
    const trade = this.trades.apply(located);
    if (trade === undefined) return;
    const market = this.markets.marketOfPair(trade.clobPairId);
    if (market === undefined) return;
    if (this.wanted("v4_trades", market.ticker))
      out.push(this.message("v4_trades", market.ticker, { trades: [tradeUpdateBody(market, trade)] }));
    const moment = this.moment(market.clobPairId, market.perpetualId);
    for (const c of this.candles.trade(market.clobPairId, trade.createdAt.getTime(), trade, moment))
      candles.add(c);
  }

  /** The change entry of the subaccount that owns `order`. */
  private changeOf(changes: ChangeSet, order: clob.Order) {
    const sub = order.orderId?.subaccountId;
    return changes.of(sub?.owner ?? "", sub?.number ?? 0);
  }

  private applyAccountEvent(located: LocatedIndexerEvent, changes: ChangeSet): void {
    const e = located.event;
    // The fills first: each takes the position it finds before the accounts model moves it.
    const made = this.history.apply(located, (address, number, clobPairId) => {
      const market = this.markets.marketOfPair(clobPairId);
      return market === undefined
        ? { size: 0n }
        : this.accounts.positionBefore(address, number, market.perpetualId);
    });
    this.accounts.apply(located);
    if (e.kind === "subaccount_update") {
      const change = changes.of(e.owner, e.number);
      change.usdc = true;
      for (const p of e.perpetualPositions) change.perpetuals.add(p.perpetualId);
      for (const p of this.accounts.positions(e.owner, e.number)) {
        if (p.status === "OPEN") change.perpetuals.add(p.perpetualId);
      }
    }
    if (e.kind === "order_fill") {
      const market = this.markets.marketOfPair(e.clobPairId);
      for (const order of [e.taker, e.maker]) {
        if (market !== undefined) this.changeOf(changes, order).perpetuals.add(market.perpetualId);
      }
    }
    for (const order of this.orders.apply(located)) this.changeOf(changes, order.order).orders.push(order);
    for (const fill of made.fills) changes.of(fill.subaccount, fill.subaccountNumber).fills.push(fill);
    for (const transfer of made.transfers) {
      for (const side of [transfer.sender, transfer.recipient]) {
        if (side.subaccountNumber !== undefined)
          changes.of(side.address, side.subaccountNumber).transfers.push(transfer);
      }
    }
  }

  /**
   * Each subaccount's equity for a PnL tick, as roundtable's `calculateEquity` computes it: the
   * exact equity comlink shows, written with big.js `toFixed(6)` (half away from zero), in quote
   * quantums (not the chain's truncated notionals).
   */
  private *tickEquities(): Generator<[string, bigint]> {
    const models = this.accountModels();
    for (const record of this.accounts.records()) {
      const equity = subaccountValue(models, record).equity.toFixed(6, "halfExpand");
      yield [subaccountKey(record.address, record.subaccountNumber), BigInt(equity.replace(".", ""))];
    }
  }

  /** The models the account views and channels read, at the latest height. */
  accountModels(): AccountFeedModels {
    return {
      markets: this.markets,
      accounts: this.accounts,
      orders: this.orders,
      height: this.latest?.height ?? 0n,
    };
  }

  private moment(clobPairId: number, perpetualId: number) {
    return {
      openInterest: this.markets.openInterestBeforeBlockOf(perpetualId),
      mid: this.midPrices.median(clobPairId),
    };
  }

  /**
   * After replaying stored blocks (which carry no order stream): the stateful orders the blocks
   * left open rest in the memclob again (a node rebuilds them from state), so they rest in the book.
   */
  restBook(): void {
    const stream: OrderStreamMessage[] = [];
    for (const record of this.orders.all()) {
      if (record.status !== "OPEN" || (record.order.orderId?.orderFlags ?? 0) === 0) continue;
      stream.push({ kind: "place", order: record.order });
      if (record.totalFilled > 0n) {
        stream.push({
          kind: "update",
          orderId: record.order.orderId as clob.OrderId,
          totalFilled: record.totalFilled,
        });
      }
    }
    for (const message of stream) this.book.apply(message);
  }

  /**
   * Applies one step of the order stream; returns (and publishes) its messages (only for the
   * channel ids some listener wants). The order book updates are published first, on their own,
   * before the orders and subaccount updates of the step are worked out, so that nothing else
   * delays them.
   */
  applyOrderStream(stream: readonly OrderStreamMessage[]): ChannelMessage[] {
    // One update per level the step changed, in the order first changed, with its final size: a
    // taker that crossed and left within the step leaves no trace.
    const keys = stream.map(streamOrderKey);
    const changed = new LevelChanges();
    for (let i = 0; i < stream.length; i++) {
      for (const change of this.book.apply(stream[i] as OrderStreamMessage, keys[i])) changed.add(change);
    }
    const book: ChannelMessage[] = [];
    for (const { first, last } of changed.inOrder) {
      if (first === last.quantums) continue;
      const market = this.markets.marketOfPair(last.clobPairId);
      if (market === undefined || !this.wanted("v4_orderbook", market.ticker)) continue;
      book.push(this.message("v4_orderbook", market.ticker, levelUpdateBody(market, last)));
    }
    this.publish(book);
    const orderChanges = new ChangeSet();
    for (let i = 0; i < stream.length; i++) {
      for (const order of this.orders.applyStream(stream[i] as OrderStreamMessage, keys[i])) {
        this.changeOf(orderChanges, order.order).orders.push(order);
      }
    }
    const accounts = subaccountMessages(this.accountModels(), orderChanges, this.wanted);
    this.publish(accounts);
    return [...book, ...accounts];
  }

  private message(channel: IndexerChannel, id: string, contents: object): ChannelMessage {
    return { channel, id, version: CHANNEL_VERSIONS[channel], contents };
  }

  private publish(messages: readonly ChannelMessage[]): void {
    if (messages.length === 0) return;
    for (const listener of this.listeners.keys()) {
      try {
        listener(messages);
      } catch {
        // A listener's failure must not stop the indexer or the other listeners.
      }
    }
  }

  onMessages(listener: (messages: readonly ChannelMessage[]) => void, wants?: ChannelInterest): () => void {
    const wrapped = (messages: readonly ChannelMessage[]) => listener(messages);
    this.listeners.set(wrapped, wants);
    return () => {
      this.listeners.delete(wrapped);
    };
  }

  private computeMarketBodies(nowMs: number): Map<string, PerpetualMarketBody> {
    return new Map(this.markets.markets().map((m) => [m.ticker, this.markets.body(m, nowMs)]));
  }

  /** Every market's REST body at the latest block, by ticker in clob pair order (cached per block). */
  private marketBodies(): ReadonlyMap<string, PerpetualMarketBody> {
    const height = this.latest?.height;
    if (this.marketCache === undefined || this.marketCache.height !== height) {
      const bodies = this.computeMarketBodies(this.latest?.time.getTime() ?? 0);
      this.marketCache = { height, bodies, json: new Map() };
    }
    return this.marketCache.bodies;
  }

  /** `GET /v4/perpetualMarkets`'s body (every market, or the first `limit`). */
  perpetualMarkets(limit = API_LIMIT): { markets: Record<string, PerpetualMarketBody> } {
    const markets: Record<string, PerpetualMarketBody> = {};
    let count = 0;
    for (const [ticker, body] of this.marketBodies()) {
      if (count++ >= limit) break;
      markets[ticker] = body;
    }
    return { markets };
  }

  /** One market's REST body at the latest block, or undefined for an unknown ticker. */
  perpetualMarket(ticker: string): PerpetualMarketBody | undefined {
    return this.marketBodies().get(ticker);
  }

  /** {@link perpetualMarkets} serialized as JSON, once per block and `limit`. */
  perpetualMarketsJson(limit = API_LIMIT): Buffer {
    this.marketBodies();
    const json = (this.marketCache as NonNullable<typeof this.marketCache>).json;
    let text = json.get(limit);
    if (text === undefined) {
      text = Buffer.from(JSON.stringify(this.perpetualMarkets(limit)));
      json.set(limit, text);
    }
    return text;
  }

  /** The REST order book of a ticker, or undefined for an unknown one. */
  orderbook(ticker: string) {
    const market = this.markets.market(ticker);
    return market === undefined ? undefined : orderbookBody(market, this.book.snapshot(market.clobPairId));
  }

  /** A market's trades, newest first. */
  tradesOf(ticker: string) {
    const market = this.markets.market(ticker);
    if (market === undefined) return undefined;
    return [...this.trades.trades(market.clobPairId)].reverse().map((t) => tradeBody(market, t));
  }

  /** A market's candles of one resolution, newest first. */
  candlesOf(ticker: string, resolution: CandleResolution) {
    const market = this.markets.market(ticker);
    if (market === undefined) return undefined;
    return [...this.candles.candles(market.clobPairId, resolution)]
      .reverse()
      .map((c) => candleBody(market, c, true));
  }

  /** `GET /v4/height`'s body, or undefined before the first block. */
  heightBody(): { height: string; time: string } | undefined {
    return this.latest === undefined
      ? undefined
      : { height: this.latest.height.toString(), time: iso(this.latest.time) };
  }

  snapshot(channel: IndexerChannel, id: string): ChannelSnapshot {
    switch (channel) {
      case "v4_markets":
        return { kind: "snapshot", contents: this.perpetualMarkets() };
      case "v4_block_height": {
        const body = this.heightBody();
        return body === undefined
          ? { kind: "refused", message: "No blocks found" }
          : { kind: "snapshot", contents: body };
      }
      case "v4_orderbook": {
        const body = this.orderbook(id);
        return body === undefined ? { kind: "invalid-id" } : { kind: "snapshot", contents: body };
      }
      case "v4_trades": {
        const trades = this.tradesOf(id);
        return trades === undefined
          ? { kind: "invalid-id" }
          : { kind: "snapshot", contents: { trades: trades.slice(0, API_LIMIT) } };
      }
      case "v4_candles": {
        const [ticker, resolution] = id.split("/");
        if (ticker === undefined || !RESOLUTIONS.includes(resolution as CandleResolution))
          return { kind: "invalid-id" };
        const candles = this.candlesOf(ticker, resolution as CandleResolution);
        return candles === undefined
          ? { kind: "invalid-id" }
          : { kind: "snapshot", contents: { candles: candles.slice(0, API_LIMIT) } };
      }
      case "v4_subaccounts":
        return subaccountSnapshot(this.accountModels(), id);
      case "v4_parent_subaccounts":
        return parentSnapshot(this.accountModels(), id);
    }
  }
}

/**
 * Starts an indexer on a chain application's streams, after replaying `history` (the blocks
 * committed so far, oldest first), keeping `retainBlocks` blocks of history (0: all). Returns it
 * and the function that unsubscribes it.
 */
export function startIndexer(
  source: IndexerSource,
  history: Iterable<BlockRecord>,
  retainBlocks = 0,
): { indexer: Indexer; stop: () => void } {
  const indexer = new Indexer(retainBlocks);
  for (const block of history) indexer.applyBlock(block);
  indexer.restBook();
  const offBlock = source.onBlock((block) => indexer.applyBlock(block));
  const offStream = source.onOrderStream((messages) => indexer.applyOrderStream(messages));
  return {
    indexer,
    stop: () => {
      offBlock();
      offStream();
    },
  };
}

/** What the indexer reads of stored blocks at start (a chain application's block store). */
export interface StoredBlocks {
  readonly info: { readonly initialHeight: bigint };
  latestBlock(): BlockRecord;
  block(height: bigint): BlockRecord | undefined;
}

/**
 * The committed blocks from the chain's first height to the latest, oldest first, read one at a
 * time (blocks pruned without an archive are skipped: the indexer then starts from what is left).
 */
export function* committedBlocks(app: StoredBlocks): Generator<BlockRecord> {
  const latest = app.latestBlock().height;
  for (let height = app.info.initialHeight; height <= latest; height++) {
    const block = app.block(height);
    if (block !== undefined) yield block;
  }
}
