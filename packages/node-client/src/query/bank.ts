import { cosmosBank } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { bech32Address, checkParams } from "../messages/validate.js";
import { allPages } from "./pages.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/**
 * A bank balance with its amount as a bigint.
 * @example
 * ```ts
 * const { denom, amount }: Balance = await getBalance(client, { address: wallet.address, denom: "uusdc" });
 * ```
 */
export interface Balance {
  /** The bank denom. */
  denom: string;
  /** Base units. */
  amount: bigint;
}

/**
 * Parameters of {@link getBalances}.
 * @example
 * ```ts
 * await getBalances(client, { address: wallet.address });
 * ```
 */
export interface GetBalancesParams extends QueryOptions {
  /** The account (bech32). */
  address: string;
}

/**
 * Every bank balance of an account (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetBalancesParams`, with the call options.
 * @returns resolves with each denom the account holds and its `amount`, a bigint in the denom's
 *   base units (`uusdc`: 10^-6 USDC; `aperpx`: 10^-18 PERPX), over all pages; rejects with
 *   `QueryError` when the node refuses the query.
 * @example
 * ```ts
 * const balances = await getBalances(client, { address: wallet.address });
 * balances.map((balance) => balance.denom); // ["aperpx", "uusdc"]
 * ```
 */
export async function getBalances(client: NodeConnection, params: GetBalancesParams): Promise<Balance[]> {
  checkParams(params, "getBalances");
  const coins = await allPages(client, {
    ...params,
    method: cosmosBank.Query.method.allBalances,
    request: { address: bech32Address(params.address) },
    pick: (r) => r.balances,
  });
  return coins.map((coin) => ({ denom: coin.denom, amount: BigInt(coin.amount) }));
}

/**
 * Parameters of {@link getBalance}.
 * @example
 * ```ts
 * await getBalance(client, { address: wallet.address, denom: "aperpx" });
 * ```
 */
export interface GetBalanceParams extends QueryOptions {
  /** The account (bech32). */
  address: string;
  /** The denom, e.g. `uusdc`. */
  denom: string;
}

/**
 * One bank balance of an account (0 when it holds none).
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetBalanceParams`, with the call options.
 * @returns resolves with `{ denom, amount }`, the amount a bigint in the denom's base units
 *   (`uusdc`: 10^-6 USDC), `0n` when the account holds none; rejects with `QueryError` when the
 *   node refuses the query.
 * @example
 * ```ts
 * const { amount } = await getBalance(client, { address: wallet.address, denom: "aperpx" });
 * ```
 */
export async function getBalance(client: NodeConnection, params: GetBalanceParams): Promise<Balance> {
  checkParams(params, "getBalance");
  const response = await unaryQuery(client, {
    ...params,
    method: cosmosBank.Query.method.balance,
    request: { address: bech32Address(params.address), denom: params.denom },
  });
  return { denom: params.denom, amount: BigInt(response.balance?.amount || "0") };
}
