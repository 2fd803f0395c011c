/**
 * `startDevnet`: the whole local network in this process. Creates (or resumes) the chain
 * application, starts every server, produces blocks, and persists the state after every block when
 * a state directory is given.
 */

import { join, resolve } from "node:path";
import { NATIVE_DENOM, USDC_DENOM } from "@perpx/core";
import { createChainApp, DEFAULT_KEEP_RECENT } from "./app/app.js";
import type { PersistentChainApp } from "./app/contract.js";
import { FORK_MONIKER } from "./app/genesis/fork-state.js";
import { MAX_FUNDED_SUBACCOUNTS } from "./app/genesis/funded-subaccounts.js";
import { MONIKER } from "./app/genesis/genesis.js";
import {
  GENESIS_ACCOUNTS,
  GENESIS_NATIVE_BALANCE,
  GENESIS_USDC_BALANCE,
} from "./app/genesis/genesis-accounts.js";
import { DEFAULT_MARKETS, MAX_MARKETS } from "./app/genesis/genesis-markets.js";
import { DevnetError } from "./devnet-error.js";
import {
  type Devnet,
  type DevnetEndpoints,
  resolvePorts,
  type StartDevnetOptions,
} from "./devnet-options.js";
import { committedBlocks, startIndexer } from "./indexer/indexer.js";
import { type IndexerRestServer, startIndexerRestServer } from "./indexer/rest/server.js";
import { type IndexerWsServer, startIndexerWsServer } from "./indexer/ws/server.js";
import { startMarketMaker } from "./liquidity/maker.js";
import { type MirrorMaker, startMirrorMaker } from "./liquidity/mirror.js";
import { DevnetStateError, STATE_FILE, StateDirectory } from "./persistence.js";
import { createCheckLine } from "./servers/check-line.js";
import { type ControlServer, startControlServer } from "./servers/control.js";
import { addForkControlRoutes } from "./servers/control-fork.js";
import { createDispatcher } from "./servers/dispatch.js";
import { type EvmServers, startEvmServers } from "./servers/evm.js";
import { DEFAULT_FAUCET_COINS, type FaucetServer, startFaucetServer } from "./servers/faucet.js";
import { type GrpcServers, startGrpcServers } from "./servers/grpc.js";
import { resolveTimeouts } from "./servers/http.js";
import { BlockProducer, validateBlockTime } from "./servers/producer.js";
import { type RestServer, startRestServer } from "./servers/rest.js";
import { type RpcServer, startRpcServer } from "./servers/rpc.js";
import { loadOrCreateTls, type TlsMaterial } from "./servers/tls.js";
import { addSourceChainRoutes } from "./source-chain/control.js";
import { checkSourceChainOptions, type SourceChains, startSourceChains } from "./source-chain/index.js";

/**
 * Starts a devnet in this process and resolves when every server listens.
 *
 * @param options - profile, block time, state directory, ports and faucet settings.
 * @returns the running devnet: endpoints, CA PEM, test accounts and `stop()`.
 * @throws when a port is taken (the message names the server); {@link DevnetStateError} when the
 *   state directory cannot be resumed from.
 * @example
 * ```ts
 * import { StargateClient } from "@cosmjs/stargate";
 * import { startDevnet } from "@perpx/devnet";
 *
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 100 });
 * const client = await StargateClient.connect(devnet.endpoints.nodeRpc);
 * await client.getChainId(); // "perpx-local-1"
 * client.disconnect();
 * await devnet.stop();
 * ```
 */
export async function startDevnet(options: StartDevnetOptions = {}): Promise<Devnet> {
  const fork = options.fork;
  const profile = fork?.profile ?? options.profile ?? "local";
  const host = options.host ?? "127.0.0.1";
  // An empty host would bind every interface, an empty state directory be the working directory.
  if (typeof host !== "string" || host.trim() === "") {
    throw new DevnetError(
      "invalid-argument",
      `host must be an interface name or address, got ${JSON.stringify(host)}`,
    );
  }
  if (
    options.stateDir !== undefined &&
    (typeof options.stateDir !== "string" || options.stateDir.trim() === "")
  ) {
    throw new DevnetError(
      "invalid-argument",
      `stateDir must be a directory, got ${JSON.stringify(options.stateDir)}`,
    );
  }
  const ports = resolvePorts(options.ports);
  const stateDir = options.stateDir === undefined ? undefined : resolve(options.stateDir);
  const onError = options.onError ?? (() => undefined);
  const timeouts = resolveTimeouts(options.timeouts);

  const pruning = options.pruning ?? { keepRecent: DEFAULT_KEEP_RECENT };
  if (!Number.isSafeInteger(pruning.keepRecent) || pruning.keepRecent < 0) {
    throw new DevnetError(
      "out-of-range",
      `pruning.keepRecent must be a non-negative integer, got ${pruning.keepRecent}`,
    );
  }

  const markets = options.markets ?? DEFAULT_MARKETS.length;
  if (!Number.isInteger(markets) || markets < DEFAULT_MARKETS.length || markets > MAX_MARKETS) {
    throw new DevnetError(
      "out-of-range",
      `markets must be an integer from ${DEFAULT_MARKETS.length} to ${MAX_MARKETS}, got ${markets}`,
    );
  }
  const fundedSubaccounts = options.fundedSubaccounts ?? 0;
  if (
    !Number.isInteger(fundedSubaccounts) ||
    fundedSubaccounts < 0 ||
    fundedSubaccounts > MAX_FUNDED_SUBACCOUNTS
  ) {
    throw new DevnetError(
      "out-of-range",
      `fundedSubaccounts must be an integer from 0 to ${MAX_FUNDED_SUBACCOUNTS}, got ${fundedSubaccounts}`,
    );
  }

  // Checked before the state directory is locked: a refused option leaves nothing held.
  const blockTimeMs = validateBlockTime(options.blockTimeMs ?? 1000);
  const sourceChainOptions = checkSourceChainOptions(options.sourceChains ?? {});

  const rewardsFeeMultiplierPpm = options.rewardsFeeMultiplierPpm ?? 0;
  if (
    !Number.isInteger(rewardsFeeMultiplierPpm) ||
    rewardsFeeMultiplierPpm < 0 ||
    rewardsFeeMultiplierPpm > 1_000_000
  ) {
    throw new DevnetError(
      "out-of-range",
      `rewardsFeeMultiplierPpm must be an integer from 0 to 1000000, got ${rewardsFeeMultiplierPpm}`,
    );
  }

  const store =
    stateDir === undefined ? undefined : StateDirectory.open(stateDir, { keepRecent: pruning.keepRecent });
  const state = store?.resumed;
  store?.forgetResumed();
  const createApp = options.createApp ?? createChainApp;
  let app: PersistentChainApp;
  try {
    app = createApp({
      profile,
      genesisTime: options.genesisTime ?? new Date(),
      pruning,
      markets,
      fundedSubaccounts,
      rewardsFeeMultiplierPpm,
      ...(fork === undefined ? {} : { fork }),
      ...(state === undefined ? {} : { state }),
      ...(store === undefined ? {} : { archive: store }),
    });
  } catch (error) {
    store?.close();
    if (state === undefined || stateDir === undefined) throw error;
    throw new DevnetStateError(join(stateDir, STATE_FILE), "the chain application refused the state", {
      cause: error,
      details: error instanceof Error ? error.message : String(error),
    });
  }

  const persist = () => {
    try {
      store?.persist(app);
    } catch (error) {
      onError(error);
    }
  };
  const unsubscribePersist = store === undefined ? () => undefined : app.onBlock(() => persist());
  // What a server acknowledges outside a block (a faucet credit, a control change) is written before
  // the answer; a failure to write answers an error instead of a 200 that a crash would undo.
  const durable = store === undefined ? undefined : () => store.persist(app);
  if (options.ibcRelayDelayBlocks !== undefined) {
    try {
      app.control.moduleControl("ibc", "relayer", { delayBlocks: options.ibcRelayDelayBlocks });
    } catch (error) {
      unsubscribePersist();
      store?.close();
      throw error;
    }
    persist();
  } else if (state === undefined) persist();

  let tls: TlsMaterial;
  try {
    tls = loadOrCreateTls(stateDir);
  } catch (error) {
    unsubscribePersist();
    store?.close();
    throw error;
  }
  // The indexer replays the blocks committed so far (from genesis, through the block log with
  // --state), then follows the app's block and order streams. It keeps as many blocks of history
  // as the node keeps blocks in memory.
  const indexerFeed = startIndexer(app, committedBlocks(app), pruning.keepRecent);
  // The market maker quotes once the indexer listens, so the indexer sees its first orders too.
  let maker: ReturnType<typeof startMarketMaker> | undefined;
  try {
    maker =
      options.liquidity === undefined || options.liquidity === false
        ? undefined
        : startMarketMaker(app, app.control, options.liquidity === true ? {} : options.liquidity);
  } catch (error) {
    indexerFeed.stop();
    unsubscribePersist();
    store?.close();
    throw error;
  }
  let mirror: MirrorMaker | undefined;
  try {
    // A fork's prices move only when set (by its shadow feed), never by the devnet's walk.
    if (fork !== undefined && state === undefined) app.control.setOracleWalk(false);
    mirror = (options.mirror ?? fork !== undefined) ? startMirrorMaker(app, app.control) : undefined;
  } catch (error) {
    maker?.stop();
    indexerFeed.stop();
    unsubscribePersist();
    store?.close();
    throw error;
  }
  if (maker !== undefined || mirror !== undefined || fork !== undefined) persist();
  // One line of CheckTx for every transport that broadcasts, as a node has one mempool.
  const checkLine = createCheckLine(app);
  const dispatcher = createDispatcher(app, checkLine);
  const producer = new BlockProducer(app, { blockTimeMs, onError });

  const started: Array<{ close(): Promise<void> }> = [checkLine];
  const track = async <T extends { close(): Promise<void> }>(
    name: string,
    port: number,
    start: Promise<T>,
  ) => {
    try {
      const server = await start;
      started.push(server);
      return server;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason = code === "EADDRINUSE" ? `port ${port} is already in use` : (error as Error).message;
      throw new DevnetError("unavailable", `the ${name} server could not start: ${reason}`, { cause: error });
    }
  };

  let rpc: RpcServer;
  let rest: RestServer;
  let grpc: GrpcServers;
  let evm: EvmServers;
  let faucet: FaucetServer;
  let control: ControlServer;
  let indexerRest: IndexerRestServer;
  let indexerWs: IndexerWsServer;
  let sourceChains: SourceChains;
  let endpoints: DevnetEndpoints | undefined;
  try {
    [rpc, rest, grpc, evm, faucet, indexerRest, indexerWs] = await Promise.all([
      track(
        "CometBFT RPC",
        ports.rpc,
        startRpcServer({
          app,
          checkLine,
          host,
          port: ports.rpc,
          timeouts,
          ...(options.broadcastTxCommitTimeoutMs === undefined
            ? {}
            : { broadcastTxCommitTimeoutMs: options.broadcastTxCommitTimeoutMs }),
        }),
      ),
      track("REST", ports.rest, startRestServer({ dispatcher, host, port: ports.rest, timeouts })),
      track(
        "gRPC",
        ports.grpc,
        startGrpcServers({ dispatcher, tls, host, port: ports.grpc, tlsPort: ports.grpcTls, timeouts }),
      ),
      track(
        "EVM JSON-RPC",
        ports.evm,
        startEvmServers({ app, dispatcher, host, port: ports.evm, wsPort: ports.evmWs, timeouts }),
      ),
      track(
        "faucet",
        ports.faucet,
        startFaucetServer({
          control: app.control,
          host,
          port: ports.faucet,
          timeouts,
          coins: options.faucetCoins ?? DEFAULT_FAUCET_COINS,
          rateLimitWindowMs: options.faucetWindowMs ?? 10_000,
          ...(durable === undefined ? {} : { durable }),
        }),
      ),
      track(
        "indexer REST",
        ports.indexer,
        startIndexerRestServer({ indexer: indexerFeed.indexer, host, port: ports.indexer, timeouts }),
      ),
      track(
        "indexer WebSocket",
        ports.indexerWs,
        startIndexerWsServer({ feed: indexerFeed.indexer, host, port: ports.indexerWs, timeouts, onError }),
      ),
    ]);
    sourceChains = await track(
      "source chain JSON-RPC",
      ports.sourceL1,
      startSourceChains({
        profile,
        host,
        ports: { l1: ports.sourceL1, l2: ports.sourceL2 },
        options: sourceChainOptions,
        timeouts,
        onError,
        sink: {
          observe: (deposit) =>
            (
              app.control.moduleControl("bridge", "source-log", {
                ethChainId: deposit.ethChainId.toString(),
                bridgeContract: deposit.bridgeAddress,
                token: deposit.tokenAddress,
                sender: deposit.sender,
                address: deposit.address,
                amount: deposit.amount.toString(),
                sourceBlock: deposit.sourceBlock.toString(),
                txHash: deposit.txHash,
              }) as { id: number }
            ).id,
          finalize: (ethChainId, id) => {
            app.control.moduleControl("bridge", "source-final", { ethChainId: ethChainId.toString(), id });
          },
        },
      }),
    );
    control = await track(
      "control",
      ports.control,
      startControlServer({
        app,
        producer,
        host,
        port: ports.control,
        timeouts,
        routes: (router) => {
          addSourceChainRoutes(router, sourceChains);
          addForkControlRoutes(
            router,
            fork,
            fork === undefined ? MONIKER : (fork.moniker ?? FORK_MONIKER),
            mirror,
          );
          options.controlRoutes?.(router, { app, producer });
        },
        status: () => ({ endpoints, stateDir: stateDir ?? null }),
        ...(durable === undefined ? {} : { durable }),
      }),
    );
  } catch (error) {
    maker?.stop();
    mirror?.stop();
    unsubscribePersist();
    indexerFeed.stop();
    store?.close();
    await Promise.allSettled(started.map((s) => s.close()));
    throw error;
  }

  endpoints = {
    nodeRpc: rpc.url,
    nodeRpcWs: rpc.websocketUrl,
    nodeRest: rest.url,
    grpc: grpc.url,
    grpcTls: grpc.tlsUrl,
    evmRpc: evm.url,
    evmWs: evm.wsUrl,
    faucet: faucet.url,
    devnetControl: control.url,
    indexer: indexerRest.url,
    indexerWs: indexerWs.url,
    sourceL1Rpc: sourceChains.l1.url,
    sourceL2Rpc: sourceChains.l2.url,
  };
  producer.start();

  let stopping: Promise<void> | undefined;
  const info = app.info;
  return {
    profile,
    chainId: info.chainId,
    evmChainId: info.evmChainId,
    endpoints,
    ports: {
      rpc: rpc.port,
      rest: rest.port,
      grpc: grpc.port,
      grpcTls: grpc.tlsPort,
      evm: evm.port,
      evmWs: evm.wsPort,
      faucet: faucet.port,
      control: control.port,
      indexer: indexerRest.port,
      indexerWs: indexerWs.port,
      sourceL1: sourceChains.l1.port,
      sourceL2: sourceChains.l2.port,
    },
    caPem: tls.cert,
    // A fork holds the test accounts (public mnemonics) only when asked.
    accounts: (fork !== undefined && fork.testAccounts !== true ? [] : GENESIS_ACCOUNTS).map((a) => ({
      name: a.name,
      mnemonic: a.mnemonic,
      address: a.address,
      balances: [
        { denom: NATIVE_DENOM, amount: GENESIS_NATIVE_BALANCE },
        { denom: USDC_DENOM, amount: GENESIS_USDC_BALANCE },
      ],
    })),
    stateDir,
    app,
    producer,
    liquidityAddress: maker?.address,
    mirror,
    fork,
    sourceChains: { l1: sourceChains.l1, l2: sourceChains.l2 },
    mine: (count = 1) => producer.mine(count),
    stop: () => {
      stopping ??= (async () => {
        maker?.stop();
        mirror?.stop();
        producer.stop();
        await Promise.allSettled(started.map((s) => s.close()));
        indexerFeed.stop();
        unsubscribePersist();
        persist();
        store?.close();
      })();
      return stopping;
    },
  };
}
