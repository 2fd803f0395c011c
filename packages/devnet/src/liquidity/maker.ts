/**
 * `--liquidity`: a market maker the devnet owns. After each committed block it reads the markets
 * and oracle prices through ABCI queries and keeps a ladder of post-only short-term orders around
 * every active market's price, signed and sent through CheckTx like any trader's: the orders live
 * in the memclob, fill through the proposed operations, and reach the order stream and the indexer.
 * It uses only the `ChainApp` contract.
 */
import {
  create,
  type DescMessage,
  fromBinary,
  type MessageInitShape,
  type MessageShape,
  toBinary,
} from "@bufbuild/protobuf";
import { oraclePriceToSubticks, SHORT_BLOCK_WINDOW } from "@perpx/core";
import { clob, perpetuals, prices } from "@perpx/proto";
import type { ChainApp, ChainControl } from "../app/contract.js";
import { DevnetError } from "../devnet-error.js";
import { type LadderShape, ladder, type Rung } from "./ladder.js";
import { type DevnetSigner, devnetSigner, findAccount } from "./signer.js";

/**
 * How the market maker quotes. Every field has a default.
 *
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", liquidity: { levels: 3, halfSpreadBps: 5 } });
 * ```
 */
export interface LiquidityOptions {
  /** Orders per side per market. @default 5 */
  readonly levels?: number;
  /** Distance of the best bid and ask from the oracle price, in basis points. @default 10 */
  readonly halfSpreadBps?: number;
  /** Distance between levels, in basis points. @default 10 */
  readonly levelSpacingBps?: number;
  /** Notional of one level in USDC. @default 5000 */
  readonly levelUsdc?: number;
  /**
   * Blocks between two refreshes of a market whose price did not move by half the spread. The
   * orders' good-til-block is the refresh height plus twice this (within the 40-block window).
   * @default 5
   */
  readonly refreshBlocks?: number;
}

/**
 * The running market maker.
 *
 * @example
 * ```ts
 * const maker = startMarketMaker(devnet.app, devnet.app.control, {});
 * maker.address; // the devnet-owned trader's address
 * maker.stop();
 * ```
 */
export interface MarketMaker {
  /** The maker's account (subaccount 0 holds its collateral and positions). */
  readonly address: string;
  /** Stops quoting (its resting orders expire at their good-til-block). */
  stop(): void;
}

/** The label the maker's key derives from; its address is the same on every devnet. */
export const LIQUIDITY_SIGNER_LABEL = "perpx devnet liquidity";
/** clob 2003: a post-only order that would cross. */
const POST_ONLY_WOULD_CROSS = 2003;
/** The collateral the maker starts with and adds when an order is refused for collateral. */
const TOP_UP_QUOTE_QUANTUMS = 10_000_000_000_000n; // 10,000,000 USDC

interface MarketState {
  /** Oracle subticks at the last refresh. */
  quotedAt: bigint;
  refreshedHeight: bigint;
  /** Client id generation per rung (bumped when a rung's id cannot be placed again). */
  generations: Map<string, number>;
}

/**
 * Starts quoting on `app`: funds the maker's account and subaccount (through `control`), then
 * refreshes ladders after every committed block.
 *
 * @param app - the chain application.
 * @param control - the devnet control surface (funding).
 * @param options - the ladder's shape.
 * @returns the maker; `stop()` unsubscribes it.
 * @example
 * ```ts
 * const maker = startMarketMaker(devnet.app, devnet.app.control, { levels: 3 });
 * devnet.mine(2);
 * maker.stop();
 * ```
 */
export function startMarketMaker(
  app: ChainApp,
  control: ChainControl,
  options: LiquidityOptions,
): MarketMaker {
  const shape = shapeOf(options);
  const refreshBlocks = BigInt(options.refreshBlocks ?? 5);
  const signer = devnetSigner(LIQUIDITY_SIGNER_LABEL);
  const markets = new Map<number, MarketState>();
  // A devnet resumed from its state already has the account: it keeps what it holds.
  if (findAccount(app, signer.address) === undefined) {
    control.fund(signer.address, [{ denom: "uusdc", amount: 1n }]);
    control.fundSubaccount(signer.address, 0, TOP_UP_QUOTE_QUANTUMS);
  }
  const account = findAccount(app, signer.address);
  if (account === undefined) {
    throw new DevnetError("invalid-argument", `the liquidity account ${signer.address} was not created`);
  }
  const accountNumber = account.accountNumber;

  const refresh = (height: bigint) => {
    const goodTilBlock = height + 2n * refreshBlocks;
    for (const market of readMarkets(app)) {
      const state = markets.get(market.clobPairId) ?? {
        quotedAt: 0n,
        refreshedHeight: 0n,
        generations: new Map(),
      };
      markets.set(market.clobPairId, state);
      const moved = abs(market.oracleSubticks - state.quotedAt) * 20_000n;
      const due = height - state.refreshedHeight >= refreshBlocks;
      if (!due && moved < market.oracleSubticks * BigInt(shape.halfSpreadBps)) continue;
      // The side moving away from the new price goes first, so that no new order of the maker
      // meets one of its own old orders on the other side (post-only would refuse it).
      const rungs = ladder(market, shape);
      const risen = market.oracleSubticks > state.quotedAt;
      rungs.sort((a, b) => (a.side === b.side ? 0 : (a.side === "sell") === risen ? -1 : 1));
      for (const rung of rungs) place(market.clobPairId, rung, goodTilBlock, state);
      state.quotedAt = market.oracleSubticks;
      state.refreshedHeight = height;
    }
  };

  const place = (clobPairId: number, rung: Rung, goodTilBlock: bigint, state: MarketState) => {
    const key = `${rung.side}/${rung.level}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      const generation = state.generations.get(key) ?? 0;
      const result = app.checkTx(
        signPlace(signer, app, accountNumber, clobPairId, rung, generation, goodTilBlock),
      );
      // A level that would cross a resting order of someone else waits for the next refresh.
      if (result.code === 0 || (result.codespace === "clob" && result.code === POST_ONLY_WOULD_CROSS)) return;
      // A filled or canceled id cannot be placed again before its old good-til-block: use a new
      // one. An order refused for collateral gets more collateral first.
      if (/collateral/i.test(result.log)) control.fundSubaccount(signer.address, 0, TOP_UP_QUOTE_QUANTUMS);
      state.generations.set(key, generation + 1);
    }
  };

  const unsubscribe = app.onBlock((block) => refresh(block.height));
  refresh(app.latestBlock().height);
  return { address: signer.address, stop: unsubscribe };
}

function shapeOf(options: LiquidityOptions): LadderShape {
  const levels = options.levels ?? 5;
  const halfSpreadBps = options.halfSpreadBps ?? 10;
  const levelSpacingBps = options.levelSpacingBps ?? 10;
  const levelUsdc = options.levelUsdc ?? 5000;
  const refreshBlocks = options.refreshBlocks ?? 5;
  const checks: Array<[string, number, number, number]> = [
    ["levels", levels, 1, 50],
    ["halfSpreadBps", halfSpreadBps, 1, 5000],
    ["levelSpacingBps", levelSpacingBps, 1, 5000],
    ["levelUsdc", levelUsdc, 1, 1_000_000],
    ["refreshBlocks", refreshBlocks, 1, Number(SHORT_BLOCK_WINDOW) / 2],
  ];
  for (const [name, value, min, max] of checks) {
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new DevnetError(
        "out-of-range",
        `liquidity.${name} must be an integer from ${min} to ${max}, got ${value}`,
      );
    }
  }
  if (halfSpreadBps + (levels - 1) * levelSpacingBps >= 10_000) {
    throw new DevnetError(
      "out-of-range",
      "liquidity: halfSpreadBps + (levels - 1) × levelSpacingBps must stay below 10000 (the outermost bid would be at or below zero)",
    );
  }
  return { levels, halfSpreadBps, levelSpacingBps, levelQuoteQuantums: BigInt(levelUsdc) * 1_000_000n };
}

/** A quotable market: its clob pair's grid and its oracle price in subticks. */
interface QuotedMarket {
  readonly clobPairId: number;
  readonly oracleSubticks: bigint;
  readonly subticksPerTick: bigint;
  readonly stepBaseQuantums: bigint;
  readonly quantumConversionExponent: number;
}

function readMarkets(app: ChainApp): QuotedMarket[] {
  const all = { pagination: { limit: 1_000_000n } };
  const pairs = query(
    app,
    "/perpx.clob.v1.Query/ClobPairAll",
    clob.QueryAllClobPairRequestSchema,
    all,
    clob.QueryClobPairAllResponseSchema,
  ).clobPair;
  const perps = new Map(
    query(
      app,
      "/perpx.perpetuals.v1.Query/AllPerpetuals",
      perpetuals.QueryAllPerpetualsRequestSchema,
      all,
      perpetuals.QueryAllPerpetualsResponseSchema,
    ).perpetual.map((p) => [p.params?.id ?? 0, p.params]),
  );
  const oracle = new Map(
    query(
      app,
      "/perpx.prices.v1.Query/AllMarketPrices",
      prices.QueryAllMarketPricesRequestSchema,
      all,
      prices.QueryAllMarketPricesResponseSchema,
    ).marketPrices.map((p) => [p.id, p]),
  );
  const quoted: QuotedMarket[] = [];
  for (const pair of pairs) {
    if (pair.status !== clob.ClobPair_Status.ACTIVE || pair.metadata.case !== "perpetualClobMetadata")
      continue;
    const perp = perps.get(pair.metadata.value.perpetualId);
    const price = perp === undefined ? undefined : oracle.get(perp.marketId);
    if (perp === undefined || price === undefined || price.price === 0n) continue;
    const grid = {
      atomicResolution: perp.atomicResolution,
      quantumConversionExponent: pair.quantumConversionExponent,
      stepBaseQuantums: pair.stepBaseQuantums,
      subticksPerTick: BigInt(pair.subticksPerTick),
    };
    quoted.push({
      clobPairId: pair.id,
      oracleSubticks: oraclePriceToSubticks(price, grid, { rounding: "nearest" }),
      subticksPerTick: grid.subticksPerTick,
      stepBaseQuantums: pair.stepBaseQuantums,
      quantumConversionExponent: pair.quantumConversionExponent,
    });
  }
  return quoted;
}

function signPlace(
  signer: DevnetSigner,
  app: ChainApp,
  accountNumber: bigint,
  clobPairId: number,
  rung: Rung,
  generation: number,
  goodTilBlock: bigint,
): Uint8Array {
  // Client ids: bit 31 clear; side in bit 30, level in bits 24-29, generation below.
  const clientId = ((rung.side === "sell" ? 1 : 0) << 30) | (rung.level << 24) | (generation & 0xffffff);
  const order = create(clob.OrderSchema, {
    orderId: {
      subaccountId: { owner: signer.address, number: 0 },
      clientId,
      orderFlags: 0,
      clobPairId,
    },
    side: rung.side === "buy" ? clob.Order_Side.BUY : clob.Order_Side.SELL,
    quantums: rung.quantums,
    subticks: rung.subticks,
    goodTilOneof: { case: "goodTilBlock", value: Number(goodTilBlock) },
    timeInForce: clob.Order_TimeInForce.POST_ONLY,
  });
  return signer.sign({
    chainId: app.info.chainId,
    accountNumber,
    sequence: 0n,
    messages: [message(clob.MsgPlaceOrderSchema, create(clob.MsgPlaceOrderSchema, { order }))],
  });
}

export function message<Desc extends DescMessage>(schema: Desc, value: MessageShape<Desc>) {
  return { schema, value } as { schema: DescMessage; value: MessageShape<DescMessage> };
}

export function query<I extends DescMessage, O extends DescMessage>(
  app: ChainApp,
  path: string,
  input: I,
  request: MessageInitShape<I>,
  output: O,
): MessageShape<O> {
  const result = app.query(path, toBinary(input, create(input, request)));
  if (result.code !== 0) throw new DevnetError("invalid-argument", `${path} failed: ${result.log}`);
  return fromBinary(output, result.value);
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}
