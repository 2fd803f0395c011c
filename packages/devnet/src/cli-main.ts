/**
 * `perpx-devnet`: starts a local perpx network in this process. {@link runCli} is the program;
 * `cli.ts` runs it from the sources, `cli-launcher.ts` from the built bundle.
 *
 *   perpx-devnet start [--profile local|testnet|mainnet] [--block-time-ms N] [--state DIR]
 *                      [--json | --print-env]
 *                      [--host HOST] [--port-<server> N] [--faucet-window-ms N]
 *                      [--pruning-keep-recent N] [--markets N] [--subaccounts N] [--liquidity]
 *                      [--ibc-relay-delay-blocks N]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { endpointEnvValues, envTemplate } from "@perpx/core";
import type { DevnetProfile } from "./app/contract.js";
import { MAX_FUNDED_SUBACCOUNTS } from "./app/genesis/funded-subaccounts.js";
import { DEFAULT_MARKETS, MAX_MARKETS } from "./app/genesis/genesis-markets.js";
import { startDevnet } from "./devnet.js";
import { DevnetError, isDevnetError } from "./devnet-error.js";
import { DEFAULT_PORTS, type Devnet, type DevnetPorts } from "./devnet-options.js";
import { DEFAULT_FAUCET_COINS, DEFAULT_FAUCET_SUBACCOUNT_QUANTUMS } from "./servers/faucet.js";
import { MAX_BLOCK_TIME_MS } from "./servers/producer.js";
import { TLS_FILES } from "./servers/tls.js";

const PORT_FLAGS: Record<string, keyof DevnetPorts> = {
  "port-rpc": "rpc",
  "port-rest": "rest",
  "port-grpc": "grpc",
  "port-grpc-tls": "grpcTls",
  "port-evm": "evm",
  "port-evm-ws": "evmWs",
  "port-faucet": "faucet",
  "port-control": "control",
  "port-indexer": "indexer",
  "port-indexer-ws": "indexerWs",
  "port-source-l1": "sourceL1",
  "port-source-l2": "sourceL2",
};

const HELP = `perpx-devnet: a local perpx network in one process

Usage:
  perpx-devnet start [options]
  perpx-devnet --help

Options:
  --profile <name>        local (default), testnet or mainnet: chain id, EVM chain id, upgrade history
  --block-time-ms <n>     milliseconds between blocks, at most 2147483647 (default 1000; 0 = only on
                          demand)
  --state <dir>           persist the state there after every block and resume from it
  --json                  print one line {"ready":true,"endpoints":{...}} when ready, nothing else
  --print-env             print the devnet's .env when ready, nothing else: the variables of
                          @perpx/core's template for the profile, filled with this devnet's URLs
                          (perpx-devnet start --print-env > .env; a testnet's .env is the same file)
  --host <host>           interface to bind (default 127.0.0.1)
  --faucet-window-ms <n>  faucet rate limit: one request per address per n ms (default 10000)
  --pruning-keep-recent <n>
                          blocks kept in memory (default 1000; 0 = all); older ones are read from
                          the block log with --state, and pruned without it
  --markets <n>           markets at genesis, 3 to 500 (default 3: BTC-USD, ETH-USD, SOL-USD; more
                          are generated, the same every run, with the real listing's parameters)
  --subaccounts <n>       accounts whose subaccount 0 holds 100,000 USDC at genesis (default 0); the
                          key of the i-th is fundedSubaccountKey(i) of @perpx/devnet
  --liquidity             run a devnet-owned market maker: a ladder of resting orders around
                          every market's oracle price, so books and trades are never empty
  --ibc-relay-delay-blocks <n>
                          blocks between an outgoing IBC packet and its acknowledgement or timeout
                          by the simulated relayer, 0 to 100000 (default 2)
${Object.entries(PORT_FLAGS)
  .map(
    ([flag, key]) =>
      `  --${`${flag} <n>`.padEnd(22)}port of ${key} (default ${DEFAULT_PORTS[key]}; 0 = a free port)`,
  )
  .join("\n")}
`;

/** A command line that cannot be run as given (exit status 2). */
function usageError(message: string): DevnetError {
  return new DevnetError("invalid-argument", message);
}

function intFlag(
  name: string,
  value: string | undefined,
  max = Number.MAX_SAFE_INTEGER,
  min = 0,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) > max || Number(value) < min) {
    throw usageError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

/** A string flag that names something (a directory, an interface): an empty value is refused. */
function textFlag(name: string, value: string | boolean | undefined, what: string): string | undefined {
  if (typeof value !== "string") return undefined;
  if (value.trim() === "") throw usageError(`--${name} must be ${what}, got "${value}"`);
  return value;
}

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: "boolean", short: "h" },
      profile: { type: "string" },
      "block-time-ms": { type: "string" },
      state: { type: "string" },
      json: { type: "boolean" },
      "print-env": { type: "boolean" },
      host: { type: "string" },
      "faucet-window-ms": { type: "string" },
      "pruning-keep-recent": { type: "string" },
      markets: { type: "string" },
      subaccounts: { type: "string" },
      liquidity: { type: "boolean" },
      "ibc-relay-delay-blocks": { type: "string" },
      ...Object.fromEntries(Object.keys(PORT_FLAGS).map((flag) => [flag, { type: "string" as const }])),
    },
  });
  return { values: values as Record<string, string | boolean | undefined>, positionals };
}

function banner(devnet: Devnet, startedMs: number): string {
  const e = devnet.endpoints;
  const rows: Array<[string, string]> = [
    ["CometBFT RPC", `${e.nodeRpc}  (WebSocket ${e.nodeRpcWs})`],
    ["REST", e.nodeRest],
    ["gRPC", `${e.grpc}  (h2c)`],
    ["gRPC TLS", `${e.grpcTls}`],
    ["EVM JSON-RPC", `${e.evmRpc}  (WebSocket ${e.evmWs})`],
    ["Faucet", `${e.faucet}/faucet/tokens`],
    ["Control", `${e.devnetControl}/devnet/status`],
    ["Indexer REST", `${e.indexer}/v4`],
    ["Indexer WS", e.indexerWs],
    ["Source L1", `${e.sourceL1Rpc}  (bridge deposits)`],
    ["Source L2", `${e.sourceL2Rpc}  (bridge deposits)`],
  ];
  const faucet = DEFAULT_FAUCET_COINS.map((c) => `${c.amount} ${c.denom}`).join(" + ");
  const lines = [
    `perpx devnet ready in ${startedMs} ms: chain ${devnet.chainId} (EVM chain id ${devnet.evmChainId}, profile ${devnet.profile})`,
    "",
    ...rows.map(([name, url]) => `  ${name.padEnd(14)}${url}`),
    "",
    `  Faucet credits ${faucet} per request, and ${DEFAULT_FAUCET_SUBACCOUNT_QUANTUMS} quote quantums (USDC) to subaccount 0.`,
    devnet.stateDir === undefined
      ? "  State: in memory (use --state DIR to keep it)."
      : `  State: ${devnet.stateDir} (written after every block).`,
    "",
    "Test accounts (public keys: never use them outside a devnet):",
    ...devnet.accounts.flatMap((a) => [
      `  ${a.name.padEnd(6)}${a.address}  ${a.balances.map((b) => `${b.amount}${b.denom}`).join(", ")}`,
      `        ${a.mnemonic}`,
    ]),
    "",
    devnet.stateDir === undefined
      ? `gRPC TLS CA certificate (trust it as a CA to call ${e.grpcTls}):\n${devnet.caPem.trimEnd()}`
      : `gRPC TLS CA certificate: ${join(devnet.stateDir, TLS_FILES.cert)}`,
    "",
    "Press Ctrl-C to stop.",
  ];
  return lines.join("\n");
}

/** Resolves after the event loop's next poll, where a pending signal reaches its handler. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** What the caller of {@link runCli} hears about. */
export interface CliHooks {
  /** Called once, right after the ready line (or banner, or `.env`) is written. */
  onReady?: () => void;
  /**
   * Called once `start` has its own SIGINT and SIGTERM handlers in place, before it starts
   * anything: the caller removes the ones it installed for the time before (`holdEarlySignals`).
   */
  onSignalsHandled?: () => void;
}

async function start(values: Record<string, string | boolean | undefined>, hooks: CliHooks): Promise<void> {
  const printEnv = values["print-env"] === true;
  if (printEnv && values.json === true) throw usageError("--json and --print-env both own stdout: give one");
  const json = values.json === true || printEnv; // machine output only: no banner, no stop message
  const began = performance.now();
  const profile = (values.profile as string | undefined) ?? "local";
  if (profile !== "local" && profile !== "testnet" && profile !== "mainnet") {
    throw usageError(`--profile must be local, testnet or mainnet, got "${profile}"`);
  }
  const ports: Partial<DevnetPorts> = {};
  for (const [flag, key] of Object.entries(PORT_FLAGS)) {
    const port = intFlag(flag, values[flag] as string | undefined, 65535);
    if (port !== undefined) ports[key] = port;
  }
  const blockTimeMs = intFlag(
    "block-time-ms",
    values["block-time-ms"] as string | undefined,
    MAX_BLOCK_TIME_MS,
  );
  const stateDir = textFlag("state", values.state, "a directory");
  const host = textFlag("host", values.host, "an interface name or address");
  const faucetWindowMs = intFlag("faucet-window-ms", values["faucet-window-ms"] as string | undefined);
  const keepRecent = intFlag("pruning-keep-recent", values["pruning-keep-recent"] as string | undefined);
  const markets = intFlag(
    "markets",
    values.markets as string | undefined,
    MAX_MARKETS,
    DEFAULT_MARKETS.length,
  );
  const fundedSubaccounts = intFlag(
    "subaccounts",
    values.subaccounts as string | undefined,
    MAX_FUNDED_SUBACCOUNTS,
  );
  const ibcRelayDelayBlocks = intFlag(
    "ibc-relay-delay-blocks",
    values["ibc-relay-delay-blocks"] as string | undefined,
    100_000,
  );
  // Signal handlers go in before anything is printed: a parent that reads the ready line and
  // signals at once must find them installed.
  let devnet: Devnet | undefined;
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130);
    stopping = true;
    if (!json) console.log(`\n${signal}: stopping...`);
    if (devnet === undefined) return; // still starting: stops as soon as it is up
    devnet.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(
          `perpx-devnet: stopping failed: ${error instanceof Error ? error.message : String(error)}`,
        );
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
  hooks.onSignalsHandled?.();
  // A signal that arrived while the program loaded reaches its handler on the event loop's next
  // turn: it is taken before anything starts.
  await nextTurn();
  if (stopping) process.exit(0);

  const started = await startDevnet({
    profile: profile as DevnetProfile,
    ports,
    ...(blockTimeMs === undefined ? {} : { blockTimeMs }),
    ...(faucetWindowMs === undefined ? {} : { faucetWindowMs }),
    ...(keepRecent === undefined ? {} : { pruning: { keepRecent } }),
    ...(markets === undefined ? {} : { markets }),
    ...(fundedSubaccounts === undefined ? {} : { fundedSubaccounts }),
    ...(values.liquidity === true ? { liquidity: true } : {}),
    ...(ibcRelayDelayBlocks === undefined ? {} : { ibcRelayDelayBlocks }),
    ...(stateDir === undefined ? {} : { stateDir }),
    ...(host === undefined ? {} : { host }),
    onError: (error) =>
      console.error(`perpx-devnet: ${error instanceof Error ? error.message : String(error)}`),
  });
  // And one that arrived during the start, which may not have yielded to the loop: before the
  // ready line, so a stopped start never reports ready.
  await nextTurn();
  devnet = started;
  if (stopping) {
    await started.stop();
    process.exit(0);
  }
  const startedMs = Math.round(performance.now() - began);
  if (printEnv) {
    process.stdout.write(envTemplate(started.profile, endpointEnvValues({ ...started.endpoints })));
  } else if (json) {
    // `process.stdout.write`, not `console.log`: the same bytes, without the console's first-call
    // formatting (a start writes nothing else to stdout).
    process.stdout.write(
      `${JSON.stringify({
        ready: true,
        endpoints: started.endpoints,
        chainId: started.chainId,
        evmChainId: started.evmChainId,
        stateDir: started.stateDir ?? null,
        caPem: started.caPem,
        startedMs,
      })}\n`,
    );
  } else {
    process.stdout.write(`${banner(started, startedMs)}\n`);
  }
  hooks.onReady?.();
}

/**
 * Runs the `perpx-devnet` command line: parses `argv`, starts the devnet and prints its ready
 * line; exits the process on a usage error (status 2), a failed start (1) or a signal (0).
 *
 * @param argv - the arguments after the program name (`process.argv.slice(2)`).
 * @param hooks - called at ready (the built launcher saves its code cache there).
 * @returns when the devnet is ready; it runs until a signal stops it.
 */
export async function runCli(argv: string[], hooks: CliHooks = {}): Promise<void> {
  // A command line that cannot be parsed still owes `--json` its one failure line on stdout.
  const refuse = (message: string): never => {
    if (argv.includes("--json")) console.log(JSON.stringify({ ready: false, error: message }));
    console.error(`perpx-devnet: ${message}\n\n${HELP}`);
    process.exit(2);
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return refuse((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    console.log(HELP);
    process.exit(0);
  }
  if (positionals.length === 0) refuse('a command is required: "perpx-devnet start [options]"');
  const [command, ...rest] = positionals;
  if (command !== "start" || rest.length > 0) refuse(`unknown command "${positionals.join(" ")}"`);
  try {
    await start(values, hooks);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (values.json === true) console.log(JSON.stringify({ ready: false, error: message }));
    console.error(`perpx-devnet: ${message}`);
    process.exit(isDevnetError(error) && error.reason === "invalid-argument" ? 2 : 1);
  }
}
