import { cosmosBank } from "@perpx/proto";
import { coinAmount } from "../errors/query.js";
import { bech32Address } from "../messages/validate.js";
import { definePagedQuery, defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/**
 * A bank balance with its amount as a bigint.
 * @example
 * ```ts
 * const { denom, amount }: Balance = await getBalance(client, { address: wallet.address, denom: "uusdc" });
 * ```
 */
export interface Balance {
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
 * @returns each denom held and its `amount`, a bigint in base units (`uusdc`: 10^-6 USDC).
 * @throws {QueryError} when an answer's amount is not decimal digits (hex, a sign, a fraction).
 * @example
 * ```ts
 * const balances = await getBalances(client, { address: wallet.address });
 * balances.map((balance) => balance.denom); // ["aperpx", "uusdc"]
 * ```
 */
export const getBalances = definePagedQuery("getBalances", () => cosmosBank.Query.method.allBalances, {
  request: (p: GetBalancesParams) => ({ address: bech32Address(p.address) }),
  pick: (r): Balance[] =>
    r.balances.map(({ denom, amount }, i) => ({
      denom,
      amount: coinAmount(amount, "/cosmos.bank.v1beta1.Query/AllBalances", `balances[${i}].amount`),
    })),
});

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
 * @returns `{ denom, amount }`, the amount a bigint in base units, `0n` when none.
 * @throws {QueryError} when the answer's amount is not decimal digits (hex, a sign, a fraction).
 * @example
 * ```ts
 * const { amount } = await getBalance(client, { address: wallet.address, denom: "aperpx" });
 * ```
 */
export const getBalance = defineQuery("getBalance", () => cosmosBank.Query.method.balance, {
  request: (p: GetBalanceParams) => ({ address: bech32Address(p.address), denom: p.denom }),
  pick: (r, path, p): Balance => ({
    denom: p.denom,
    amount: r.balance === undefined ? 0n : coinAmount(r.balance.amount, path, "balance.amount"),
  }),
});
