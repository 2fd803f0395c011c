#!/usr/bin/env node
/**
 * `perpx-fork`: forks a live network into a local devnet and shadows its market.
 *
 *   perpx-fork start --from testnet|mainnet|local [--account ADDRESS]... [--shadow | --no-shadow]
 *                    [--test-accounts] [--state DIR] [--json] [--host HOST] [--free-ports] [--block-time-ms N]
 *
 * Endpoints of the live network come from `@perpx/core`'s network table and the `PERPX_*_URL`
 * variables (`PERPX_NODE_RPC_URL` or `PERPX_GRPC_URL`, `PERPX_INDEXER_URL`, `PERPX_INDEXER_WS_URL`).
 */
import { parseArgs } from "node:util";
import { isNetworkName } from "@perpx/core";
import { startFork } from "./start.js";

const HELP = `perpx-fork: fork a live perpx network and trade its real prices on paper

Usage:
  perpx-fork start --from <network> [options]
  perpx-fork --help

Options:
  --from <network>     testnet, mainnet or local: the live network (its endpoints from the
                       PERPX_*_URL variables and the network table)
  --account <address>  copy this account (perpx1... or 0x...); repeatable
  --test-accounts      also create the devnet's five funded test accounts (public mnemonics)
  --shadow             follow the live oracle, book and trades (the default)
  --no-shadow          start from the live state and follow nothing
  --state <dir>        persist the fork there; a directory holding a fork resumes it
  --json               print one line {"ready":true,"fork":true,...} when ready, nothing else
  --host <host>        interface to bind (default 127.0.0.1)
  --free-ports         free ports for every server (default: the devnet's default ports)
  --block-time-ms <n>  milliseconds between the fork's blocks (default 1000)
`;

function fail(message: string, code: number): never {
  process.stderr.write(`perpx-fork: ${message}\n`);
  process.exit(code);
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        from: { type: "string" },
        account: { type: "string", multiple: true },
        "test-accounts": { type: "boolean" },
        shadow: { type: "boolean" },
        "no-shadow": { type: "boolean" },
        state: { type: "string" },
        json: { type: "boolean" },
        host: { type: "string" },
        "free-ports": { type: "boolean" },
        "block-time-ms": { type: "string" },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    fail((error as Error).message, 2);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    process.stdout.write(HELP);
    return;
  }
  if (positionals[0] !== "start" || positionals.length !== 1) fail(`unknown command; see --help\n${HELP}`, 2);
  const from = values.from;
  if (typeof from !== "string" || !isNetworkName(from)) fail("--from must be testnet, mainnet or local", 2);
  if (values.shadow === true && values["no-shadow"] === true)
    fail("--shadow and --no-shadow exclude each other", 2);
  const blockTime = values["block-time-ms"];
  if (blockTime !== undefined && (typeof blockTime !== "string" || !/^\d+$/.test(blockTime))) {
    fail("--block-time-ms must be a non-negative integer", 2);
  }
  const accounts = (values.account ?? []) as string[];
  const json = values.json === true;
  try {
    const fork = await startFork({
      from,
      env: process.env,
      accounts,
      shadow: values["no-shadow"] !== true,
      ...(values["test-accounts"] === true ? { testAccounts: true } : {}),
      ...(typeof values.state === "string" ? { stateDir: values.state } : {}),
      ...(typeof values.host === "string" ? { host: values.host } : {}),
      ...(values["free-ports"] === true ? { ports: "free" as const } : {}),
      ...(typeof blockTime === "string" ? { blockTimeMs: Number(blockTime) } : {}),
      // Background errors and refused live trades: logged, the fork keeps running.
      onError: (error) =>
        process.stderr.write(`perpx-fork: ${error instanceof Error ? error.message : String(error)}\n`),
    });
    const { devnet, state } = fork;
    if (json) {
      process.stdout.write(
        `${JSON.stringify({
          ready: true,
          fork: true,
          source: state.source,
          height: state.height.toString(),
          chainId: devnet.chainId,
          moniker: devnet.app.info.moniker,
          resumed: fork.resumed,
          fromPreset: state.fromPreset ?? [],
          endpoints: devnet.endpoints,
        })}\n`,
      );
    } else {
      const lines = [
        `*** ${devnet.app.info.moniker}: a FORK of ${state.source} at height ${state.height}. NOT the real network. ***`,
        `chain id ${devnet.chainId} (the live one's), ${state.markets.length} markets, ${state.accounts.length} forked accounts${fork.resumed ? " (resumed)" : ""}`,
        state.testAccounts === true
          ? `the devnet's ${devnet.accounts.length} test accounts too (public mnemonics: paper money only)`
          : "no devnet test accounts (--test-accounts adds them)",
        ...(state.fromPreset === undefined || state.fromPreset.length === 0
          ? []
          : [
              `${state.fromPreset.join(" and ")} from the ${state.profile} preset: the live network did not answer them`,
            ]),
        `shadow: ${fork.shadow === undefined ? "off" : "following the live oracle, book and trades"}`,
        ...Object.entries(devnet.endpoints).map(([name, url]) => `  ${name.padEnd(14)} ${url}`),
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
    }
    const stop = () => {
      fork.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (json) process.stdout.write(`${JSON.stringify({ ready: false, error: message })}\n`);
    fail(message, 1);
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error), 1));
