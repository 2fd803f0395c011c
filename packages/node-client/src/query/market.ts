import { marketPriceToPrice } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import { clob } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { QueryError } from "../errors.js";
import type { OrderMarket } from "../messages/market.js";
import { marketQueries } from "./markets.js";
import type { QueryOptions } from "./unary.js";

/**
 * A perpetual market (perpetual, clob pair, oracle price) with what core's conversions need.
 * @example
 * ```ts
 * const { ticker, clobPairId, oraclePrice }: Market = await client.getMarket({ ticker: "BTC-USD" });
 * ```
 */
export interface Market extends OrderMarket {
  /** The ticker, e.g. `"BTC-USD"`. */
  readonly ticker: string;
  readonly perpetualId: number;
  readonly marketId: number;
  /** Base quantums per unit of the asset are 10^-atomicResolution. */
  readonly atomicResolution: number;
  /** The exponent that turns subticks into a price (with the atomic resolution). */
  readonly quantumConversionExponent: number;
  /** The size step, in base quantums. */
  readonly stepBaseQuantums: bigint;
  /** The price tick, in subticks. */
  readonly subticksPerTick: bigint;
  /** The clob pair's status, e.g. `"ACTIVE"`. */
  readonly status: string;
  /** The oracle price in USD, exact (e.g. `"65000.5"`). */
  readonly oraclePrice: string;
  /** The oracle price as the chain stores it: `price × 10^exponent` USD. */
  readonly oracle: { readonly price: bigint; readonly exponent: number };
}

/**
 * Parameters of {@link getMarket}.
 * @example
 * ```ts
 * const params: GetMarketParams = { ticker: "ETH-USD", transport: "rpc" };
 * ```
 */
export interface GetMarketParams extends QueryOptions {
  /** The market's ticker, e.g. `"BTC-USD"`. */
  ticker: string;
}

/**
 * A market by ticker: its perpetual, clob pair and oracle price joined into one {@link Market}.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetMarketParams`, with the call options.
 * @returns the market, with the conversion parameters core's order builders take.
 * @throws {InvalidArgumentError} when no perpetual or clob pair has that ticker (lists the known ones).
 * @throws {QueryError | TransportError} when the node does not answer.
 * @example
 * ```ts
 * const btc = await client.getMarket({ ticker: "BTC-USD" });
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 10;
 * // The order builders take the market: size and price in BTC and USD.
 * const sent = await client.placeOrder({ signer: wallet, subaccount, clientId: 117, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock });
 * sent.orderId?.clobPairId === btc.clobPairId; // true
 * ```
 */
export async function getMarket(client: NodeConnection, params: GetMarketParams): Promise<Market> {
  const { ticker, ...options } = params ?? ({} as GetMarketParams);
  if (typeof ticker !== "string" || ticker === "") {
    throw new InvalidArgumentError("ticker", "must be a non-empty ticker such as BTC-USD");
  }
  const [perpetuals, pairs] = await Promise.all([
    marketQueries.getPerpetuals(client, options),
    marketQueries.getClobPairs(client, options),
  ]);
  const perpetual = perpetuals.find((p) => p.params?.ticker === ticker);
  if (!perpetual?.params) {
    const known = perpetuals.map((p) => p.params?.ticker).filter(Boolean);
    throw new InvalidArgumentError(
      "ticker",
      `no market ${JSON.stringify(ticker)}; the chain has ${known.join(", ")}`,
    );
  }
  const perpetualId = perpetual.params.id;
  const pair = pairs.find(
    (p) => p.metadata.case === "perpetualClobMetadata" && p.metadata.value.perpetualId === perpetualId,
  );
  if (!pair) {
    throw new InvalidArgumentError("ticker", `the perpetual ${ticker} has no clob pair to trade on`);
  }
  const price = await marketQueries.getMarketPrice(client, { ...options, id: perpetual.params.marketId });
  if (price.id !== perpetual.params.marketId) {
    throw new QueryError({
      path: "/perpx.prices.Query/MarketPrice",
      transport: "grpc",
      log: "another market's price",
    });
  }
  const oracle = { price: price.price, exponent: price.exponent };
  return {
    ticker,
    clobPairId: pair.id,
    perpetualId,
    marketId: perpetual.params.marketId,
    atomicResolution: perpetual.params.atomicResolution,
    quantumConversionExponent: pair.quantumConversionExponent,
    stepBaseQuantums: pair.stepBaseQuantums,
    subticksPerTick: BigInt(pair.subticksPerTick),
    status: clob.ClobPair_Status[pair.status] ?? String(pair.status),
    oraclePrice: marketPriceToPrice(oracle),
    oracle,
  };
}
