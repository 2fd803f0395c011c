/** The accountplus module's reads (authenticators, timestamp nonces), as rows over {@link defineQuery}. */
import { accountplus } from "@perpx/proto";
import { bech32Address, uint64 } from "../messages/validate.js";
import { defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/**
 * Parameters of the queries about one account.
 * @example
 * ```ts
 * await getAuthenticators(client, { address: wallet.address });
 * ```
 */
export interface AccountParams extends QueryOptions {
  /** The account (bech32). */
  address: string;
}

/**
 * The authenticators (permissioned keys) of an account.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `AccountParams`, with the call options.
 * @returns the authenticators (permissioned keys) of an account.
 * @example
 * ```ts
 * const { authenticatorId } = await client.registerTradingKey({ owner: wallet, publicKey: LocalWallet.generate().publicKey });
 * const authenticators = await getAuthenticators(client, { address: wallet.address });
 * authenticators.some((authenticator) => authenticator.id === authenticatorId); // true
 * ```
 */
export const getAuthenticators = defineQuery(
  "getAuthenticators",
  () => accountplus.Query.method.getAuthenticators,
  {
    request: (p: AccountParams) => ({ account: bech32Address(p.address) }),
    pick: (r) => r.accountAuthenticators,
  },
);

/**
 * The account's other accountplus queries, each `query(client, params)` with the call options in its
 * params (the address is refused with `InvalidAddressError` when malformed):
 * `getAuthenticator({ address, id })` (`undefined` when it has no authenticator with that id) and
 * `getAccountState({ address })` (its timestamp nonces; `undefined` before it first used one).
 * @example
 * ```ts
 * await accountplusQueries.getAuthenticator(client, { address: wallet.address, id: 999_999n }); // undefined
 * const state = await accountplusQueries.getAccountState(client, { address: wallet.address });
 * ```
 */
export const accountplusQueries = {
  getAuthenticator: defineQuery("getAuthenticator", () => accountplus.Query.method.getAuthenticator, {
    request: (p: AccountParams & { id: bigint }) => ({
      account: bech32Address(p.address),
      authenticatorId: uint64(p.id, "id"),
    }),
    pick: (r) => r.accountAuthenticator,
    orUndefined: true,
  }),
  getAccountState: defineQuery("getAccountState", () => accountplus.Query.method.accountState, {
    request: (p: AccountParams) => ({ address: bech32Address(p.address) }),
    pick: (r) => r.accountState,
    orUndefined: true,
  }),
} as const;
