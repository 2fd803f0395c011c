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
 * Parameters of {@link getAuthenticator}.
 * @example
 * ```ts
 * await getAuthenticator(client, { address: wallet.address, id: 3n });
 * ```
 */
export interface GetAuthenticatorParams extends AccountParams {
  /** The authenticator id. */
  id: bigint;
}

/**
 * One authenticator of an account.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetAuthenticatorParams`, with the call options.
 * @returns it, or `undefined` when the account has no authenticator with that id.
 * @example
 * ```ts
 * const authenticator = await getAuthenticator(client, { address: wallet.address, id: 3n });
 * ```
 */
export const getAuthenticator = defineQuery(
  "getAuthenticator",
  () => accountplus.Query.method.getAuthenticator,
  {
    request: (p: GetAuthenticatorParams) => ({
      account: bech32Address(p.address),
      authenticatorId: uint64(p.id, "id"),
    }),
    pick: (r) => r.accountAuthenticator,
    orUndefined: true,
  },
);

/**
 * The accountplus state of an account: its timestamp nonces.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `AccountParams`, with the call options.
 * @returns the state, or `undefined` before the account first used a timestamp nonce.
 * @example
 * ```ts
 * const state = await getAccountState(client, { address: wallet.address });
 * state?.timestampNonceDetails?.maxEjectedNonce;
 * ```
 */
export const getAccountState = defineQuery("getAccountState", () => accountplus.Query.method.accountState, {
  request: (p: AccountParams) => ({ address: bech32Address(p.address) }),
  pick: (r) => r.accountState,
  orUndefined: true,
});
