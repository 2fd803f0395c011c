/**
 * The mirror maker: a devnet-owned trader that rests exactly the levels it is given (a fork mirrors
 * a live network's book with it), replacing them as they change, and a trade-through taker that
 * fills resting orders at their price when the live market trades through it. Orders are signed
 * and sent through CheckTx like any trader's (short-term, post-only for the book, IOC for the
 * trade-through), so they match, fill and reach the indexer as a trader's would. Uses only the
 * `ChainApp` contract.
 */
import { create } from "@bufbuild/protobuf";
import { type ClobPairParams, priceToSubticks, sizeToQuantums } from "@perpx/core";
import { clob, perpetuals } from "@perpx/proto";
import type { ChainApp, ChainControl } from "../app/contract.js";
import { DevnetError } from "../devnet-error.js";
import { message, query } from "./maker.js";
import { type DevnetSigner, devnetSigner, findAccount } from "./signer.js";

/** The label the mirror maker's key derives from. */
export const MIRROR_SIGNER_LABEL = "perpx devnet mirror";
/** The label the trade-through taker's key derives from. */
export const TRADE_THROUGH_SIGNER_LABEL = "perpx devnet trade-through";
const COLLATERAL = 100_000_000_000_000n; // 100,000,000 USDC
/** Blocks a mirror order lives; it is replaced after half of them. */
const ORDER_BLOCKS = 20n;

/**
 * One price level: a decimal USD price and a decimal size in the market's coin.
 *
 * @example
 * ```ts
 * const level: MirrorLevel = { price: "65000", size: "0.5" };
 * ```
 */
export interface MirrorLevel {
  readonly price: string;
  readonly size: string;
}

/**
 * The book the mirror maker rests on one market, best levels first.
 *
 * @example
 * ```ts
 * const book: MirrorBook = { bids: [{ price: "64990", size: "1" }], asks: [{ price: "65010", size: "1" }] };
 * ```
 */
export interface MirrorBook {
  readonly bids: readonly MirrorLevel[];
  readonly asks: readonly MirrorLevel[];
}

/**
 * The mirror maker of a devnet (`devnet.mirror`, control `/devnet/mirror/...`).
 *
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, mirror: true });
 * const mirror: MirrorMaker = devnet.mirror!;
 * mirror.setBook("BTC-USD", { bids: [{ price: "64000", size: "1" }], asks: [{ price: "66000", size: "1" }] });
 * mirror.resting("BTC-USD").asks; // [{ price: "66000", size: "1" }]
 * await devnet.stop();
 * ```
 */
export interface MirrorMaker {
  /** The mirror maker's account. */
  readonly address: string;
  /** The trade-through taker's account. */
  readonly takerAddress: string;
  /**
   * Rests `book` on `market` (ticker or id) in place of what the maker rested there before; a level
   * that would cross someone else's order waits for the next call.
   *
   * @returns how many orders were placed and canceled.
   * @throws DevnetError `invalid-argument` for an unknown market or a level off the market's grid.
   */
  setBook(market: string | number, book: MirrorBook): { placed: number; canceled: number };
  /** The levels the maker rests on `market`, best first. */
  resting(market: string | number): MirrorBook;
  /**
   * The live market traded through `price`, its taker on `side`: the maker's own levels at or
   * through the price leave, and an IOC order of the taker of `size` at `price` fills the resting
   * orders at or through it, each at its own price.
   *
   * @returns the taker's CheckTx answer code (0: accepted).
   */
  tradeThrough(
    market: string | number,
    side: "buy" | "sell",
    price: string,
    size: string,
  ): { code: number; log: string };
  /** Stops refreshing (resting orders expire at their good-til-block). */
  stop(): void;
}

interface Grid extends ClobPairParams {
  readonly id: number;
  readonly ticker: string;
}

interface Resting {
  readonly clientId: number;
  readonly side: "buy" | "sell";
  readonly subticks: bigint;
  readonly quantums: bigint;
  readonly price: string;
  readonly size: string;
  readonly goodTilBlock: bigint;
}

function readGrids(app: ChainApp): Grid[] {
  const all = { pagination: { limit: 1_000_000n } };
  const perps = new Map(
    query(
      app,
      "/perpx.perpetuals.v1.Query/AllPerpetuals",
      perpetuals.QueryAllPerpetualsRequestSchema,
      all,
      perpetuals.QueryAllPerpetualsResponseSchema,
    ).perpetual.map((p) => [p.params?.id ?? 0, p.params]),
  );
  const grids: Grid[] = [];
  for (const pair of query(
    app,
    "/perpx.clob.v1.Query/ClobPairAll",
    clob.QueryAllClobPairRequestSchema,
    all,
    clob.QueryClobPairAllResponseSchema,
  ).clobPair) {
    if (pair.metadata.case !== "perpetualClobMetadata") continue;
    const perp = perps.get(pair.metadata.value.perpetualId);
    if (perp === undefined) continue;
    grids.push({
      id: pair.id,
      ticker: perp.ticker,
      atomicResolution: perp.atomicResolution,
      quantumConversionExponent: pair.quantumConversionExponent,
      stepBaseQuantums: pair.stepBaseQuantums,
      subticksPerTick: BigInt(pair.subticksPerTick),
    });
  }
  return grids;
}

function fundedSigner(
  app: ChainApp,
  control: ChainControl,
  label: string,
): { signer: DevnetSigner; accountNumber: bigint } {
  const signer = devnetSigner(label);
  if (findAccount(app, signer.address) === undefined) {
    control.fund(signer.address, [{ denom: "uusdc", amount: 1n }]);
    control.fundSubaccount(signer.address, 0, COLLATERAL);
  }
  const account = findAccount(app, signer.address);
  if (account === undefined)
    throw new DevnetError("invalid-argument", `the account ${signer.address} was not created`);
  return { signer, accountNumber: account.accountNumber };
}

/**
 * Starts the mirror maker on `app`: funds its two accounts (through `control`) and keeps its
 * orders alive across blocks.
 *
 * @param app - the chain application.
 * @param control - the devnet control surface (funding).
 * @returns the mirror maker.
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const mirror = startMirrorMaker(devnet.app, devnet.app.control);
 * mirror.address === devnet.mirror?.address; // false: the devnet runs none of its own
 * mirror.stop();
 * await devnet.stop();
 * ```
 */
export function startMirrorMaker(app: ChainApp, control: ChainControl): MirrorMaker {
  const maker = fundedSigner(app, control, MIRROR_SIGNER_LABEL);
  const taker = fundedSigner(app, control, TRADE_THROUGH_SIGNER_LABEL);
  let grids = readGrids(app);
  const books = new Map<number, Resting[]>();
  const wanted = new Map<number, MirrorBook>();
  let nextClientId = 1;

  const gridOf = (market: string | number): Grid => {
    const find = () =>
      grids.find((g) => (typeof market === "number" ? g.id === market : g.ticker === market));
    let grid = find();
    if (grid === undefined) {
      grids = readGrids(app);
      grid = find();
    }
    if (grid === undefined) throw new DevnetError("invalid-argument", `market: no market ${String(market)}`);
    return grid;
  };

  const send = (who: { signer: DevnetSigner; accountNumber: bigint }, msg: ReturnType<typeof message>) =>
    app.checkTx(
      who.signer.sign({
        chainId: app.info.chainId,
        accountNumber: who.accountNumber,
        sequence: 0n,
        messages: [msg],
      }),
    );

  const orderId = (owner: string, clientId: number, clobPairId: number) => ({
    subaccountId: { owner, number: 0 },
    clientId,
    orderFlags: 0,
    clobPairId,
  });

  const cancel = (grid: Grid, order: Resting) =>
    send(
      maker,
      message(
        clob.MsgCancelOrderSchema,
        create(clob.MsgCancelOrderSchema, {
          orderId: orderId(maker.signer.address, order.clientId, grid.id),
          goodTilOneof: { case: "goodTilBlock", value: Number(order.goodTilBlock) },
        }),
      ),
    );

  const place = (
    grid: Grid,
    side: "buy" | "sell",
    level: MirrorLevel,
    height: bigint,
  ): Resting | undefined => {
    const subticks = priceToSubticks(level.price, grid, { rounding: "nearest" });
    const quantums = sizeToQuantums(level.size, grid, { rounding: "down" });
    if (quantums === 0n || subticks === 0n) return undefined;
    const clientId = nextClientId;
    nextClientId = (nextClientId % 0x7fffffff) + 1;
    const goodTilBlock = height + ORDER_BLOCKS;
    const order = create(clob.OrderSchema, {
      orderId: orderId(maker.signer.address, clientId, grid.id),
      side: side === "buy" ? clob.Order_Side.BUY : clob.Order_Side.SELL,
      quantums,
      subticks,
      goodTilOneof: { case: "goodTilBlock", value: Number(goodTilBlock) },
      timeInForce: clob.Order_TimeInForce.POST_ONLY,
    });
    const result = send(
      maker,
      message(clob.MsgPlaceOrderSchema, create(clob.MsgPlaceOrderSchema, { order })),
    );
    if (result.code !== 0) return undefined;
    return { clientId, side, subticks, quantums, price: level.price, size: level.size, goodTilBlock };
  };

  const apply = (grid: Grid, book: MirrorBook, refresh: boolean) => {
    const height = app.latestBlock().height;
    const old = books.get(grid.id) ?? [];
    const next: Resting[] = [];
    let placed = 0;
    let canceled = 0;
    const key = (side: string, price: string, size: string) => `${side}/${price}/${size}`;
    const target = new Map<string, { side: "buy" | "sell"; level: MirrorLevel }>();
    for (const level of book.bids) target.set(key("buy", level.price, level.size), { side: "buy", level });
    for (const level of book.asks) target.set(key("sell", level.price, level.size), { side: "sell", level });
    // Cancels first, so that no new level meets an old one of the maker's own.
    for (const order of old) {
      const k = key(order.side, order.price, order.size);
      if (!refresh && target.has(k) && order.goodTilBlock > height + ORDER_BLOCKS / 2n) {
        next.push(order);
        target.delete(k);
      } else {
        cancel(grid, order);
        canceled++;
      }
    }
    for (const { side, level } of target.values()) {
      const order = place(grid, side, level, height);
      if (order === undefined) continue;
      next.push(order);
      placed++;
    }
    books.set(grid.id, next);
    return { placed, canceled };
  };

  const unsubscribe = app.onBlock((block) => {
    for (const [id, book] of wanted) {
      const old = books.get(id) ?? [];
      // Replace before they expire, and retry levels that could not rest yet.
      const due = old.some((o) => o.goodTilBlock <= block.height + ORDER_BLOCKS / 2n);
      const missing = old.length < book.bids.length + book.asks.length;
      if (due || missing) apply(gridOf(id), book, false);
    }
  });

  return {
    address: maker.signer.address,
    takerAddress: taker.signer.address,
    setBook(market, book) {
      const grid = gridOf(market);
      for (const [name, levels] of [
        ["bids", book.bids],
        ["asks", book.asks],
      ] as const) {
        levels.forEach((level, i) => {
          try {
            priceToSubticks(level.price, grid, { rounding: "nearest" });
            sizeToQuantums(level.size, grid, { rounding: "down" });
          } catch (error) {
            throw new DevnetError("invalid-argument", `${name}[${i}]: ${(error as Error).message}`, {
              cause: error,
            });
          }
        });
      }
      wanted.set(grid.id, book);
      return apply(grid, book, false);
    },
    resting(market) {
      const orders = books.get(gridOf(market).id) ?? [];
      const levels = (side: "buy" | "sell") =>
        orders
          .filter((o) => o.side === side)
          .sort((a, b) =>
            a.subticks === b.subticks ? 0 : a.subticks > b.subticks === (side === "buy") ? -1 : 1,
          )
          .map((o) => ({ price: o.price, size: o.size }));
      return { bids: levels("buy"), asks: levels("sell") };
    },
    tradeThrough(market, side, price, size) {
      const grid = gridOf(market);
      const subticks = priceToSubticks(price, grid, { rounding: "nearest" });
      const quantums = sizeToQuantums(size, grid, { rounding: "up" });
      // The maker's own levels the live trade went through are gone on the live book.
      const through = (o: Resting) =>
        side === "sell"
          ? o.side === "buy" && o.subticks >= subticks
          : o.side === "sell" && o.subticks <= subticks;
      const old = books.get(grid.id) ?? [];
      for (const order of old.filter(through)) cancel(grid, order);
      books.set(
        grid.id,
        old.filter((o) => !through(o)),
      );
      const height = app.latestBlock().height;
      const order = create(clob.OrderSchema, {
        orderId: orderId(taker.signer.address, nextClientId, grid.id),
        side: side === "buy" ? clob.Order_Side.BUY : clob.Order_Side.SELL,
        quantums,
        subticks,
        goodTilOneof: { case: "goodTilBlock", value: Number(height + 5n) },
        timeInForce: clob.Order_TimeInForce.IOC,
      });
      nextClientId = (nextClientId % 0x7fffffff) + 1;
      const result = send(
        taker,
        message(clob.MsgPlaceOrderSchema, create(clob.MsgPlaceOrderSchema, { order })),
      );
      return { code: result.code, log: result.log };
    },
    stop: unsubscribe,
  };
}
