import { accountplus } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError } from "../errors.js";
import { bech32Address, checkParams, uint64 } from "../messages/validate.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

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
export async function getAuthenticators(
  client: NodeConnection,
  params: AccountParams,
): Promise<accountplus.AccountAuthenticator[]> {
  checkParams(params, "getAuthenticators");
  const response = await unaryQuery(client, {
    ...params,
    method: accountplus.Query.method.getAuthenticators,
    request: { account: bech32Address(params.address) },
  });
  return response.accountAuthenticators;
}

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
export async function getAuthenticator(
  client: NodeConnection,
  params: GetAuthenticatorParams,
): Promise<accountplus.AccountAuthenticator | undefined> {
  checkParams(params, "getAuthenticator");
  try {
    const response = await unaryQuery(client, {
      ...params,
      method: accountplus.Query.method.getAuthenticator,
      request: { account: bech32Address(params.address), authenticatorId: uint64(params.id, "id") },
    });
    return response.accountAuthenticator;
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
}

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
export async function getAccountState(
  client: NodeConnection,
  params: AccountParams,
): Promise<accountplus.AccountState | undefined> {
  checkParams(params, "getAccountState");
  try {
    const response = await unaryQuery(client, {
      ...params,
      method: accountplus.Query.method.accountState,
      request: { address: bech32Address(params.address) },
    });
    return response.accountState;
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
}
