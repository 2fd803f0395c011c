/**
 * The simulated EVM source chains of the bridge (an L1 and an L2, each with its own JSON-RPC
 * server and block timer) and the bridge daemon that feeds their deposits to the chain.
 */

import { getNetwork } from "@perpx/core";
import type { DevnetProfile } from "../app/contract.js";
import { DevnetError } from "../devnet-error.js";
import type { ServerTimeouts } from "../servers/http.js";
import { validateBlockTime } from "../servers/producer.js";
import { SourceChain } from "./chain.js";
import { type DepositSink, startBridgeDaemon } from "./daemon.js";
import { SOURCE_GENESIS_ADDRESSES, SOURCE_GENESIS_ETH, SOURCE_GENESIS_USDC } from "./genesis.js";
import { startSourceRpcServer } from "./rpc.js";

/**
 * Settings of the simulated source chains (`startDevnet({ sourceChains })`).
 *
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", sourceChains: { blockTimeMs: 200, finalityDepth: 2 } });
 * ```
 */
export interface SourceChainOptions {
  /**
   * Milliseconds between source blocks, an integer from 0 to 2147483647; 0 seals blocks only on
   * demand (`mine`). @default 1000
   */
  blockTimeMs?: number;
  /**
   * Blocks on top of a deposit's block before the daemon reports it final, a non-negative integer.
   * @default 3
   */
  finalityDepth?: number;
}

/**
 * Checks the source chains' options where they enter (`startDevnet`), before anything starts.
 *
 * @param options - `startDevnet`'s `sourceChains`.
 * @returns the options with their defaults.
 * @throws {DevnetError} `invalid-argument` naming `sourceChains.blockTimeMs` (not an integer from
 *   0 to 2147483647: `NaN`, negative, `Infinity`, past a Node timer) or `sourceChains.finalityDepth`
 *   (not a non-negative integer).
 * @example
 * ```ts
 * checkSourceChainOptions({ blockTimeMs: 200 }); // { blockTimeMs: 200, finalityDepth: 3 }
 * checkSourceChainOptions({ blockTimeMs: Number.NaN }); // throws DevnetError "invalid-argument"
 * ```
 */
export function checkSourceChainOptions(options: SourceChainOptions): Required<SourceChainOptions> {
  const blockTimeMs = validateBlockTime(options.blockTimeMs ?? 1000, "sourceChains.blockTimeMs");
  const finalityDepth = options.finalityDepth ?? 3;
  if (!Number.isSafeInteger(finalityDepth) || finalityDepth < 0)
    throw new DevnetError(
      "invalid-argument",
      `sourceChains.finalityDepth must be a non-negative integer, got ${finalityDepth}`,
    );
  return { blockTimeMs, finalityDepth };
}

/**
 * One running source chain.
 *
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", sourceChains: { blockTimeMs: 0 } });
 * devnet.sourceChains.l1.mine(2);
 * devnet.sourceChains.l1.chain.head().number; // 2n
 * ```
 */
export interface RunningSourceChain {
  /** The chain itself (state, blocks, pool). */
  readonly chain: SourceChain;
  /** Its JSON-RPC URL. */
  readonly url: string;
  readonly port: number;
  /** Seals `count` blocks now. */
  mine(count?: number): void;
  /** Credits ETH (wei) and USDC (base units) to an address. */
  fund(address: string, coins: { eth?: bigint; usdc?: bigint }): void;
}

/** The running source chains and daemon. */
export interface SourceChains {
  readonly l1: RunningSourceChain;
  readonly l2: RunningSourceChain;
  /** Stops the block timers, the daemon and the servers. */
  close(): Promise<void>;
}

/** Starts both source chains, their servers and the bridge daemon. */
export async function startSourceChains(params: {
  profile: DevnetProfile;
  host: string;
  ports: { l1: number; l2: number };
  options: SourceChainOptions;
  timeouts: Partial<ServerTimeouts>;
  sink: DepositSink;
  onError: (error: unknown) => void;
}): Promise<SourceChains> {
  const sources = getNetwork(params.profile).bridgeSources;
  if (sources === undefined)
    throw new DevnetError("invalid-argument", `the ${params.profile} preset names no bridge source chains`);
  const { blockTimeMs, finalityDepth } = checkSourceChainOptions(params.options);
  const chains = (["l1", "l2"] as const).map((slot) => {
    const s = sources[slot];
    const chain = new SourceChain({
      slot,
      name: s.name,
      chainId: BigInt(s.evmChainId),
      bridgeAddress: s.bridgeAddress,
      usdcAddress: s.usdcAddress,
      finalityDepth,
    });
    for (const address of SOURCE_GENESIS_ADDRESSES) {
      chain.ledger.fund(address, { eth: SOURCE_GENESIS_ETH, usdc: SOURCE_GENESIS_USDC });
    }
    return chain;
  });
  const stopDaemon = startBridgeDaemon(chains, params.sink, params.onError);
  const servers: Array<{ close(): Promise<void> }> = [];
  try {
    const [l1Server, l2Server] = await Promise.all(
      chains.map(async (chain, i) => {
        const server = await startSourceRpcServer({
          chain,
          host: params.host,
          port: i === 0 ? params.ports.l1 : params.ports.l2,
          timeouts: params.timeouts,
        });
        servers.push(server);
        return server;
      }),
    );
    const seal = (chain: SourceChain) => {
      try {
        chain.seal();
      } catch (error) {
        params.onError(error);
      }
    };
    const timers = blockTimeMs > 0 ? chains.map((chain) => setInterval(() => seal(chain), blockTimeMs)) : [];
    const running = (chain: SourceChain, server: { url: string; port: number }): RunningSourceChain => ({
      chain,
      url: server.url,
      port: server.port,
      mine: (count = 1) => {
        for (let i = 0; i < count; i++) seal(chain);
      },
      fund: (address, coins) => chain.ledger.fund(address, coins),
    });
    return {
      l1: running(chains[0] as SourceChain, l1Server as { url: string; port: number }),
      l2: running(chains[1] as SourceChain, l2Server as { url: string; port: number }),
      close: async () => {
        for (const timer of timers) clearInterval(timer);
        stopDaemon();
        await Promise.allSettled(servers.map((s) => s.close()));
      },
    };
  } catch (error) {
    stopDaemon();
    await Promise.allSettled(servers.map((s) => s.close()));
    throw error;
  }
}
