/**
 * The chain's configuration and genesis, per profile: chain id, EVM chain id, version and upgrade
 * history (from `@perpx/core`'s presets), the validator, funded test accounts, denoms, assets, the
 * IBC channel to the USDC issuer and its wrap rule, bridge contracts, rate and withdrawal limits.
 */
import { addressBytes, addressBytesToBech32, VALOPER_PREFIX } from "@perpx/address";
import {
  getNetwork,
  NATIVE_DECIMALS,
  NATIVE_DENOM,
  NATIVE_SYMBOL,
  type Network,
  USDC_ASSET_ID,
  USDC_DECIMALS,
  USDC_DENOM,
} from "@perpx/core";
import { type cosmosBank, encodeSerializableInt, ibcChannel } from "@perpx/proto";
import type { DevnetProfile } from "../contract.js";
import { decodeU64, utf8 } from "../lib/codec.js";
import { type Coin, type DecCoin, parseDecCoins } from "../lib/coins.js";
import { type ValidatorKey, validatorKeyFromLabel } from "../lib/crypto.js";
import { sha256 } from "../lib/sha256.js";
import { wireCreate } from "../lib/wire-codec.js";
import * as wire from "../lib/wire-tables.js";
import { type IbcCounterparty, type ProtoRecord, padKey, record } from "../modules/records.js";
import { fundedAddresses } from "./funded-subaccounts.js";
import { GENESIS_ACCOUNTS, GENESIS_NATIVE_BALANCE, GENESIS_USDC_BALANCE } from "./genesis-accounts.js";
import { DEFAULT_MARKETS, devnetMarkets, type MarketSpec } from "./genesis-markets.js";

/** The CometBFT version the devnet reports (cosmjs picks its 0.38 client from it). */
export const COMET_VERSION = "0.38.17";
/** The devnet node's moniker. */
export const MONIKER = "perpx-devnet";

/** One EVM source chain of the bridge. */
export interface BridgeChain {
  readonly name: string;
  readonly ethChainId: bigint;
  /** The bridge contract (0x, EIP-55); the same on both source chains. */
  readonly bridgeAddress: string;
  /** The canonical USDC token on that chain (0x, EIP-55). */
  readonly usdcAddress: string;
}

/** Everything fixed at genesis. */
export interface ChainConfig {
  readonly profile: DevnetProfile;
  readonly network: Network;
  readonly chainId: string;
  readonly evmChainId: number;
  readonly appVersion: string;
  readonly upgrades: ReadonlyMap<string, bigint>;
  readonly initialHeight: bigint;
  readonly genesisTime: Date;
  readonly minGasPrices: readonly DecCoin[];
  /** `minimum-gas-prices` as configured, e.g. "0.025uusdc,25000000000aperpx". */
  readonly minGasPricesText: string;
  readonly validator: ValidatorKey;
  readonly validatorPower: bigint;
  readonly operatorAddress: string;
  readonly nodeId: Uint8Array;
  readonly accounts: readonly Uint8Array[];
  readonly balances: ReadonlyArray<{ address: Uint8Array; coins: readonly Coin[] }>;
  readonly denomMetadata: readonly cosmosBank.Metadata[];
  readonly ibc: {
    readonly channels: readonly ibcChannel.IdentifiedChannel[];
    readonly counterparty: IbcCounterparty;
  };
  readonly bridgeChains: readonly BridgeChain[];
  /** The markets (oracle, perpetual and clob pair of each), by id. */
  readonly markets: readonly MarketSpec[];
  /**
   * Owners of the funded subaccounts (subaccount 0 of each holds USDC at genesis); their accounts
   * follow `accounts` at genesis.
   */
  readonly fundedSubaccounts: readonly string[];
  /** x/rewards' fee multiplier at genesis (ppm); undefined keeps the reference's 0. */
  readonly rewardsFeeMultiplierPpm?: number;
}

/** The size of a chain at genesis, and its reward multiplier (see `ChainAppOptions`). */
export interface GenesisScale {
  /** Markets, the three defaults included. @default 3 */
  readonly markets?: number;
  /** Funded subaccounts besides the test accounts. @default 0 */
  readonly fundedSubaccounts?: number;
  /** x/rewards' `fee_multiplier_ppm`. @default 0 (the reference genesis's) */
  readonly rewardsFeeMultiplierPpm?: number;
}

/** The seed of the generated markets (the first 8 bytes of SHA-256 of a label). */
const MARKETS_SEED = decodeU64(sha256(utf8("perpx markets")));

/**
 * The bridge's source chains per profile (an L1 and an L2; testnets for `local` and `testnet`), as
 * the network preset of `@perpx/core` names them.
 */
function bridgeChainsOf(profile: DevnetProfile): BridgeChain[] {
  const sources = getNetwork(profile).bridgeSources;
  if (sources === undefined) return [];
  return [sources.l1, sources.l2].map((s) => ({
    name: s.name,
    ethChainId: BigInt(s.evmChainId),
    bridgeAddress: s.bridgeAddress,
    usdcAddress: s.usdcAddress,
  }));
}

/** Builds the chain configuration of a profile. */
export function chainConfig(
  profile: DevnetProfile,
  genesisTime: Date,
  scale: GenesisScale = {},
): ChainConfig {
  const network = getNetwork(profile);
  const upgrades = new Map<string, bigint>(network.upgrades.map((u) => [u.version, u.height]));
  const last = network.upgrades.at(-1);
  const minGasPricesText = [...network.minimumGasPrices]
    .sort((a, b) => (a.denom === USDC_DENOM ? -1 : b.denom === USDC_DENOM ? 1 : 0))
    .map((p) => `${p.amount}${p.denom}`)
    .join(",");
  const validator = validatorKeyFromLabel(`perpx ${profile} validator`);
  const operator = sha256(utf8(`perpx ${profile} validator operator`)).subarray(0, 20);
  const accounts = GENESIS_ACCOUNTS.map((a) => addressBytes(a.address));
  const markets =
    scale.markets === undefined || scale.markets === DEFAULT_MARKETS.length
      ? DEFAULT_MARKETS
      : devnetMarkets(scale.markets, MARKETS_SEED);
  const fundedSubaccounts = fundedAddresses(scale.fundedSubaccounts ?? 0);
  const counterparty: IbcCounterparty = {
    clientId: "07-tendermint-0",
    connectionId: "connection-0",
    chainId: profile === "mainnet" ? "noble-1" : profile === "testnet" ? "grand-1" : "usdc-local-1",
  };
  return {
    profile,
    network,
    chainId: network.chainId,
    evmChainId: network.evmChainId,
    appVersion: network.latestVersion,
    upgrades,
    initialHeight: last === undefined ? 1n : last.height + 1n,
    genesisTime,
    minGasPrices: parseDecCoins(minGasPricesText),
    minGasPricesText,
    validator,
    validatorPower: 10n,
    operatorAddress: addressBytesToBech32(operator, VALOPER_PREFIX),
    nodeId: sha256(utf8(`perpx ${profile} node`)).subarray(0, 20),
    accounts,
    balances: accounts.map((address) => ({
      address,
      coins: [
        { denom: NATIVE_DENOM, amount: GENESIS_NATIVE_BALANCE },
        { denom: USDC_DENOM, amount: GENESIS_USDC_BALANCE },
      ],
    })),
    denomMetadata: [
      wireCreate(wire.cosmos_bank_v1beta1_Metadata, {
        description: "The native token of perpx",
        denomUnits: [
          wireCreate(wire.cosmos_bank_v1beta1_DenomUnit, { denom: NATIVE_DENOM, exponent: 0 }),
          wireCreate(wire.cosmos_bank_v1beta1_DenomUnit, {
            denom: NATIVE_SYMBOL.toLowerCase(),
            exponent: NATIVE_DECIMALS,
          }),
        ],
        base: NATIVE_DENOM,
        display: NATIVE_SYMBOL.toLowerCase(),
        name: NATIVE_SYMBOL,
        symbol: NATIVE_SYMBOL,
      }),
      wireCreate(wire.cosmos_bank_v1beta1_Metadata, {
        description: "USDC, the collateral of perpx",
        denomUnits: [
          wireCreate(wire.cosmos_bank_v1beta1_DenomUnit, { denom: USDC_DENOM, exponent: 0 }),
          wireCreate(wire.cosmos_bank_v1beta1_DenomUnit, { denom: "usdc", exponent: USDC_DECIMALS }),
        ],
        base: USDC_DENOM,
        display: "usdc",
        name: "USDC",
        symbol: "USDC",
      }),
    ],
    ibc: {
      channels: [
        wireCreate(wire.ibc_core_channel_v1_IdentifiedChannel, {
          state: ibcChannel.State.OPEN,
          ordering: ibcChannel.Order.UNORDERED,
          counterparty: wireCreate(wire.ibc_core_channel_v1_Counterparty, {
            portId: "transfer",
            channelId: "channel-0",
          }),
          connectionHops: [counterparty.connectionId],
          version: "ics20-1",
          portId: "transfer",
          channelId: "channel-0",
        }),
      ],
      counterparty,
    },
    bridgeChains: bridgeChainsOf(profile),
    markets,
    fundedSubaccounts,
    ...(scale.rewardsFeeMultiplierPpm === undefined
      ? {}
      : { rewardsFeeMultiplierPpm: scale.rewardsFeeMultiplierPpm }),
  };
}

/** The assets records: USDC (id 0, `uusdc`) and the native token (id 1). */
export function assetRecords(): ProtoRecord[] {
  return [
    record(
      `asset/${padKey(USDC_ASSET_ID, 10)}`,
      wire.perpx_assets_v1_Asset,
      wireCreate(wire.perpx_assets_v1_Asset, {
        id: USDC_ASSET_ID,
        symbol: "USDC",
        denom: USDC_DENOM,
        denomExponent: -USDC_DECIMALS,
        hasMarket: false,
        marketId: 0,
        atomicResolution: -USDC_DECIMALS,
      }),
    ),
    record(
      `asset/${padKey(1, 10)}`,
      wire.perpx_assets_v1_Asset,
      wireCreate(wire.perpx_assets_v1_Asset, {
        id: 1,
        symbol: NATIVE_SYMBOL,
        denom: NATIVE_DENOM,
        denomExponent: -NATIVE_DECIMALS,
        hasMarket: false,
        marketId: 0,
        atomicResolution: -NATIVE_DECIMALS,
      }),
    ),
  ];
}

/** The wrap rule in force: port `transfer`, the USDC issuer's channel, `uusdc` -> local `uusdc`. */
export function wrapRecords(config: ChainConfig): ProtoRecord[] {
  const channel = config.ibc.channels[0] as ibcChannel.IdentifiedChannel;
  return [
    record(
      `rule/${channel.portId}/${channel.channelId}/${USDC_DENOM}`,
      wire.perpx_wrap_v1_WrapRule,
      wireCreate(wire.perpx_wrap_v1_WrapRule, {
        portId: channel.portId,
        channelId: channel.channelId,
        sourceDenom: USDC_DENOM,
        localDenom: USDC_DENOM,
      }),
    ),
  ];
}

/** Bridge parameters: one `EventParams` per source chain, propose and safety parameters. */
export function bridgeRecords(config: ChainConfig): ProtoRecord[] {
  return [
    ...config.bridgeChains.map((chain) =>
      record(
        `event_params/${padKey(chain.ethChainId, 20)}`,
        wire.perpx_bridge_v1_EventParams,
        wireCreate(wire.perpx_bridge_v1_EventParams, {
          denom: USDC_DENOM,
          ethChainId: chain.ethChainId,
          ethAddress: chain.bridgeAddress,
          tokenAddress: chain.usdcAddress,
        }),
      ),
    ),
    record(
      "propose_params",
      wire.perpx_bridge_v1_ProposeParams,
      wireCreate(wire.perpx_bridge_v1_ProposeParams, {
        maxBridgesPerBlock: 10,
        proposeDelayDuration: wireCreate(wire.google_protobuf_Duration, { seconds: 60n }),
        skipRatePpm: 800_000,
        skipIfBlockDelayedByDuration: wireCreate(wire.google_protobuf_Duration, { seconds: 5n }),
      }),
    ),
    record(
      "safety_params",
      wire.perpx_bridge_v1_SafetyParams,
      wireCreate(wire.perpx_bridge_v1_SafetyParams, {
        isDisabled: false,
        delayBlocks: config.profile === "local" ? 5 : 86_400,
      }),
    ),
  ];
}

/** IBC rate limits for `uusdc` (1 h and 1 day) and withdrawal limits per asset and source chain. */
export function ratelimitRecords(config: ChainConfig): ProtoRecord[] {
  const limiter = (seconds: bigint, minimum: bigint, ppm: number) =>
    wireCreate(wire.perpx_ratelimit_v1_Limiter, {
      period: wireCreate(wire.google_protobuf_Duration, { seconds }),
      baselineMinimum: encodeSerializableInt(minimum),
      baselineTvlPpm: ppm,
    });
  return [
    record(
      `limit_params/${USDC_DENOM}`,
      wire.perpx_ratelimit_v1_LimitParams,
      wireCreate(wire.perpx_ratelimit_v1_LimitParams, {
        denom: USDC_DENOM,
        limiters: [
          limiter(3600n, 1_000_000_000_000n, 10_000),
          limiter(86_400n, 10_000_000_000_000n, 100_000),
        ],
      }),
    ),
    record(
      `withdrawal_config/${padKey(USDC_ASSET_ID, 10)}`,
      wire.perpx_ratelimit_v1_AssetWithdrawalConfig,
      wireCreate(wire.perpx_ratelimit_v1_AssetWithdrawalConfig, {
        assetId: USDC_ASSET_ID,
        largeWithdrawalThreshold: "100000000000",
        timelockBlocks: 100n,
        withdrawalFee: [{ $typeName: "cosmos.base.v1beta1.Coin", denom: USDC_DENOM, amount: "1000000" }],
      }),
    ),
    ...config.bridgeChains.map((chain) =>
      record(
        `daily_limit/${padKey(chain.ethChainId, 20)}/${padKey(USDC_ASSET_ID, 10)}`,
        wire.perpx_ratelimit_v1_AssetChainDailyLimitConfig,
        wireCreate(wire.perpx_ratelimit_v1_AssetChainDailyLimitConfig, {
          chainId: chain.ethChainId,
          assetId: USDC_ASSET_ID,
          dailyLimit: "10000000000000",
        }),
      ),
    ),
  ];
}

/** The reference block rate limits of the real chain (the `testnet` and `mainnet` profiles). */
export const REFERENCE_CLOB_RATE_LIMITS = {
  /** Short-term places and cancels per account per block. */
  shortTermPerBlock: 400,
  /** Stateful (long-term and conditional) places and cancels per account per block. */
  statefulPerBlock: 2,
  /** Stateful places and cancels per account per 100 blocks. */
  statefulPer100Blocks: 20,
  /** Leverage updates per account per block. */
  leveragePerBlock: 5,
} as const;

/**
 * The `local` profile's block rate limits: generous, so a test can place many orders from one
 * wallet in a block (the reference limits would spread 50 long-term orders over hundreds of blocks).
 */
export const LOCAL_CLOB_RATE_LIMITS = {
  shortTermPerBlock: 10_000,
  statefulPerBlock: 200,
  statefulPer100Blocks: 2_000,
  leveragePerBlock: 5,
} as const;

/**
 * The clob's block rate limits of a profile: {@link LOCAL_CLOB_RATE_LIMITS} on `local`,
 * {@link REFERENCE_CLOB_RATE_LIMITS} on `testnet` and `mainnet`. Governance can change them
 * (`MsgUpdateBlockRateLimitConfiguration`).
 */
export function clobRecords(profile: DevnetProfile): ProtoRecord[] {
  const limits = profile === "local" ? LOCAL_CLOB_RATE_LIMITS : REFERENCE_CLOB_RATE_LIMITS;
  const limit = (numBlocks: number, value: number) =>
    wireCreate(wire.perpx_clob_v1_MaxPerNBlocksRateLimit, { numBlocks, limit: value });
  return [
    record(
      "block_rate_limit_config",
      wire.perpx_clob_v1_BlockRateLimitConfiguration,
      wireCreate(wire.perpx_clob_v1_BlockRateLimitConfiguration, {
        maxShortTermOrdersAndCancelsPerNBlocks: [limit(1, limits.shortTermPerBlock)],
        maxStatefulOrdersPerNBlocks: [
          limit(1, limits.statefulPerBlock),
          limit(100, limits.statefulPer100Blocks),
        ],
        maxLeverageUpdatesPerNBlocks: [limit(1, limits.leveragePerBlock)],
      }),
    ),
  ];
}
