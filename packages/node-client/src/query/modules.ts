/**
 * Chain-module reads that are one method each, as rows over {@link defineQuery}: auth and bank
 * catalogs, the pending upgrade, epochs, premium samples, revenue shares, rewards params, IBC
 * channels and denom hashes. Each row names its method, checks and renames its params, and picks
 * the answer's field.
 */
import {
  cosmosAuth,
  cosmosBank,
  cosmosUpgrade,
  epochs,
  ibcChannel,
  ibcTransfer,
  perpetuals,
  revshare,
  rewards,
} from "@perpx/proto";
import { bech32Address, nonEmpty, uint32 } from "../messages/validate.js";
import { definePagedQuery, defineQuery, present } from "./define.js";
import { channelOf } from "./node.js";
import type { QueryOptions } from "./unary.js";

/**
 * A denom to read.
 *
 * @example
 * ```ts
 * const params: DenomParams = { denom: "uusdc" };
 * ```
 */
export interface DenomParams extends QueryOptions {
  /** The bank denom, e.g. `uusdc`. */
  denom: string;
}

/**
 * An account to read.
 *
 * @example
 * ```ts
 * const params: AddressParams = { address: wallet.address };
 * ```
 */
export interface AddressParams extends QueryOptions {
  /** The account, `perpx1...`. */
  address: string;
}

/**
 * A name to read (a module account, an epoch).
 *
 * @example
 * ```ts
 * const params: NameParams = { name: "gov" };
 * ```
 */
export interface NameParams extends QueryOptions {
  /** The name. */
  name: string;
}

const byDenom = ({ denom }: DenomParams) => ({ denom: nonEmpty(denom, "denom") });
const byAddress = ({ address }: AddressParams) => ({ address: bech32Address(address) });
const byName = ({ name }: NameParams) => ({ name: nonEmpty(name, "name") });

/**
 * Every account of the chain (all pages), each packed as an `Any` (`BaseAccount`, `ModuleAccount`).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the accounts, packed.
 * @example
 * ```ts
 * (await getAccounts(client)).length > 0; // true
 * ```
 */
export const getAccounts = definePagedQuery("getAccounts", () => cosmosAuth.Query.method.accounts, {
  pick: (r) => r.accounts,
});

/**
 * The auth module's params (memo and signature limits).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the params.
 * @example
 * ```ts
 * (await getAuthParams(client)).maxMemoCharacters > 0n; // true
 * ```
 */
export const getAuthParams = defineQuery("getAuthParams", () => cosmosAuth.Query.method.params, {
  pick: (r, path) => present(r.params, path, "params"),
});

/**
 * Every module account, packed as an `Any`.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the module accounts, packed.
 * @example
 * ```ts
 * (await getModuleAccounts(client)).length > 0; // true
 * ```
 */
export const getModuleAccounts = defineQuery(
  "getModuleAccounts",
  () => cosmosAuth.Query.method.moduleAccounts,
  {
    pick: (r) => r.accounts,
  },
);

/**
 * One module account by name, packed as an `Any`.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the module's name (`NameParams`), with the call options.
 * @returns the module account, packed.
 * @throws {InvalidArgumentError} for an empty name, before the query leaves.
 * @example
 * ```ts
 * (await getModuleAccountByName(client, { name: "gov" })).typeUrl; // "/cosmos.auth.v1beta1.ModuleAccount"
 * ```
 */
export const getModuleAccountByName = defineQuery(
  "getModuleAccountByName",
  () => cosmosAuth.Query.method.moduleAccountByName,
  { request: byName, pick: (r, path) => present(r.account, path, "account") },
);

/**
 * The chain's bech32 account prefix.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the prefix.
 * @example
 * ```ts
 * await getBech32Prefix(client); // "perpx"
 * ```
 */
export const getBech32Prefix = defineQuery("getBech32Prefix", () => cosmosAuth.Query.method.bech32Prefix, {
  pick: (r) => r.bech32Prefix,
});

/**
 * One account's base account (number, sequence, public key), whatever its type.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the account (`AddressParams`), with the call options.
 * @returns the base account.
 * @throws {InvalidAddressError} for a malformed address, before the query leaves.
 * @example
 * ```ts
 * (await getAccountInfo(client, { address: wallet.address })).address === wallet.address; // true
 * ```
 */
export const getAccountInfo = defineQuery("getAccountInfo", () => cosmosAuth.Query.method.accountInfo, {
  request: byAddress,
  pick: (r, path) => present(r.info, path, "info"),
});

/**
 * What an account can spend now, per denom (all pages).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the account (`AddressParams`), with the call options.
 * @returns the spendable coins.
 * @throws {InvalidAddressError} for a malformed address, before the query leaves.
 * @example
 * ```ts
 * (await getSpendableBalances(client, { address: wallet.address })).some((c) => c.denom === "uusdc"); // true
 * ```
 */
export const getSpendableBalances = definePagedQuery(
  "getSpendableBalances",
  () => cosmosBank.Query.method.spendableBalances,
  { request: byAddress, pick: (r) => r.balances },
);

/**
 * What an account can spend now of one denom.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the account and the denom, with the call options.
 * @returns the spendable coin.
 * @throws {InvalidAddressError} for a malformed address, before the query leaves.
 * @example
 * ```ts
 * (await getSpendableBalance(client, { address: wallet.address, denom: "uusdc" })).denom; // "uusdc"
 * ```
 */
export const getSpendableBalance = defineQuery(
  "getSpendableBalance",
  () => cosmosBank.Query.method.spendableBalanceByDenom,
  {
    request: (p: AddressParams & DenomParams) => ({ ...byAddress(p), ...byDenom(p) }),
    pick: (r, path) => present(r.balance, path, "balance"),
  },
);

/**
 * The total supply of every denom (all pages).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the supply, per denom.
 * @example
 * ```ts
 * (await getTotalSupply(client)).some((c) => c.denom === "uusdc"); // true
 * ```
 */
export const getTotalSupply = definePagedQuery("getTotalSupply", () => cosmosBank.Query.method.totalSupply, {
  pick: (r) => r.supply,
});

/**
 * The total supply of one denom.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the denom (`DenomParams`), with the call options.
 * @returns the supply.
 * @throws {InvalidArgumentError} for an empty denom, before the query leaves.
 * @example
 * ```ts
 * (await getSupplyOf(client, { denom: "uusdc" })).denom; // "uusdc"
 * ```
 */
export const getSupplyOf = defineQuery("getSupplyOf", () => cosmosBank.Query.method.supplyOf, {
  request: byDenom,
  pick: (r, path) => present(r.amount, path, "amount"),
});

/**
 * The bank module's params (send-enabled defaults).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the params.
 * @example
 * ```ts
 * (await getBankParams(client)).defaultSendEnabled; // true
 * ```
 */
export const getBankParams = defineQuery("getBankParams", () => cosmosBank.Query.method.params, {
  pick: (r, path) => present(r.params, path, "params"),
});

/**
 * One denom's metadata (display units, symbol), or `undefined` when the chain has none.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the denom (`DenomParams`), with the call options.
 * @returns the metadata, or `undefined`.
 * @throws {InvalidArgumentError} for an empty denom, before the query leaves.
 * @example
 * ```ts
 * const metadata = await getDenomMetadata(client, { denom: "aperpx" });
 * ```
 */
export const getDenomMetadata = defineQuery("getDenomMetadata", () => cosmosBank.Query.method.denomMetadata, {
  request: byDenom,
  pick: (r) => r.metadata,
  orUndefined: true,
});

/**
 * Every denom's metadata (all pages).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the metadata of each denom that has some.
 * @example
 * ```ts
 * const all = await getDenomsMetadata(client);
 * ```
 */
export const getDenomsMetadata = definePagedQuery(
  "getDenomsMetadata",
  () => cosmosBank.Query.method.denomsMetadata,
  {
    pick: (r) => r.metadatas,
  },
);

/**
 * The upgrade plan governance scheduled, or `undefined` when none is pending.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the plan, or `undefined`.
 * @example
 * ```ts
 * const plan = await getCurrentPlan(client);
 * ```
 */
export const getCurrentPlan = defineQuery("getCurrentPlan", () => cosmosUpgrade.Query.method.currentPlan, {
  pick: (r) => r.plan,
});

/**
 * One epoch's timer (its duration, current epoch and start), by name.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the epoch's name (`NameParams`), with the call options.
 * @returns the epoch, or `undefined` for an unknown name.
 * @throws {InvalidArgumentError} for an empty name, before the query leaves.
 * @example
 * ```ts
 * (await getEpochInfo(client, { name: "funding-tick" }))?.name; // "funding-tick"
 * ```
 */
export const getEpochInfo = defineQuery("getEpochInfo", () => epochs.Query.method.epochInfo, {
  request: byName,
  pick: (r, path) => present(r.epochInfo, path, "epoch_info"),
  orUndefined: true,
});

/**
 * Every epoch timer (all pages).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the epochs.
 * @example
 * ```ts
 * (await getEpochInfos(client)).length > 0; // true
 * ```
 */
export const getEpochInfos = definePagedQuery("getEpochInfos", () => epochs.Query.method.epochInfoAll, {
  pick: (r) => r.epochInfo,
});

/**
 * The premium votes of the current funding-tick epoch, per market.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the votes, per market.
 * @example
 * ```ts
 * const votes = await getPremiumVotes(client);
 * ```
 */
export const getPremiumVotes = defineQuery("getPremiumVotes", () => perpetuals.Query.method.premiumVotes, {
  pick: (r) => r.premiumVotes?.allMarketPremiums ?? [],
});

/**
 * The premium samples of the current funding epoch, per market.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the samples, per market.
 * @example
 * ```ts
 * const samples = await getPremiumSamples(client);
 * ```
 */
export const getPremiumSamples = defineQuery(
  "getPremiumSamples",
  () => perpetuals.Query.method.premiumSamples,
  {
    pick: (r) => r.premiumSamples?.allMarketPremiums ?? [],
  },
);

/**
 * The market mapper revenue-share params (address, share, validity).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the params.
 * @example
 * ```ts
 * const params = await getMarketMapperRevShareParams(client);
 * ```
 */
export const getMarketMapperRevShareParams = defineQuery(
  "getMarketMapperRevShareParams",
  () => revshare.Query.method.marketMapperRevenueShareParams,
  { pick: (r, path) => present(r.params, path, "params") },
);

/**
 * One market's mapper revenue-share details (when the share expires).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the market's id, with the call options.
 * @returns the details, or `undefined` for a market without any.
 * @example
 * ```ts
 * const details = await getMarketMapperRevShareDetails(client, { marketId: 0 });
 * ```
 */
export const getMarketMapperRevShareDetails = defineQuery(
  "getMarketMapperRevShareDetails",
  () => revshare.Query.method.marketMapperRevShareDetails,
  {
    request: ({ marketId }: QueryOptions & { marketId: number }) => ({
      marketId: uint32(marketId, "marketId"),
    }),
    pick: (r) => r.details,
    orUndefined: true,
  },
);

/**
 * The unconditional revenue shares (recipients and their parts of net fees).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the configuration.
 * @example
 * ```ts
 * const config = await getUnconditionalRevShareConfig(client);
 * ```
 */
export const getUnconditionalRevShareConfig = defineQuery(
  "getUnconditionalRevShareConfig",
  () => revshare.Query.method.unconditionalRevShareConfig,
  { pick: (r, path) => present(r.config, path, "config") },
);

/**
 * An order router's revenue share, or `undefined` for an address that is none.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the router's address (`AddressParams`), with the call options.
 * @returns the share, or `undefined`.
 * @throws {InvalidAddressError} for a malformed address, before the query leaves.
 * @example
 * ```ts
 * const share = await getOrderRouterRevShare(client, { address: wallet.address });
 * ```
 */
export const getOrderRouterRevShare = defineQuery(
  "getOrderRouterRevShare",
  () => revshare.Query.method.orderRouterRevShare,
  {
    request: byAddress,
    pick: (r) => r.orderRouterRevShare,
    orUndefined: true,
  },
);

/**
 * The rewards module's params (treasury, denom, fee multiplier).
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - call options: `transport`, `height`, `signal` and `timeoutMs`.
 * @returns the params.
 * @example
 * ```ts
 * const params = await getRewardsParams(client);
 * ```
 */
export const getRewardsParams = defineQuery("getRewardsParams", () => rewards.Query.method.params, {
  pick: (r, path) => present(r.params, path, "params"),
});

/**
 * One IBC channel end (state, ordering, counterparty, connection hops), or `undefined` when unknown.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the port (default `transfer`) and the channel, with the call options.
 * @returns the channel (its ids as asked), or `undefined`.
 * @throws {InvalidArgumentError} for an empty port or channel, before the query leaves.
 * @example
 * ```ts
 * const channel = await getIbcChannel(client, { channelId: "channel-0" });
 * ```
 */
export const getIbcChannel = defineQuery("getIbcChannel", () => ibcChannel.Query.method.channel, {
  request: ({ portId, channelId }: QueryOptions & { portId?: string; channelId: string }) => ({
    portId: nonEmpty(portId ?? "transfer", "portId"),
    channelId: nonEmpty(channelId, "channelId"),
  }),
  pick: (r, path, { portId, channelId }) => {
    const { $typeName: _, ...channel } = present(r.channel, path, "channel");
    return channelOf({ ...channel, portId: portId ?? "transfer", channelId });
  },
  orUndefined: true,
});

/**
 * The hash of an ICS-20 denom trace: what `ibc/<hash>` a voucher of `<path>/<base denom>` is.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - the trace, `transfer/channel-0/uatom`, with the call options.
 * @returns the hash (hex, upper case), or `undefined` for a trace the chain never saw.
 * @throws {InvalidArgumentError} for an empty trace, before the query leaves.
 * @example
 * ```ts
 * const hash = await getDenomHash(client, { trace: "transfer/channel-0/uatom" });
 * ```
 */
export const getDenomHash = defineQuery("getDenomHash", () => ibcTransfer.Query.method.denomHash, {
  request: ({ trace }: QueryOptions & { trace: string }) => ({ trace: nonEmpty(trace, "trace") }),
  pick: (r) => r.hash,
  orUndefined: true,
});
