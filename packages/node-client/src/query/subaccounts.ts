import type { SubaccountRef } from "@perpx/core";
import { subaccounts } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError } from "../errors.js";
import { checkParams, subaccountId } from "../messages/validate.js";
import { allPages } from "./pages.js";
import { type QueryOptions, unaryQuery } from "./unary.js";

/**
 * Parameters of {@link getSubaccount}.
 * @example
 * ```ts
 * await getSubaccount(client, { owner: wallet.address, number: 0 });
 * ```
 */
export interface GetSubaccountParams extends QueryOptions, SubaccountRef {}

/**
 * One subaccount: its asset positions (USDC in quote quantums) and perpetual positions. Their
 * amounts are SerializableInt bytes; {@link subaccountBalances} reads them as bigints.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetSubaccountParams`, with the call options.
 * @returns the subaccount, or `undefined` when it has never held anything.
 * @throws {InvalidAddressError | InvalidSubaccountError} for a bad reference, before any request.
 * @example
 * ```ts
 * const sub = await getSubaccount(client, { owner: wallet.address, number: 0 });
 * ```
 */
export async function getSubaccount(
  client: NodeConnection,
  params: GetSubaccountParams,
): Promise<subaccounts.Subaccount | undefined> {
  checkParams(params, "getSubaccount");
  const id = subaccountId({ owner: params.owner, number: params.number }, "subaccount");
  try {
    const response = await unaryQuery(client, {
      ...params,
      method: subaccounts.Query.method.subaccount,
      request: { owner: id.owner, number: id.number },
    });
    return response.subaccount;
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
}

/**
 * Every subaccount on chain (all pages).
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns every subaccount on chain (all pages).
 * @example
 * ```ts
 * const all = await getSubaccounts(client);
 * ```
 */
export async function getSubaccounts(
  client: NodeConnection,
  params: QueryOptions = {},
): Promise<subaccounts.Subaccount[]> {
  checkParams(params, "getSubaccounts", true);
  return allPages(client, {
    ...params,
    method: subaccounts.Query.method.subaccountAll,
    request: {},
    pick: (r) => r.subaccount,
  });
}
