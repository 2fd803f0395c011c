/**
 * A fork's start: the state of another network, read at one height (by `@perpx/fork`, through that
 * network's public APIs), that a devnet starts from instead of its own genesis. It sits beside the
 * genesis builder's inputs: the chain configuration is the profile's with the live network's
 * identity laid over it ({@link forkChainConfig}), its markets are the live ones, and a module that
 * runs after every other module's genesis ({@link createForkModule}) writes what genesis cannot
 * express: accounts with their public keys, numbers and sequences, exact balances, subaccounts with
 * their positions and funding indices, authenticators, funding indices, liquidity and fee tiers.
 */

import { USDC_DENOM } from "@perpx/core";
import type { accountplus, feetiers, perpetuals } from "@perpx/proto";
import { DevnetError } from "../../devnet-error.js";
import type { DevnetProfile } from "../contract.js";
import type { Context, Module } from "../kernel/module.js";
import { accAddressBytes } from "../lib/addresses.js";
import { decodeU64, encodeU64 } from "../lib/codec.js";
import type { Keepers } from "../modules/index.js";
import { type ForkParams, restoreForkParams } from "./fork-params.js";
import type { ChainConfig } from "./genesis.js";
import type { MarketSpec } from "./genesis-markets.js";

/**
 * The moniker of a fork's node, so no one takes it for the network it copies.
 *
 * @example
 * ```ts
 * import { FORK_MONIKER } from "@perpx/devnet";
 *
 * FORK_MONIKER; // "perpx-FORK"
 * ```
 */
export const FORK_MONIKER = "perpx-FORK";

/**
 * One market of a fork: a devnet market (oracle, perpetual and clob pair of one id) with the live
 * network's id and funding index.
 *
 * @example
 * ```ts
 * const btc: ForkMarket = {
 *   id: 0, pair: "BTC-USD", exponent: -5, price: 6_500_000_000n, minPriceChangePpm: 1_000,
 *   atomicResolution: -10, liquidityTier: 0, marketType: 1, defaultFundingPpm: 100,
 *   stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000, quantumConversionExponent: -9,
 *   fundingIndex: 0n,
 * };
 * btc.pair; // "BTC-USD"
 * ```
 */
export interface ForkMarket extends MarketSpec {
  /** Market id = perpetual id = clob pair id (ascending in `ForkState.markets`; gaps allowed). */
  readonly id: number;
  /** The perpetual's funding index on the live network. */
  readonly fundingIndex: bigint;
}

/**
 * One position of a forked subaccount, as the live chain holds it.
 *
 * @example
 * ```ts
 * const long: ForkPosition = { perpetualId: 0, quantums: 10_000_000n, fundingIndex: 0n, quoteBalance: 0n };
 * ```
 */
export interface ForkPosition {
  readonly perpetualId: number;
  /** Base quantums: > 0 long, < 0 short. */
  readonly quantums: bigint;
  /** The perpetual's funding index when the position last settled. */
  readonly fundingIndex: bigint;
  /** Quote quantums attributed to the position. @default 0n */
  readonly quoteBalance?: bigint;
}

/**
 * One forked subaccount.
 *
 * @example
 * ```ts
 * const sub: ForkSubaccount = { number: 0, usdc: 1_000_000_000n, positions: [] };
 * ```
 */
export interface ForkSubaccount {
  readonly number: number;
  /** USDC in quote quantums (signed). */
  readonly usdc: bigint;
  readonly positions: readonly ForkPosition[];
}

/**
 * One forked account: what the owner's key needs to sign on the fork as on the live network.
 *
 * @example
 * ```ts
 * const account: ForkAccount = {
 *   address: GENESIS_ACCOUNTS[0]!.address,
 *   accountNumber: 0n,
 *   sequence: 3n,
 *   balances: [{ denom: "uusdc", amount: 5_000_000n }],
 *   subaccounts: [],
 *   authenticators: [],
 * };
 * ```
 */
export interface ForkAccount {
  /** bech32 `perpx1...`. */
  readonly address: string;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  /** The public key the live chain holds (absent before the account's first tx). */
  readonly pubKey?: { readonly algo: "secp256k1" | "eth_secp256k1"; readonly key: Uint8Array };
  readonly balances: ReadonlyArray<{ readonly denom: string; readonly amount: bigint }>;
  readonly subaccounts: readonly ForkSubaccount[];
  /** The account's authenticators, with their live ids. */
  readonly authenticators: ReadonlyArray<{
    readonly id: bigint;
    readonly type: string;
    readonly config: Uint8Array;
  }>;
}

/**
 * The state a fork starts from (`startDevnet({ fork })`).
 *
 * @example
 * ```ts
 * const fork: ForkState = {
 *   source: "a devnet",
 *   height: 12n,
 *   profile: "local",
 *   chainId: "perpx-local-1",
 *   evmChainId: 31337,
 *   upgrades: [],
 *   markets: [{
 *     id: 0, pair: "BTC-USD", exponent: -5, price: 6_500_000_000n, minPriceChangePpm: 1_000,
 *     atomicResolution: -10, liquidityTier: 0, marketType: 1, defaultFundingPpm: 100,
 *     stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000, quantumConversionExponent: -9,
 *     fundingIndex: 0n,
 *   }],
 *   accounts: [],
 * };
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, fork });
 * devnet.app.info.moniker; // "perpx-FORK"
 * await devnet.stop();
 * ```
 */
export interface ForkState {
  /** What was forked (a network name or URL), for banners and status. */
  readonly source: string;
  /** The live height the state was read at. */
  readonly height: bigint;
  /** The profile whose constants the rest of the chain takes (gas prices, bridge, limits). */
  readonly profile: DevnetProfile;
  readonly chainId: string;
  readonly evmChainId: number;
  /** Identity fields the live network did not answer, taken from the profile's preset instead. @default [] */
  readonly fromPreset?: ReadonlyArray<"evmChainId" | "upgrades">;
  /** Applied upgrades of the live network, oldest first (the last one is the running version). */
  readonly upgrades: ReadonlyArray<{ readonly version: string; readonly height: bigint }>;
  /** The node's moniker. @default {@link FORK_MONIKER} */
  readonly moniker?: string;
  readonly markets: readonly ForkMarket[];
  /** The live liquidity tiers (replacing the devnet's). @default the devnet's */
  readonly liquidityTiers?: readonly perpetuals.LiquidityTier[];
  /** The live fee tiers. @default the devnet's */
  readonly feeParams?: feetiers.PerpetualFeeParams;
  /** The live modules' params (replacing the profile's). @default the profile's */
  readonly params?: ForkParams;
  readonly accounts: readonly ForkAccount[];
  /**
   * Also create the devnet's five funded test accounts (their mnemonics are public, so a fork of a
   * real network holds them only when asked). @default false
   */
  readonly testAccounts?: boolean;
}

/**
 * The chain configuration of a fork: the profile's, with the live chain id, EVM chain id, upgrade
 * history and markets, and without the devnet's test accounts unless `fork.testAccounts`.
 *
 * @throws DevnetError `invalid-argument` when a market id is not a non-negative integer above the
 *   previous one (ids may have gaps, as a live network's have after a delisting).
 */
export function forkChainConfig(base: ChainConfig, fork: ForkState): ChainConfig {
  fork.markets.forEach((market, index) => {
    const previous = index === 0 ? -1 : (fork.markets[index - 1]?.id ?? -1);
    if (!Number.isSafeInteger(market.id) || market.id <= previous) {
      throw new DevnetError(
        "invalid-argument",
        `fork.markets[${index}].id must be an integer above ${previous} (ids ascend, gaps allowed), got ${market.id}`,
      );
    }
  });
  const last = fork.upgrades.at(-1);
  return {
    ...base,
    chainId: fork.chainId,
    evmChainId: fork.evmChainId,
    upgrades: new Map(fork.upgrades.map((u) => [u.version, u.height])),
    appVersion: last?.version ?? base.appVersion,
    initialHeight: last === undefined ? base.initialHeight : last.height + 1n,
    markets: fork.markets,
    ...(fork.testAccounts === true ? {} : { accounts: [], balances: [] }),
  };
}

/** Sets an account's balance of one denom exactly, minting or burning the difference. */
function setBalance(ctx: Context, keepers: Keepers, address: Uint8Array, denom: string, amount: bigint) {
  const delta = amount - keepers.bank.balance(ctx, address, denom);
  const coins = [{ denom, amount: delta < 0n ? -delta : delta }];
  if (delta > 0n) {
    keepers.bank.mintCoins(ctx, "devnet_faucet", coins);
    keepers.bank.sendCoinsFromModuleToAccount(ctx, "devnet_faucet", address, coins);
  } else if (delta < 0n) {
    keepers.bank.sendCoinsFromAccountToModule(ctx, address, "devnet_faucet", coins);
    keepers.bank.burnCoins(ctx, "devnet_faucet", coins);
  }
}

function restoreAccount(ctx: Context, keepers: Keepers, account: ForkAccount): void {
  const address = accAddressBytes(account.address);
  for (const coin of account.balances) setBalance(ctx, keepers, address, coin.denom, coin.amount);
  keepers.auth.setAccount(ctx, {
    address,
    accountNumber: account.accountNumber,
    sequence: account.sequence,
    pubKey: account.pubKey === undefined ? undefined : { algo: account.pubKey.algo, key: account.pubKey.key },
  });
  for (const sub of account.subaccounts) {
    const id = { owner: account.address, number: sub.number };
    const before = keepers.subaccounts.get(ctx, id).usdc;
    // The collateral pool holds the subaccount's USDC, as on the live chain.
    const pool = keepers.subaccounts.poolOf(ctx, id);
    const delta = sub.usdc - before;
    const coins = [{ denom: USDC_DENOM, amount: delta < 0n ? -delta : delta }];
    if (delta > 0n) {
      keepers.bank.mintCoins(ctx, "devnet_faucet", coins);
      keepers.bank.sendCoinsFromModuleToModule(ctx, "devnet_faucet", pool, coins);
    } else if (delta < 0n) {
      keepers.bank.sendCoinsFromModuleToModule(ctx, pool, "devnet_faucet", coins);
      keepers.bank.burnCoins(ctx, "devnet_faucet", coins);
    }
    keepers.subaccounts.restore(ctx, {
      id,
      usdc: sub.usdc,
      perpetualPositions: [...sub.positions]
        .sort((a, b) => a.perpetualId - b.perpetualId)
        .map((p) => ({
          perpetualId: p.perpetualId,
          quantums: p.quantums,
          fundingIndex: p.fundingIndex,
          quoteBalance: p.quoteBalance ?? 0n,
        })),
    });
  }
  for (const authenticator of account.authenticators) {
    keepers.accountPlus.restoreAuthenticator(ctx, address, {
      $typeName: "perpx.accountplus.v1.AccountAuthenticator",
      id: authenticator.id,
      type: authenticator.type,
      config: authenticator.config,
    } satisfies accountplus.AccountAuthenticator);
  }
}

/**
 * The module that writes a fork's state after every other module's genesis (appended to the chain's
 * modules, so the indexer's genesis sees the forked markets and subaccounts).
 */
export function createForkModule(fork: ForkState, keepers: Keepers): Module {
  return {
    name: "fork",
    initGenesis(ctx) {
      for (const tier of fork.liquidityTiers ?? []) keepers.perpetuals.setLiquidityTier(ctx, tier);
      if (fork.feeParams !== undefined) keepers.feeTiers.setParams(ctx, fork.feeParams);
      restoreForkParams(ctx, keepers, fork.params ?? {});
      for (const market of fork.markets) {
        if (market.fundingIndex !== 0n)
          keepers.perpetuals.addFundingIndex(ctx, market.id, market.fundingIndex);
      }
      let nextNumber = decodeU64(ctx.store("auth").get("next_account_number") ?? encodeU64(0n));
      for (const account of fork.accounts) {
        restoreAccount(ctx, keepers, account);
        if (account.accountNumber >= nextNumber) nextNumber = account.accountNumber + 1n;
      }
      // New accounts of the fork never take a forked account's number.
      ctx.store("auth").set("next_account_number", encodeU64(nextNumber));
    },
  };
}
