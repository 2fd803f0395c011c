/** The chain's market reads (pairs, perpetuals, prices, fee tiers, stateful orders) over {@link defineQuery}. */
import { InvalidArgumentError, type SubaccountRef } from "@perpx/core";
import { clob, feetiers, perpetuals, prices } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { present } from "../errors/query.js";
import { ORDER_FLAGS } from "../messages/orderTypes.js";
import { bech32Address, checkParams, subaccountId, uint32 } from "../messages/validate.js";
import { definePagedQuery, defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/** An id (clob pair, perpetual, oracle market, asset), with the call options. */
export type ByIdParams = QueryOptions & { id: number };

const byId = (p: ByIdParams) => ({ id: uint32(p.id, "id") });

// Typed by name: their answers hold enums a declaration file must be able to name.
const getClobPair: (client: NodeConnection, params: ByIdParams) => Promise<clob.ClobPair> = defineQuery(
  "getClobPair",
  () => clob.Query.method.clobPair,
  { request: byId, pick: (r, path) => present(r.clobPair, path, "clob_pair") },
);
const getClobPairs: (client: NodeConnection, params?: QueryOptions) => Promise<clob.ClobPair[]> =
  definePagedQuery("getClobPairs", () => clob.Query.method.clobPairAll, { pick: (r) => r.clobPair });
const getPerpetual: (client: NodeConnection, params: ByIdParams) => Promise<perpetuals.Perpetual> =
  defineQuery("getPerpetual", () => perpetuals.Query.method.perpetual, {
    request: byId,
    pick: (r, path) => present(r.perpetual, path, "perpetual"),
  });
const getPerpetuals: (client: NodeConnection, params?: QueryOptions) => Promise<perpetuals.Perpetual[]> =
  definePagedQuery("getPerpetuals", () => perpetuals.Query.method.allPerpetuals, {
    pick: (r) => r.perpetual,
  });

/**
 * The chain's market reads, each `query(client, params)` with the call options in its params, and a method
 * of every node client (`client.getClobPairs()`); `getMarket` joins them by ticker. By id (`{ id }`; a
 * `QueryError` with `notFound` for an unknown one): `getClobPair`, `getPerpetual`, `getMarketPrice` (an
 * integer `price` and its `exponent`: USD is `price × 10^exponent`). Every page: `getClobPairs`,
 * `getPerpetuals`, `getMarketPrices`. Fees: `getFeeTiers` (maker and taker ppm with their volume
 * requirements) and `getUserFeeTier({ user })` (an account's tier and its index; a malformed address is
 * refused with `InvalidAddressError` before the query leaves).
 * @example
 * ```ts
 * (await marketQueries.getPerpetual(client, { id: 0 })).params?.ticker; // "BTC-USD"
 * (await marketQueries.getClobPairs(client)).length > 0; // true
 * const { index, tier } = await marketQueries.getUserFeeTier(client, { user: wallet.address });
 * ```
 */
export const marketQueries = {
  getClobPair,
  getClobPairs,
  getPerpetual,
  getPerpetuals,
  getMarketPrice: defineQuery("getMarketPrice", () => prices.Query.method.marketPrice, {
    request: byId,
    pick: (r, path) => present(r.marketPrice, path, "market_price"),
  }),
  getMarketPrices: definePagedQuery("getMarketPrices", () => prices.Query.method.allMarketPrices, {
    pick: (r) => r.marketPrices,
  }),
  getFeeTiers: defineQuery("getFeeTiers", () => feetiers.Query.method.perpetualFeeParams, {
    pick: (r, path) => present(r.params, path, "params"),
  }),
  getUserFeeTier: defineQuery("getUserFeeTier", () => feetiers.Query.method.userFeeTier, {
    request: (p: QueryOptions & { user: string }) => ({ user: bech32Address(p.user) }),
    pick: (r): { index: number; tier: feetiers.PerpetualFeeTier | undefined } => ({
      index: r.index,
      tier: r.tier,
    }),
  }),
} as const;

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
 * A resting stateful (long-term or conditional) order: placement, filled amount, whether triggered.
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
