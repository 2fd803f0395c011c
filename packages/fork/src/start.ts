/**
 * `startFork`: read a live network at one height, start a devnet from that state, and (by default)
 * shadow the live network's oracle, book and trades onto it.
 */
import { resolve } from "node:path";
import {
  ENDPOINT_ENV_VARS,
  type EndpointName,
  type Endpoints,
  type Env,
  getEndpoint,
  InvalidArgumentError,
  indexerSocketUrl,
  type NetworkName,
  resolveNetwork,
} from "@perpx/core";
import { type Devnet, type ForkState, type StartDevnetOptions, startDevnet } from "@perpx/devnet";
import { createIndexerConnection } from "@perpx/indexer-client/rest";
import type { IndexerWebSocketConstructor } from "@perpx/indexer-client/ws";
import { createNodeClient } from "@perpx/node-client";
import { forkAccounts, readForkState } from "./reader.js";
import { type Shadow, type ShadowEvent, startShadow } from "./shadow.js";
import { readForkStateFile, writeForkStateFile } from "./state-file.js";

/**
 * Options of {@link startFork}.
 *
 * @example
 * ```ts
 * const options: StartForkOptions = {
 *   from: "testnet",
 *   accounts: ["perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9"],
 *   env: process.env,
 *   ports: "free",
 * };
 * ```
 */
export interface StartForkOptions {
  /** The live network: a preset of `@perpx/core`'s network table (`testnet`, `mainnet`, `local`). */
  readonly from: NetworkName;
  /** The live network's endpoints; each wins over `env` and the preset. @default {} */
  readonly endpoints?: Readonly<Partial<Endpoints>>;
  /** The environment the `PERPX_*_URL` variables are read from. @default {} (none) */
  readonly env?: Env;
  /** Accounts to copy, bech32 `perpx1...` or 0x. @default [] */
  readonly accounts?: readonly string[];
  /**
   * Also create the devnet's five funded test accounts on the fork. Their mnemonics are public, so
   * they are left out unless asked (a resumed fork keeps what it started with). @default false
   */
  readonly testAccounts?: boolean;
  /** Follow the live oracle, book and trades. @default true */
  readonly shadow?: boolean;
  /**
   * Persist the fork here (the devnet's state plus `fork.json`); a directory that holds a fork
   * resumes it without reading the live network again. @default in memory
   */
  readonly stateDir?: string;
  /** The fork's ports (see `startDevnet`). @default the devnet's defaults */
  readonly ports?: StartDevnetOptions["ports"];
  /** Interface the fork's servers bind. @default "127.0.0.1" */
  readonly host?: string;
  /** Milliseconds between the fork's blocks. @default 1000 */
  readonly blockTimeMs?: number;
  /** Levels per side of the mirrored book. @default 10 */
  readonly bookLevels?: number;
  /** A `WebSocket` constructor for the live indexer. @default the indexer client's */
  readonly WebSocket?: IndexerWebSocketConstructor;
  /** Called after each change the shadow applied (for lag measurements). */
  readonly onShadowEvent?: (event: ShadowEvent) => void;
  /** Background errors (block production, a shadow change that could not be applied). */
  readonly onError?: (error: unknown) => void;
}

/**
 * A running fork.
 *
 * @example
 * ```ts
 * import { startDevnet } from "@perpx/devnet";
 *
 * const live = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const fork: Fork = await startFork({ from: "local", endpoints: live.endpoints, ports: "free", shadow: false });
 * fork.devnet.app.info.moniker; // "perpx-FORK"
 * fork.devnet.chainId === live.chainId; // true
 * await fork.stop();
 * await live.stop();
 * ```
 */
export interface Fork {
  /** The devnet the fork runs as (its endpoints, accounts, mirror maker). */
  readonly devnet: Devnet;
  /** The state it started from (the live height, markets, accounts). */
  readonly state: ForkState;
  /** The shadow feed, unless `shadow: false`. */
  readonly shadow: Shadow | undefined;
  /** True when it resumed from `stateDir` instead of reading the live network. */
  readonly resumed: boolean;
  /** Stops the shadow and the devnet. */
  stop(): Promise<void>;
}

/**
 * The live node's transport and the indexer's endpoints, by what the caller named (an option or its
 * variable) before the preset's defaults: a named node RPC is read even when the preset has a gRPC
 * default, and a shadowed fork whose indexer and WebSocket do not both come from the caller, or both
 * from the preset, is refused (it could read one network and follow another).
 */
function liveEndpoints(
  options: StartForkOptions,
  config: ReturnType<typeof resolveNetwork>,
  following: boolean,
) {
  const named = (name: EndpointName) =>
    options.endpoints?.[name] !== undefined || (options.env?.[ENDPOINT_ENV_VARS[name]] ?? "") !== "";
  if (following && named("indexer") !== named("indexerWs")) {
    const [given, missing] = named("indexer") ? ["indexer", "indexerWs"] : ["indexerWs", "indexer"];
    throw new InvalidArgumentError(
      `endpoints.${missing}`,
      `the live ${given} is given (endpoints.${given} or ${ENDPOINT_ENV_VARS[given as EndpointName]}) but ${missing} would be the ${options.from} preset's: give both (${ENDPOINT_ENV_VARS[missing as EndpointName]}), so that the fork reads and follows one network`,
    );
  }
  const grpc = config.endpoints.grpc;
  const rpc = grpc === undefined || (named("nodeRpc") && !named("grpc"));
  return rpc ? { nodeRpc: getEndpoint(config, "nodeRpc") } : { grpc };
}

/**
 * A fork resumed from `stateDir` is the fork saved there: the same live network (it follows that
 * one), and the accounts it started with (asking for another, or for one in neither address form,
 * is refused rather than silently left out).
 */
function checkResumed(saved: ForkState, options: StartForkOptions, stateDir: string): void {
  if (saved.source !== options.from) {
    throw new InvalidArgumentError(
      "from",
      `the fork in ${stateDir} is a fork of ${saved.source}, not ${options.from}: a resumed fork follows the network it copied`,
    );
  }
  const held = new Set(saved.accounts.map((account) => account.address));
  forkAccounts(options.accounts ?? []).forEach((address, i) => {
    if (!held.has(address)) {
      throw new InvalidArgumentError(
        `accounts[${i}]`,
        `${address} is not on the fork in ${stateDir}: a resumed fork keeps the accounts it started with (start a new one in another directory to add it)`,
      );
    }
  });
}

/**
 * Forks a live network (see the module comment). Only queries and subscriptions reach the live
 * network; everything the fork does stays on the fork.
 *
 * @param options - the live network, the accounts, shadowing and the fork's devnet options.
 * @returns the fork once every server listens and the shadow is connected.
 * @throws {MissingEndpointError} when the live node or indexer (or, to shadow, its WebSocket) has no
 *   endpoint, before anything is read or started.
 * @throws {InvalidArgumentError} naming `accounts[i]` for a bad, repeated or unknown account, or one
 *   a fork resumed from `stateDir` was not started with.
 * @throws {InvalidArgumentError} naming `from` when `stateDir` holds a fork of another network.
 * @throws {InvalidArgumentError} naming `endpoints.indexer` or `endpoints.indexerWs` when a shadowed
 *   fork is given one of them but not the other (the other would be the preset's).
 * @throws {InvalidArgumentError} naming `stateDir` when its `fork.json` is not a fork state.
 * @example
 * ```ts
 * import { startDevnet } from "@perpx/devnet";
 *
 * const live = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const alice = live.accounts[0]!;
 * const fork = await startFork({ from: "local", endpoints: live.endpoints, accounts: [alice.address], ports: "free" });
 * fork.state.accounts[0]?.address === alice.address; // true
 * fork.shadow?.status().state; // "following"
 * await fork.stop();
 * await live.stop();
 * ```
 */
export async function startFork(options: StartForkOptions): Promise<Fork> {
  const config = resolveNetwork({
    network: options.from,
    endpoints: options.endpoints ?? {},
    env: options.env ?? {},
  });
  const following = options.shadow ?? true;
  // Every endpoint the fork will use is checked before anything is read or started.
  const indexerWs = following ? indexerSocketUrl(config) : undefined;
  const nodeEndpoint = liveEndpoints(options, config, following);
  const stateDir = options.stateDir === undefined ? undefined : resolve(options.stateDir);
  const saved = stateDir === undefined ? undefined : readForkStateFile(stateDir);
  if (saved !== undefined && stateDir !== undefined) checkResumed(saved, options, stateDir);
  let state = saved;
  if (state === undefined) {
    const node = createNodeClient({ network: config.network, ...nodeEndpoint });
    const indexer = createIndexerConnection({ baseUrl: getEndpoint(config, "indexer") });
    const read = await readForkState({
      node,
      indexer,
      accounts: options.accounts ?? [],
      source: options.from,
      ...(config.endpoints.evmRpc === undefined ? {} : { evmRpc: config.endpoints.evmRpc }),
    });
    state = options.testAccounts === true ? { ...read, testAccounts: true } : read;
    if (stateDir !== undefined) writeForkStateFile(stateDir, state);
  }
  const forked = state;
  let shadow: Shadow | undefined;
  const devnet = await startDevnet({
    fork: forked,
    ...(stateDir === undefined ? {} : { stateDir }),
    ...(options.ports === undefined ? {} : { ports: options.ports }),
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.blockTimeMs === undefined ? {} : { blockTimeMs: options.blockTimeMs }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
    controlRoutes: (router) => router.add("GET", "/fork/shadow", () => shadow?.status() ?? { state: "off" }),
  });
  if (indexerWs !== undefined) {
    try {
      shadow = await startShadow({
        devnet,
        indexerWs,
        markets: forked.markets.map((m) => m.pair),
        ...(options.bookLevels === undefined ? {} : { bookLevels: options.bookLevels }),
        ...(options.WebSocket === undefined ? {} : { WebSocket: options.WebSocket }),
        ...(options.onShadowEvent === undefined ? {} : { onEvent: options.onShadowEvent }),
        ...(options.onError === undefined ? {} : { onError: options.onError }),
      });
    } catch (error) {
      await devnet.stop();
      throw error;
    }
  }
  return {
    devnet,
    state: forked,
    shadow,
    resumed: saved !== undefined,
    stop: async () => {
      await shadow?.stop();
      await devnet.stop();
    },
  };
}
