import type { Any } from "@bufbuild/protobuf/wkt";
import { cosmosAuth, unpackAny } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { QueryError } from "../errors.js";
import { bech32Address, checkParams } from "../messages/validate.js";
import type { AccountSequence } from "../tx/sequence.js";
import { defineQuery } from "./define.js";
import type { QueryOptions } from "./unary.js";

/**
 * An account as the auth module stores it.
 * @example
 * ```ts
 * const { accountNumber, sequence } = (await getAccount(client, { address: wallet.address }))!;
 * ```
 */
export interface AccountInfo {
  address: string;
  accountNumber: bigint;
  /** The sequence of the next transaction (committed state). */
  sequence: bigint;
  /** The public key, once the account has signed a transaction. */
  publicKey: Any | undefined;
  /** The account's type URL (`/cosmos.auth.v1beta1.BaseAccount`, `.../ModuleAccount`). */
  typeUrl: string;
}

/**
 * Parameters of {@link getAccount}.
 * @example
 * ```ts
 * const params: GetAccountParams = { address: wallet.address, timeoutMs: 2_000 };
 * ```
 */
export interface GetAccountParams extends QueryOptions {
  /** The account (bech32). */
  address: string;
}

/**
 * Reads an account from the auth module.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetAccountParams`, with the call options.
 * @returns the account, or `undefined` when the chain does not know it (never funded).
 * @throws {QueryError} for any other failure.
 * @example
 * ```ts
 * const account = await getAccount(client, { address: wallet.address });
 * account?.accountNumber; // 4n
 * await getAccount(client, { address: LocalWallet.generate().address }); // undefined: never funded
 * ```
 */
export const getAccount = defineQuery("getAccount", () => cosmosAuth.Query.method.account, {
  request: (p: GetAccountParams) => ({ address: bech32Address(p.address) }),
  pick: ({ account: packed }, path): AccountInfo | undefined => {
    if (!packed) return undefined;
    const base =
      packed.typeUrl === "/cosmos.auth.v1beta1.ModuleAccount"
        ? unpackAny(packed, cosmosAuth.ModuleAccountSchema).baseAccount
        : unpackAny(packed, cosmosAuth.BaseAccountSchema);
    if (!base)
      throw new QueryError({ path, transport: "grpc", log: `account without a base: ${packed.typeUrl}` });
    const { address, accountNumber, sequence, pubKey } = base;
    return { address, accountNumber, sequence, publicKey: pubKey, typeUrl: packed.typeUrl };
  },
  orUndefined: true,
});

/**
 * The account number and committed sequence of an account, as the sequence manager needs them.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `GetAccountParams`, with the call options.
 * @returns the account number and committed sequence of an account, as the sequence manager needs them.
 * @throws {QueryError} with `notFound` when the account does not exist yet (fund it first).
 * @example
 * ```ts
 * const { accountNumber, sequence } = await getAccountSequence(client, { address: wallet.address });
 * ```
 */
export async function getAccountSequence(
  client: NodeConnection,
  params: GetAccountParams,
): Promise<AccountSequence> {
  checkParams(params, "getAccountSequence");
  const account = await getAccount(client, params);
  if (!account) {
    throw new QueryError({
      path: "/cosmos.auth.v1beta1.Query/Account",
      transport: client.grpc ? "grpc" : "rpc",
      abciCode: 22,
      log: `account ${params.address} not found: fund it before it can sign`,
    });
  }
  return { accountNumber: account.accountNumber, sequence: account.sequence };
}
