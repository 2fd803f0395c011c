/**
 * The shadow's trade replay guard: a live `v4_trades` frame is checked against the fork's own
 * market parameters before any of its trades touches the fork's book. A trade is replayed only when
 * its market is on the fork, its side is `BUY` or `SELL`, its price and size are positive decimals
 * on the market's tick and step, and its size is within the market's open interest (see
 * {@link TradeGuard.trades}); anything else is refused, counted and reported, and the feed goes on.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { type ClobPairParams, priceToSubticks, sizeToQuantums } from "@perpx/core";
import type { TradeUpdate } from "@perpx/core/indexer";
import { type Devnet, DevnetError } from "@perpx/devnet";
import { IndexerFrameError } from "@perpx/indexer-client/ws";
import { clob, perpetuals } from "@perpx/proto";

/**
 * The most trades one live `v4_trades` frame may carry to be replayed: the reference indexer's
 * trades channel never sends more in one message (its initial message is `GET
 * /v4/trades/perpetualMarket/:ticker` at the default limit, `API_LIMIT_V4` = 1000, and an
 * unbatched update, as the shadow subscribes, carries one taker fill). A frame with more is refused
 * whole. It also bounds the trades a market holds while they wait for its open interest.
 */
const MAX_TRADES_PER_FRAME = 1000;

/** A trade that passed every check but the open interest one: what the mirror's taker replays. */
export interface CheckedTrade {
  readonly side: "buy" | "sell";
  readonly price: string;
  readonly size: string;
  readonly quantums: bigint;
}

/** A plain positive-or-zero decimal, as the indexer writes prices and sizes (no sign, no exponent). */
const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/** The clob pair parameters of every market on the fork, by ticker, from the fork's own chain. */
export function forkMarketGrids(devnet: Devnet): Map<string, ClobPairParams> {
  const all = { pagination: { limit: 1_000_000n } };
  const ask = (path: string, request: Uint8Array) => {
    const answer = devnet.app.query(path, request);
    if (answer.code !== 0) throw new DevnetError("unavailable", `${path} failed on the fork: ${answer.log}`);
    return answer.value;
  };
  const perps = fromBinary(
    perpetuals.QueryAllPerpetualsResponseSchema,
    ask(
      "/perpx.perpetuals.v1.Query/AllPerpetuals",
      toBinary(
        perpetuals.QueryAllPerpetualsRequestSchema,
        create(perpetuals.QueryAllPerpetualsRequestSchema, all),
      ),
    ),
  );
  const pairs = fromBinary(
    clob.QueryClobPairAllResponseSchema,
    ask(
      "/perpx.clob.v1.Query/ClobPairAll",
      toBinary(clob.QueryAllClobPairRequestSchema, create(clob.QueryAllClobPairRequestSchema, all)),
    ),
  );
  const byId = new Map(perps.perpetual.map((p) => [p.params?.id, p.params]));
  const grids = new Map<string, ClobPairParams>();
  for (const pair of pairs.clobPair) {
    if (pair.metadata.case !== "perpetualClobMetadata") continue;
    const perp = byId.get(pair.metadata.value.perpetualId);
    if (perp === undefined) continue;
    grids.set(perp.ticker, {
      atomicResolution: perp.atomicResolution,
      quantumConversionExponent: pair.quantumConversionExponent,
      stepBaseQuantums: pair.stepBaseQuantums,
      subticksPerTick: pair.subticksPerTick,
    });
  }
  return grids;
}

/**
 * Judges the live trades of every market, keeping what it needs between frames: each market's open
 * interest as the live indexer last reported it (`v4_markets`), and the trades that wait for the
 * next report.
 */
export class TradeGuard {
  private readonly openInterest = new Map<string, bigint>();
  private readonly waiting = new Map<string, CheckedTrade[]>();

  /**
   * @param grids - the fork's markets (see {@link forkMarketGrids}).
   * @param replay - replays one trade on the fork.
   * @param refuse - a refused trade, with why (counted and reported by the caller).
   */
  constructor(
    private readonly grids: ReadonlyMap<string, ClobPairParams>,
    private readonly replay: (market: string, trade: CheckedTrade) => void,
    private readonly refuse: (error: IndexerFrameError) => void,
  ) {}

  /**
   * One `v4_trades` frame of `market`. A trade whose size is within the market's open interest as
   * last reported is replayed at once; a larger one may have opened that interest (a trade can open
   * more than a market held before it), so it waits for the next report of the market (a
   * `v4_markets` update naming it, or a snapshot) and is replayed then if its size is within the
   * open interest before and after it (no trade moves more than that), or refused. Trades of a
   * market replay in the order they came.
   */
  trades(market: string, trades: readonly TradeUpdate[]): void {
    const refused = (path: string, problem: string) =>
      this.refuse(new IndexerFrameError({ channel: "v4_trades", id: market, path, problem }));
    if (trades.length > MAX_TRADES_PER_FRAME) {
      for (let i = 0; i < trades.length; i++) {
        refused(
          `trades[${i}]`,
          `is one of ${trades.length} trades in one frame, more than the ${MAX_TRADES_PER_FRAME} the indexer sends at most: not replayed`,
        );
      }
      return;
    }
    const grid = this.grids.get(market);
    trades.forEach((trade, i) => {
      if (grid === undefined) {
        refused(`trades[${i}]`, `is of ${market}, a market the fork does not hold: not replayed`);
        return;
      }
      const checked = check(trade, grid, (field, problem) => refused(`trades[${i}].${field}`, problem));
      if (checked === undefined) return;
      const queue = this.waiting.get(market) ?? [];
      const interest = this.openInterest.get(market);
      if (queue.length === 0 && interest !== undefined && checked.quantums <= interest) {
        this.replay(market, checked);
      } else if (queue.length >= MAX_TRADES_PER_FRAME) {
        refused(
          `trades[${i}].size`,
          `${checked.size} is over the market's open interest, and ${queue.length} trades already wait for the next one: not replayed`,
        );
      } else {
        queue.push(checked);
        this.waiting.set(market, queue);
      }
    });
  }

  /**
   * The live indexer reported `market`'s open interest (a decimal size, or undefined when a report
   * of the market does not name it: unchanged). The trades that waited for it are judged.
   */
  report(market: string, openInterest: string | undefined): void {
    const grid = this.grids.get(market);
    if (grid === undefined) return;
    const before = this.openInterest.get(market);
    let after = before;
    if (openInterest !== undefined) {
      after = PLAIN_DECIMAL.test(openInterest)
        ? sizeToQuantums(openInterest, grid, { rounding: "up" })
        : undefined;
    }
    if (after === undefined) this.openInterest.delete(market);
    else this.openInterest.set(market, after);
    const queue = this.waiting.get(market);
    if (queue === undefined || after === undefined) return;
    this.waiting.delete(market);
    const bound = (before ?? 0n) + after;
    for (const trade of queue) {
      if (trade.quantums <= bound) {
        this.replay(market, trade);
      } else {
        this.refuse(
          new IndexerFrameError({
            channel: "v4_trades",
            id: market,
            path: "trades[].size",
            problem: `${trade.size} is more than the market's open interest before and after it (${openInterest ?? "unchanged"}): not replayed`,
          }),
        );
      }
    }
  }

  /** Forgets the trades that wait (the feed stopped). */
  clear(): void {
    this.waiting.clear();
  }
}

/** A trade's side, price and size against the market's grid, or undefined (with `bad` called). */
function check(
  trade: TradeUpdate,
  grid: ClobPairParams,
  bad: (field: string, problem: string) => void,
): CheckedTrade | undefined {
  const side: unknown = trade.side;
  if (side !== "BUY" && side !== "SELL") {
    bad("side", `must be BUY or SELL, got ${JSON.stringify(side)}: not replayed`);
    return undefined;
  }
  const amounts = [
    ["price", trade.price, "tick", (v: string) => priceToSubticks(v, grid, { rounding: "exact" })],
    ["size", trade.size, "step", (v: string) => sizeToQuantums(v, grid, { rounding: "exact" })],
  ] as const;
  const read: bigint[] = [];
  for (const [field, value, unit, convert] of amounts) {
    const text: unknown = value;
    if (typeof text !== "string" || !PLAIN_DECIMAL.test(text)) {
      bad(field, `must be a positive decimal, got ${JSON.stringify(text)}: not replayed`);
      return undefined;
    }
    let units: bigint;
    try {
      units = convert(text);
    } catch {
      bad(field, `${text} is not on the market's ${unit}: not replayed`);
      return undefined;
    }
    if (units <= 0n) {
      bad(field, `must be positive, got ${text}: not replayed`);
      return undefined;
    }
    read.push(units);
  }
  return {
    side: side === "BUY" ? "buy" : "sell",
    price: trade.price,
    size: trade.size,
    quantums: read[1] as bigint,
  };
}
