import { InvalidArgumentError, type SubaccountRef } from "@perpx/core";
import { clob, feetiers, perpetuals, prices } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { ORDER_FLAGS } from "../messages/orderTypes.js";
import { bech32Address, checkParams, subaccountId, uint32 } from "../messages/validate.js";
import { definePagedQuery, defineQuery, present } from "./define.js";
import type { QueryOptions } from "./unary.js";

/**
 * Parameters of the queries of one item by id.
 * @example
 * ```ts
 * await getClobPair(client, { id: 0 });
 * ```
 */
export interface ByIdParams extends QueryOptions {
  /** The id. */
  id: number;
}

const byId = (p: ByIdParams) => ({ id: uint32(p.id, "id") });

/**
 * One clob pair (market): its perpetual, `stepBaseQuantums`, `subticksPerTick`,
 * `quantumConversionExponent` and status.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the id (`ByIdParams`), with the call options.
 * @returns the pair.
 * @throws {QueryError} with `notFound` for an unknown id.
 * @example
 * ```ts
 * (await getClobPair(client, { id: 0 })).id; // 0
 * ```
 */
export const getClobPair: (client: NodeConnection, params: ByIdParams) => Promise<clob.ClobPair> =
  defineQuery("getClobPair", () => clob.Query.method.clobPair, {
    request: byId,
    pick: (r, path) => present(r.clobPair, path, "clob_pair"),
  });

/**
 * Every clob pair (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns every clob pair.
 * @example
 * ```ts
 * const pairs = await getClobPairs(client);
 * ```
 */
export const getClobPairs: (client: NodeConnection, params?: QueryOptions) => Promise<clob.ClobPair[]> =
  definePagedQuery("getClobPairs", () => clob.Query.method.clobPairAll, {
    pick: (r) => r.clobPair,
  });

/**
 * One perpetual: params (ticker, atomic resolution...), funding index, open interest (SerializableInt
 * bytes; {@link @perpx/node-client/queries!perpetualAmounts} reads them as bigints).
 * @param client - the node client (from `createNodeClient`).
 * @param params - the id (`ByIdParams`), with the call options.
 * @returns the perpetual.
 * @example
 * ```ts
 * (await getPerpetual(client, { id: 0 })).params?.ticker; // "BTC-USD"
 * ```
 */
export const getPerpetual: (client: NodeConnection, params: ByIdParams) => Promise<perpetuals.Perpetual> =
  defineQuery("getPerpetual", () => perpetuals.Query.method.perpetual, {
    request: byId,
    pick: (r, path) => present(r.perpetual, path, "perpetual"),
  });

/**
 * Every perpetual (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns every perpetual.
 * @example
 * ```ts
 * const perps = await getPerpetuals(client);
 * ```
 */
export const getPerpetuals: (
  client: NodeConnection,
  params?: QueryOptions,
) => Promise<perpetuals.Perpetual[]> = definePagedQuery(
  "getPerpetuals",
  () => perpetuals.Query.method.allPerpetuals,
  {
    pick: (r) => r.perpetual,
  },
);

/**
 * One oracle market price: the USD price is `price × 10^exponent`.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the id (`ByIdParams`), with the call options.
 * @returns the market's integer `price` and its `exponent`.
 * @throws {QueryError} with `notFound` for an unknown id.
 * @example
 * ```ts
 * const { price, exponent } = await getMarketPrice(client, { id: 0 });
 * ```
 */
export const getMarketPrice = defineQuery("getMarketPrice", () => prices.Query.method.marketPrice, {
  request: byId,
  pick: (r, path) => present(r.marketPrice, path, "market_price"),
});

/**
 * Every oracle market price (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns every oracle market price.
 * @example
 * ```ts
 * const all = await getMarketPrices(client);
 * ```
 */
export const getMarketPrices = definePagedQuery(
  "getMarketPrices",
  () => prices.Query.method.allMarketPrices,
  {
    pick: (r) => r.marketPrices,
  },
);

/**
 * The perpetual fee tiers (maker/taker ppm and their volume requirements).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the fee params.
 * @example
 * ```ts
 * const { tiers } = await getFeeTiers(client);
 * ```
 */
export const getFeeTiers = defineQuery("getFeeTiers", () => feetiers.Query.method.perpetualFeeParams, {
  pick: (r, path) => present(r.params, path, "params"),
});

/**
 * Parameters of {@link getUserFeeTier}.
 * @example
 * ```ts
 * await getUserFeeTier(client, { user: wallet.address });
 * ```
 */
export interface GetUserFeeTierParams extends QueryOptions {
  /** The account (bech32). */
  user: string;
}

/**
 * The fee tier an account is in, and its index.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the account (`GetUserFeeTierParams`), with the call options.
 * @returns the tier and its index.
 * @example
 * ```ts
 * const { index, tier } = await getUserFeeTier(client, { user: wallet.address });
 * ```
 */
export const getUserFeeTier = defineQuery("getUserFeeTier", () => feetiers.Query.method.userFeeTier, {
  request: (p: GetUserFeeTierParams) => ({ user: bech32Address(p.user) }),
  pick: (r): { index: number; tier: feetiers.PerpetualFeeTier | undefined } => ({
    index: r.index,
    tier: r.tier,
  }),
});

/**
 * Parameters of {@link getStatefulOrder}.
 * @example
 * ```ts
 * await getStatefulOrder(client, { order: { subaccount, clientId: 7, clobPairId: 0, kind: "conditional" } });
 * ```
 */
export interface GetStatefulOrderParams extends QueryOptions {
  /** The order: its subaccount, client id, clob pair and kind (long-term or conditional). */
  order: {
    subaccount: SubaccountRef;
    clientId: number;
    clobPairId: number;
    kind: "long-term" | "conditional";
  };
}

/**
 * A resting stateful (long-term or conditional) order: its placement, filled amount and whether a
 * conditional order triggered.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the order (`GetStatefulOrderParams`), with the call options.
 * @returns the order, or `undefined` when it is not in state (never placed, filled, cancelled or expired).
 * @example
 * ```ts
 * const goodTilBlockTime = Math.floor(Date.now() / 1000) + 3600;
 * const order = { subaccount, clientId: 118, market: btc, kind: "long-term", goodTilBlockTime } as const;
 * await client.placeOrder({ ...order, signer: wallet, side: "BUY", size: "0.001", price: "30000" });
 * const placed = await getStatefulOrder(client, { order: { subaccount, clientId: 118, clobPairId: btc.clobPairId, kind: "long-term" } });
 * placed?.orderPlacement?.order?.quantums; // 10000000n
 * await client.cancelOrder({ ...order, signer: wallet });
 * ```
 */
export const getStatefulOrder: (
  client: NodeConnection,
  params: GetStatefulOrderParams,
) => Promise<clob.QueryStatefulOrderResponse | undefined> = defineQuery(
  "getStatefulOrder",
  () => clob.Query.method.statefulOrder,
  {
    request: ({ order }: GetStatefulOrderParams) => {
      checkParams(order, "getStatefulOrder order");
      const { subaccount, clientId, clobPairId, kind } = order;
      if (kind !== "long-term" && kind !== "conditional") {
        const got = JSON.stringify(String(kind));
        throw new InvalidArgumentError(
          "order.kind",
          `a stateful order is long-term or conditional, got ${got}`,
        );
      }
      const orderId = {
        subaccountId: subaccountId(subaccount, "order.subaccount"),
        clientId: uint32(clientId, "order.clientId"),
        clobPairId: uint32(clobPairId, "order.clobPairId"),
        orderFlags: ORDER_FLAGS[kind],
      };
      return { orderId };
    },
    pick: (r) => r,
    orUndefined: true,
  },
);
