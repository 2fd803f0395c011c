/**
 * The reader: a live network's state at one height, through its public APIs only (the node's gRPC
 * or REST queries, each at the same height, and the indexer to find an account's subaccounts), as
 * the devnet's `ForkState`. It sends nothing that changes the live network: only queries.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { toBech32 } from "@perpx/address";
import { getNetwork, InvalidArgumentError, type Network, networkByChainId, TimeoutError } from "@perpx/core";
import type { DevnetProfile, ForkAccount, ForkMarket, ForkState } from "@perpx/devnet";
import { getAddress, getHeight, isIndexerNotFoundError } from "@perpx/indexer-client";
import type { IndexerConnection } from "@perpx/indexer-client/rest";
import {
  getAccount,
  getBalances,
  getLatestBlock,
  getSubaccount,
  isQueryError,
  marketQueries,
  type NodeConnection,
} from "@perpx/node-client";
import { catalogQueries, getAuthenticators } from "@perpx/node-client/queries";
import { cosmosSecp256k1, decodeSerializableInt, ethSecp256k1 } from "@perpx/proto";
import { readForkParams } from "./params.js";
import { readUpgrades, runningVersion } from "./upgrades.js";

const { getClobPairs, getFeeTiers, getMarketPrices, getPerpetuals } = marketQueries;

const { getLiquidityTiers, getMarketParams } = catalogQueries;

/**
 * What {@link readForkState} reads.
 *
 * @example
 * ```ts
 * import { createIndexerConnection } from "@perpx/indexer-client/rest";
 * import { createNodeClient } from "@perpx/node-client";
 *
 * const options: ReadForkStateOptions = {
 *   node: createNodeClient({ nodeRpc: "http://127.0.0.1:26657" }),
 *   indexer: createIndexerConnection({ baseUrl: "http://127.0.0.1:3002" }),
 *   accounts: ["perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9"],
 *   source: "testnet",
 * };
 * ```
 */
export interface ReadForkStateOptions {
  /** A node client of the live network (`createNodeClient`). */
  readonly node: NodeConnection;
  /** An indexer connection of the live network (`createIndexerConnection`): finds subaccounts. */
  readonly indexer: IndexerConnection;
  /** Accounts to copy, bech32 `perpx1...` or 0x-hex. @default [] */
  readonly accounts?: readonly string[];
  /** What is forked, for banners and status. */
  readonly source: string;
  /** The live EVM JSON-RPC URL, asked `eth_chainId`. @default none: the preset's EVM chain id */
  readonly evmRpc?: string;
  /** How many times a read that a new block overtook starts again at the new height. @default 20 */
  readonly attempts?: number;
}

/** A query's answer overtaken by a new block (the node no longer answers for the height). */
function overtaken(error: unknown): boolean {
  return isQueryError(error) && /version does not exist/i.test(`${error.log} ${error.message}`);
}

/**
 * Reads the live network at one height: every market with its live id (oracle, perpetual, clob
 * pair, funding index; ids may have gaps), liquidity and fee tiers, the params of every module the
 * devnet runs (clob, rewards, revenue share, perpetuals, affiliates, bridge, ratelimit: see
 * `ForkParams`), and each account's number, sequence, public key, balances, subaccounts and
 * authenticators, as a `ForkState` for `startDevnet({ fork })`. The EVM chain id (`eth_chainId` at
 * `evmRpc`) and the applied upgrades (every name it can discover: see `upgrades.ts`) are the live
 * network's; each it does not answer is the preset's, named in `fromPreset`.
 *
 * @param options - the live network's clients, the accounts, what is forked.
 * @returns the state, with the height it was read at.
 * @throws {InvalidArgumentError} naming `live network` for a perpetual whose clob pair or oracle
 *   market is missing or has another id.
 * @throws {InvalidArgumentError} naming `accounts[i]` for an address in neither form, or a repeated one.
 * @throws {TimeoutError} when accounts are asked for and the live indexer does not reach the fork
 *   height within 30 s (it lists each account's subaccounts).
 * @throws the clients' errors when the live network cannot be read.
 * @example
 * ```ts
 * import { startDevnet } from "@perpx/devnet";
 * import { createIndexerConnection } from "@perpx/indexer-client/rest";
 * import { createNodeClient } from "@perpx/node-client";
 *
 * const live = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const state = await readForkState({
 *   node: createNodeClient({ grpc: live.endpoints.grpc }),
 *   indexer: createIndexerConnection({ baseUrl: live.endpoints.indexer }),
 *   accounts: [live.accounts[0]!.address],
 *   source: "a devnet",
 * });
 * state.markets.length; // 3
 * state.accounts[0]?.accountNumber; // 0n
 * await live.stop();
 * ```
 */
export async function readForkState(options: ReadForkStateOptions): Promise<ForkState> {
  const addresses = forkAccounts(options.accounts ?? []);
  const attempts = options.attempts ?? 20;
  // The running version names an upgrade too (the last one); it needs no height.
  const running = await runningVersion(options.node);
  for (let attempt = 1; ; attempt++) {
    const { height, chainId } = await getLatestBlock(options.node);
    try {
      return await readAt(options, addresses, height, chainId, running);
    } catch (error) {
      if (attempt >= attempts || !overtaken(error)) throw error;
    }
  }
}

/**
 * The accounts to fork, as bech32 addresses, each checked before anything is asked.
 *
 * @param accounts - bech32 `perpx1...` or 0x addresses.
 * @returns their bech32 forms, in order.
 * @throws {InvalidArgumentError} naming `accounts[i]` for an address in neither form, or one that
 *   repeats an earlier one (in either form).
 */
export function forkAccounts(accounts: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return accounts.map((address, i) => {
    let bech32: string;
    try {
      bech32 = toBech32(address);
    } catch (error) {
      throw new InvalidArgumentError(`accounts[${i}]`, "must be a perpx1... or 0x address", { cause: error });
    }
    const earlier = seen.get(bech32);
    if (earlier !== undefined) {
      throw new InvalidArgumentError(`accounts[${i}]`, `is accounts[${earlier}] again (${bech32})`);
    }
    seen.set(bech32, i);
    return bech32;
  });
}

function profileOf(network: Network | undefined): DevnetProfile {
  return network?.name ?? "local";
}

async function readAt(
  options: ReadForkStateOptions,
  addresses: readonly string[],
  height: bigint,
  chainId: string,
  running: string | undefined,
): Promise<ForkState> {
  const node = options.node;
  const at = { height };
  const network = networkByChainId(chainId);
  const profile = profileOf(network);
  const preset = network ?? getNetwork(profile);
  // Every query at once: a node keeps only its recent versions, so the read must finish within its window.
  const [perps, pairs, params, prices, tiers, feeParams, moduleParams, accounts, evmChainId, upgrades] =
    await Promise.all([
      getPerpetuals(node, at),
      getClobPairs(node, at),
      getMarketParams(node, at),
      getMarketPrices(node, at),
      getLiquidityTiers(node, at),
      getFeeTiers(node, at),
      readForkParams(node, height),
      addresses.length === 0
        ? []
        : indexerReached(options.indexer, height).then(() =>
            Promise.all(addresses.map((address, i) => readAccount(options, address, i, height))),
          ),
      liveEvmChainId(options.evmRpc),
      liveUpgrades(
        node,
        [...preset.upgrades.map((u) => u.version), ...(running === undefined ? [] : [running])],
        height,
      ),
    ]);
  const markets = perps
    .map((perp): ForkMarket => {
      const p = perp.params;
      const pair = pairs.find(
        (c) => c.metadata.case === "perpetualClobMetadata" && c.metadata.value.perpetualId === p?.id,
      );
      const param = params.find((m) => m.id === p?.marketId);
      const price = prices.find((m) => m.id === p?.marketId);
      if (p === undefined || pair === undefined || param === undefined || price === undefined) {
        throw new InvalidArgumentError(
          "live network",
          `perpetual ${p?.id ?? "?"} has no clob pair or oracle market`,
        );
      }
      if (pair.id !== p.id || p.marketId !== p.id) {
        throw new InvalidArgumentError(
          "live network",
          `perpetual ${p.id} has clob pair ${pair.id} and oracle market ${p.marketId}: a fork needs the three ids equal`,
        );
      }
      return {
        id: p.id,
        pair: param.pair,
        exponent: price.exponent,
        price: price.price,
        minPriceChangePpm: param.minPriceChangePpm,
        atomicResolution: p.atomicResolution,
        liquidityTier: p.liquidityTier,
        marketType: p.marketType,
        defaultFundingPpm: p.defaultFundingPpm,
        stepBaseQuantums: pair.stepBaseQuantums,
        subticksPerTick: pair.subticksPerTick,
        quantumConversionExponent: pair.quantumConversionExponent,
        fundingIndex: decodeSerializableInt(perp.fundingIndex),
      };
    })
    .sort((a, b) => a.id - b.id);
  const fromPreset = [
    ...(evmChainId === undefined ? (["evmChainId"] as const) : []),
    ...(upgrades === undefined ? (["upgrades"] as const) : []),
  ];
  return {
    source: options.source,
    height,
    profile,
    chainId,
    evmChainId: evmChainId ?? preset.evmChainId,
    ...(fromPreset.length === 0 ? {} : { fromPreset }),
    upgrades: upgrades ?? preset.upgrades.map((u) => ({ version: u.version, height: u.height })),
    markets,
    liquidityTiers: tiers,
    feeParams,
    params: moduleParams,
    accounts,
  };
}

/**
 * The live network's upgrades (see `upgrades.ts`), or undefined when it does not answer
 * `AppliedPlan`.
 */
async function liveUpgrades(
  node: NodeConnection,
  known: readonly string[],
  height: bigint,
): Promise<Array<{ version: string; height: bigint }> | undefined> {
  try {
    return await readUpgrades(node, known, height);
  } catch (error) {
    if (overtaken(error)) throw error;
    return undefined;
  }
}

/** The live EVM chain id (`eth_chainId`), or undefined when there is no EVM endpoint or it does not answer. */
async function liveEvmChainId(url: string | undefined): Promise<number | undefined> {
  if (url === undefined) return undefined;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    });
    const answer = (await response.json()) as { result?: unknown };
    if (typeof answer.result !== "string" || !/^0x[0-9a-f]+$/i.test(answer.result)) return undefined;
    return Number.parseInt(answer.result, 16);
  } catch {
    return undefined;
  }
}

/** How long the reader waits for the live indexer to reach the fork height. */
const INDEXER_WAIT_MS = 30_000;

/**
 * Waits until the live indexer has indexed `height`, so that the subaccounts it lists for an
 * address are every one that block holds (an indexer follows the chain a little behind: a
 * subaccount opened in the latest block may not be listed yet).
 */
async function indexerReached(indexer: IndexerConnection, height: bigint): Promise<void> {
  const deadline = Date.now() + INDEXER_WAIT_MS;
  for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
    const seen = await getHeight(indexer).then(
      (answer) => BigInt(answer.height),
      (error: unknown) => {
        if (isIndexerNotFoundError(error)) return 0n; // no block indexed yet
        throw error;
      },
    );
    if (seen >= height) return;
    if (Date.now() >= deadline) {
      throw new TimeoutError(
        `waiting for the live indexer to reach the fork height ${height} (it is at ${seen})`,
        INDEXER_WAIT_MS,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** The subaccount a deposit or a faucet grant credits unless told otherwise. */
const DEFAULT_SUBACCOUNT = 0;

async function subaccountNumbers(indexer: IndexerConnection, address: string): Promise<number[]> {
  try {
    const answer = await getAddress(indexer, { address });
    return answer.subaccounts.map((s) => s.subaccountNumber);
  } catch (error) {
    if (isIndexerNotFoundError(error)) return [];
    throw error;
  }
}

async function readAccount(
  options: ReadForkStateOptions,
  address: string,
  index: number,
  height: bigint,
): Promise<ForkAccount> {
  const node = options.node;
  const at = { height };
  const [account, balances, numbers, authenticators] = await Promise.all([
    getAccount(node, { address, ...at }),
    getBalances(node, { address, ...at }),
    subaccountNumbers(options.indexer, address),
    getAuthenticators(node, { address, ...at }),
  ]);
  // Subaccount 0 is read from the node even when the indexer does not list it yet: a devnet's
  // faucet credits the committed state at once and its events come out in the next block, so the
  // indexer at the fork height can lack a subaccount that the state at that height holds.
  const read = await Promise.all(
    (numbers.includes(DEFAULT_SUBACCOUNT) ? numbers : [DEFAULT_SUBACCOUNT, ...numbers]).map(
      async (number) => {
        const sub = await getSubaccount(node, { owner: address, number, ...at });
        const held = (sub?.assetPositions.length ?? 0) + (sub?.perpetualPositions.length ?? 0) > 0;
        if (!held && !numbers.includes(number)) return undefined;
        const usdc = sub?.assetPositions.find((a) => a.assetId === 0)?.quantums;
        return {
          number,
          usdc: usdc === undefined ? 0n : decodeSerializableInt(usdc),
          positions: (sub?.perpetualPositions ?? []).map((p) => ({
            perpetualId: p.perpetualId,
            quantums: decodeSerializableInt(p.quantums),
            fundingIndex: decodeSerializableInt(p.fundingIndex),
            quoteBalance: decodeSerializableInt(p.quoteBalance),
          })),
        };
      },
    ),
  );
  const subaccounts = read.filter((sub) => sub !== undefined);
  if (account === undefined) {
    throw new InvalidArgumentError(
      `accounts[${index}]`,
      `the live network has no account ${address} (never funded)`,
    );
  }
  const key = account.publicKey;
  const pubKey =
    key === undefined
      ? undefined
      : key.typeUrl.endsWith("ethsecp256k1.PubKey")
        ? { algo: "eth_secp256k1" as const, key: fromBinary(ethSecp256k1.PubKeySchema, key.value).key }
        : { algo: "secp256k1" as const, key: fromBinary(cosmosSecp256k1.PubKeySchema, key.value).key };
  return {
    address,
    accountNumber: account.accountNumber,
    sequence: account.sequence,
    ...(pubKey === undefined ? {} : { pubKey }),
    balances: balances.map((b) => ({ denom: b.denom, amount: b.amount })),
    subaccounts,
    authenticators: authenticators.map((a) => ({ id: a.id, type: a.type, config: a.config })),
  };
}
