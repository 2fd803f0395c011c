/**
 * The options, ports, endpoints and handle of a devnet: the typed contract of `startDevnet`.
 */

import type {
  BlockRecord,
  CreateChainApp,
  DevnetProfile,
  PersistentChainApp,
  PruningOptions,
} from "./app/contract.js";
import type { ForkState } from "./app/genesis/fork-state.js";
import { DevnetError } from "./devnet-error.js";
import type { LiquidityOptions } from "./liquidity/maker.js";
import type { MirrorMaker } from "./liquidity/mirror.js";
import type { ControlRouter } from "./servers/control-router.js";
import type { FaucetCoin } from "./servers/faucet.js";
import type { DEFAULT_SERVER_TIMEOUTS, ServerTimeouts } from "./servers/http.js";
import type { BlockProducer } from "./servers/producer.js";
import type { SourceChainOptions, SourceChains } from "./source-chain/index.js";

/**
 * The port of every server.
 *
 * @example
 * ```ts
 * // 0 picks a free port; in a Partial<DevnetPorts>, a server left out gets its DEFAULT_PORTS port.
 * const ports: DevnetPorts = { rpc: 0, rest: 0, grpc: 0, grpcTls: 0, evm: 0, evmWs: 0, faucet: 0, control: 0, indexer: 0, indexerWs: 0, sourceL1: 0, sourceL2: 0 };
 * const devnet = await startDevnet({ ports, blockTimeMs: 0 });
 * devnet.ports.rest > 0; // true: the free port it picked
 * devnet.endpoints.nodeRest.endsWith(`:${devnet.ports.rest}`); // true
 * await devnet.stop();
 * ```
 */
export interface DevnetPorts {
  /** CometBFT JSON-RPC, HTTP and WebSocket (`/websocket`). @default 26657 */
  rpc: number;
  /** Cosmos REST. @default 1317 */
  rest: number;
  /** gRPC over plain HTTP/2 (h2c). @default 9090 */
  grpc: number;
  /** gRPC over TLS. @default 9091 */
  grpcTls: number;
  /** EVM JSON-RPC over HTTP. @default 8545 */
  evm: number;
  /** EVM JSON-RPC over WebSocket. @default 8546 */
  evmWs: number;
  /** Faucet. @default 8000 */
  faucet: number;
  /** Devnet control. @default 26659 */
  control: number;
  /** Indexer REST (`/v4/...`). @default 3002 */
  indexer: number;
  /** Indexer WebSocket (`/v4/ws`). @default 3003 */
  indexerWs: number;
  /** JSON-RPC of the bridge's simulated L1 source chain. @default 8547 */
  sourceL1: number;
  /** JSON-RPC of the bridge's simulated L2 source chain. @default 8548 */
  sourceL2: number;
}

/**
 * The default ports (see the README); `0` anywhere picks a free port.
 *
 * @example
 * ```ts
 * DEFAULT_PORTS.rpc; // 26657
 * const devnet = await startDevnet({ ports: { ...DEFAULT_PORTS, rpc: 0, rest: 0, grpc: 0, grpcTls: 0, evm: 0, evmWs: 0, faucet: 0, control: 0, indexer: 0, indexerWs: 0, sourceL1: 0, sourceL2: 0 } });
 * devnet.endpoints.nodeRpc === "http://127.0.0.1:26657"; // false: 0 picks a free port
 * await devnet.stop();
 * ```
 */
export const DEFAULT_PORTS: Readonly<DevnetPorts> = Object.freeze({
  rpc: 26657,
  rest: 1317,
  grpc: 9090,
  grpcTls: 9091,
  evm: 8545,
  evmWs: 8546,
  faucet: 8000,
  control: 26659,
  indexer: 3002,
  indexerWs: 3003,
  sourceL1: 8547,
  sourceL2: 8548,
});

/**
 * The URL of every server of a running devnet.
 *
 * @example
 * ```ts
 * import { StargateClient } from "@cosmjs/stargate";
 *
 * const devnet = await startDevnet({ ports: "free" });
 * const client = await StargateClient.connect(devnet.endpoints.nodeRpc);
 * await client.getChainId(); // "perpx-local-1"
 * client.disconnect();
 * await devnet.stop();
 * ```
 */
export interface DevnetEndpoints {
  /** CometBFT JSON-RPC over HTTP, e.g. `http://127.0.0.1:26657`. */
  nodeRpc: string;
  /** CometBFT JSON-RPC over WebSocket, e.g. `ws://127.0.0.1:26657/websocket`. */
  nodeRpcWs: string;
  /** Cosmos REST, e.g. `http://127.0.0.1:1317`. */
  nodeRest: string;
  /** gRPC over h2c, e.g. `http://127.0.0.1:9090`. */
  grpc: string;
  /** gRPC over TLS, e.g. `https://127.0.0.1:9091` (trust {@link Devnet.caPem}). */
  grpcTls: string;
  /** EVM JSON-RPC over HTTP, e.g. `http://127.0.0.1:8545`. */
  evmRpc: string;
  /** EVM JSON-RPC over WebSocket, e.g. `ws://127.0.0.1:8546`. */
  evmWs: string;
  /** Faucet base URL; POST `${faucet}/faucet/tokens`. */
  faucet: string;
  /** Devnet control base URL; routes under `${devnetControl}/devnet/...`. */
  devnetControl: string;
  /** Indexer REST base URL, e.g. `http://127.0.0.1:3002`; routes under `${indexer}/v4/...`. */
  indexer: string;
  /** Indexer WebSocket, the full socket URL, e.g. `ws://127.0.0.1:3003/v4/ws`. */
  indexerWs: string;
  /** JSON-RPC of the bridge's L1 source chain (deposits), e.g. `http://127.0.0.1:8547`. */
  sourceL1Rpc: string;
  /** JSON-RPC of the bridge's L2 source chain (deposits), e.g. `http://127.0.0.1:8548`. */
  sourceL2Rpc: string;
}

/**
 * A funded test account of the devnet (its keys are public: never use them elsewhere).
 *
 * @example
 * ```ts
 * import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
 *
 * const devnet = await startDevnet({ ports: "free" });
 * const [alice]: readonly DevnetAccount[] = devnet.accounts;
 * const wallet = await DirectSecp256k1HdWallet.fromMnemonic(alice!.mnemonic, { prefix: "perpx" });
 * (await wallet.getAccounts())[0]?.address === alice!.address; // true
 * await devnet.stop();
 * ```
 */
export interface DevnetAccount {
  name: string;
  /** The 24-word mnemonic; index 0 of path m/44'/118'/0'/0/0 is the account. */
  mnemonic: string;
  /** bech32 address, `perpx1...`. */
  address: string;
  /** Genesis balances. */
  balances: Array<{ denom: string; amount: bigint }>;
}

/**
 * Options of {@link startDevnet}.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const stateDir = mkdtempSync(join(tmpdir(), "devnet-"));
 * const options: StartDevnetOptions = { profile: "testnet", blockTimeMs: 0, ports: "free", stateDir };
 * const devnet = await startDevnet(options);
 * devnet.chainId === "perpx-local-1"; // false: the testnet profile has its own chain id
 * await devnet.stop();
 * ```
 */
export interface StartDevnetOptions {
  /** Chain id, EVM chain id and upgrade history. @default "local" */
  profile?: DevnetProfile;
  /** Milliseconds between blocks; 0 produces blocks only on demand (control `POST /devnet/blocks`). @default 1000 */
  blockTimeMs?: number;
  /**
   * Directory for the state (a snapshot written atomically after every block, plus an append-only
   * block log; reloaded on start) and the cached TLS certificate. Without it the devnet lives in
   * memory. A directory that cannot be resumed from fails the start with a `DevnetStateError`.
   */
  stateDir?: string;
  /**
   * How many of the latest blocks (with their tx results and tx index) stay in memory. Older blocks
   * are read back from the block log with `stateDir`, and dropped without it (queries for them then
   * answer as a pruned CometBFT node: "height 5 is not available, lowest height is 1001"); txs of
   * pruned blocks are not found by `tx` or `tx_search` either way. As many state versions are kept:
   * a query at one of those heights reads that block's state. `{ keepRecent: 0 }` keeps every block
   * and version (memory grows with the chain). @default `{ keepRecent: 1000 }`
   */
  pruning?: PruningOptions;
  /** Interface every server binds. @default "127.0.0.1" */
  host?: string;
  /** Ports by server; `"free"` (or 0 for one server) picks free ports. @default {@link DEFAULT_PORTS} */
  ports?: Partial<DevnetPorts> | "free";
  /** Genesis time of a new chain. @default the current time */
  genesisTime?: Date;
  /** Coins the faucet credits per request. @default 1,000 USDC and 10 PERPX */
  faucetCoins?: readonly FaucetCoin[];
  /** Faucet rate limit: one request per address per this many milliseconds (0: none). @default 10000 */
  faucetWindowMs?: number;
  /** How long `broadcast_tx_commit` waits for its block. @default 10000 */
  broadcastTxCommitTimeoutMs?: number;
  /**
   * How long every server waits for a slow or idle client: HTTP/1 header, whole-request and
   * keep-alive timeouts (RPC, REST, EVM, faucet, control), HTTP/2 session idle timeout (gRPC h2c
   * and TLS). @default {@link DEFAULT_SERVER_TIMEOUTS}: headers 10 s, request 30 s, keep-alive 5 s,
   * HTTP/2 idle 60 s
   */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * Markets at genesis: the three defaults (BTC-USD, ETH-USD, SOL-USD) first, then generated ones
   * (the same for every run) with the reference listing's parameters and liquidity tiers; from 3
   * to 500. A resumed `stateDir` keeps the markets it was created with. @default 3
   */
  markets?: number;
  /**
   * Accounts created at genesis whose subaccount 0 holds 100,000 USDC; `fundedSubaccountKey(i)`
   * gives the key and address of the i-th. A resumed `stateDir` keeps those it was created with.
   * @default 0
   */
  fundedSubaccounts?: number;
  /**
   * x/rewards' `fee_multiplier_ppm` at genesis, 0 to 1,000,000:
   * the share of trading fees paid back in PERPX each block, from the rewards treasury, at the
   * ETH-USD oracle price (the reference genesis's market 1). Governance (`MsgUpdateParams`) can
   * change it later. A resumed `stateDir` keeps its own. @default 0 (the reference genesis's:
   * no rewards)
   */
  rewardsFeeMultiplierPpm?: number;
  /** Called with errors that happen in the background (block production, persistence). */
  onError?: (error: unknown) => void;
  /** Extra control routes (later features register theirs here). */
  controlRoutes?: (
    router: ControlRouter,
    devnet: { app: PersistentChainApp; producer: BlockProducer },
  ) => void;
  /** The chain application factory. @default the devnet's own application */
  createApp?: CreateChainApp;
  /**
   * A devnet-owned market maker (`--liquidity`): a ladder of post-only short-term orders around
   * every active market's oracle price, refreshed as blocks commit, so books and trades are never
   * empty. `true` takes the defaults of {@link LiquidityOptions}. @default false
   */
  liquidity?: boolean | LiquidityOptions;
  /**
   * Blocks between the send of an outgoing IBC packet and its acknowledgement or timeout by the
   * simulated relayer (`--ibc-relay-delay-blocks`), from 0 to 100000; set at start, also on a
   * resumed `stateDir`, and changeable with control `POST /devnet/ibc/relayer`. @default 2
   */
  ibcRelayDelayBlocks?: number;
  /**
   * The bridge's simulated EVM source chains (L1 and L2): their block time and finality depth. Their
   * state lives in memory and starts from genesis at every start (`stateDir` does not keep it).
   * @default `{ blockTimeMs: 1000, finalityDepth: 3 }`
   */
  sourceChains?: SourceChainOptions;
  /**
   * Start from another network's state (a fork, see `ForkState`; `@perpx/fork` reads it from a
   * live network): its chain id, EVM chain id, upgrade history, markets and accounts, with the
   * moniker `perpx-FORK` and the oracle's random walk off (prices move when set). With a resumed
   * `stateDir`, pass the same state again: only its identity is used. `profile` is the fork's.
   * @default none (the devnet's own genesis)
   */
  fork?: ForkState;
  /**
   * Run the mirror maker (`devnet.mirror`, control `/devnet/mirror/...`): a devnet-owned trader that
   * rests the levels it is given and fills resting orders when told the market traded through
   * them. @default true with `fork`, else false
   */
  mirror?: boolean;
}

/**
 * A running devnet.
 *
 * @example
 * ```ts
 * const devnet: Devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * try {
 *   const before = devnet.app.latestBlock().height;
 *   devnet.mine(3);
 *   devnet.app.latestBlock().height - before; // 3n
 * } finally {
 *   await devnet.stop();
 * }
 * ```
 */
export interface Devnet {
  readonly profile: DevnetProfile;
  readonly chainId: string;
  readonly evmChainId: number;
  readonly endpoints: DevnetEndpoints;
  readonly ports: DevnetPorts;
  /** PEM of the CA that signs the gRPC TLS certificate (pass as `ca` to a TLS client). */
  readonly caPem: string;
  /** The funded test accounts (none on a fork, unless its state asks for them: `fork.testAccounts`). */
  readonly accounts: readonly DevnetAccount[];
  /** The state directory, when the devnet persists. */
  readonly stateDir: string | undefined;
  /** The chain application (for in-process tests). */
  readonly app: PersistentChainApp;
  /** The block producer: `mine(n)`, `setBlockTimeMs(ms)`. */
  readonly producer: BlockProducer;
  /** The address of the devnet-owned market maker, when it runs (`liquidity`). */
  readonly liquidityAddress: string | undefined;
  /** The mirror maker, when it runs (`mirror`, a fork). */
  readonly mirror: MirrorMaker | undefined;
  /** The fork's state, when the devnet is a fork. */
  readonly fork: ForkState | undefined;
  /** The bridge's simulated source chains (state, `mine`, `fund`). */
  readonly sourceChains: Pick<SourceChains, "l1" | "l2">;
  /** Produces `count` blocks now. */
  mine(count?: number): BlockRecord[];
  /** Stops block production and every server, and writes the state a last time. */
  stop(): Promise<void>;
}

export function resolvePorts(ports: StartDevnetOptions["ports"]): DevnetPorts {
  if (ports === "free") {
    return {
      rpc: 0,
      rest: 0,
      grpc: 0,
      grpcTls: 0,
      evm: 0,
      evmWs: 0,
      faucet: 0,
      control: 0,
      indexer: 0,
      indexerWs: 0,
      sourceL1: 0,
      sourceL2: 0,
    };
  }
  const merged = { ...DEFAULT_PORTS, ...(ports ?? {}) };
  for (const [name, port] of Object.entries(merged)) {
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new DevnetError(
        "out-of-range",
        `ports.${name} must be an integer from 0 to 65535, got ${String(port)}`,
      );
    }
  }
  return merged;
}
