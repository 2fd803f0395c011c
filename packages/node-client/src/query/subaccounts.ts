import type { SubaccountRef } from "@perpx/core";
import { clob, subaccounts } from "@perpx/proto";
import { subaccountId } from "../messages/validate.js";
import { definePagedQuery, defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/**
 * Parameters of {@link getSubaccount}.
 * @example
 * ```ts
 * await getSubaccount(client, { owner: wallet.address, number: 0 });
 * ```
 */
export interface GetSubaccountParams extends QueryOptions, SubaccountRef {}

function ownerAndNumber(p: GetSubaccountParams): { owner: string; number: number } {
  const { owner, number } = subaccountId({ owner: p.owner, number: p.number }, "subaccount");
  return { owner, number };
}

/**
 * One subaccount's asset and perpetual positions ({@link subaccountBalances} reads their amounts).
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetSubaccountParams`, with the call options.
 * @returns the subaccount, or `undefined` when it has never held anything.
 * @throws {InvalidAddressError | InvalidSubaccountError} for a bad reference, before any request.
 * @example
 * ```ts
 * const sub = await getSubaccount(client, { owner: wallet.address, number: 0 });
 * ```
 */
export const getSubaccount = defineQuery("getSubaccount", () => subaccounts.Query.method.subaccount, {
  request: ownerAndNumber,
  pick: (r) => r.subaccount,
  orUndefined: true,
});

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
export const getSubaccounts = definePagedQuery(
  "getSubaccounts",
  () => subaccounts.Query.method.subaccountAll,
  { pick: (r) => r.subaccount },
);

/**
 * A subaccount's leverage settings: the initial margin fraction chosen per clob pair, if any.
 * @param client - the node client (from `createNodeClient`).
 * @param params - the subaccount (`GetSubaccountParams`), with the call options.
 * @returns the custom initial margin fraction of each clob pair that has one.
 * @example
 * ```ts
 * await client.updateLeverage({ signer: wallet, subaccount, leverage: [{ clobPairId: 0, imfPpm: 200_000 }] });
 * const settings = await getLeverage(client, subaccount);
 * settings.find((s) => s.clobPairId === 0)?.imfPpm; // 200000
 * ```
 */
export const getLeverage = defineQuery("getLeverage", () => clob.Query.method.leverage, {
  request: ownerAndNumber,
  pick: (r): Array<{ clobPairId: number; imfPpm: number }> =>
    r.clobPairLeverage.map((entry) => ({ clobPairId: entry.clobPairId, imfPpm: entry.customImfPpm })),
});
