#!/usr/bin/env node
// `pnpm devnet`: the devnet (`perpx-devnet start`, every argument passed on) and the explorer for it,
// together. The devnet package depends on no client, so the two run side by side: the devnet as a
// child process, the explorer here, pointed at the endpoints the devnet reports. The devnet's
// banner is printed with an `Explorer` row; with `--json`, its ready line gains `endpoints.explorer`.
//
//   node scripts/devnet.mjs [--explorer-port N] [--no-explorer] [perpx-devnet start options]
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const root = new URL("..", import.meta.url);
const args = process.argv.slice(2);

function takeFlag(name) {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const [, value] = args.splice(at, 2);
  return value;
}

const explorerPortText = takeFlag("--explorer-port");
const withoutExplorer = args.includes("--no-explorer");
if (withoutExplorer) args.splice(args.indexOf("--no-explorer"), 1);
const explorerPort = explorerPortText === undefined ? undefined : Number(explorerPortText);
if (explorerPortText !== undefined && !/^\d+$/.test(explorerPortText)) {
  process.stderr.write(
    `devnet: --explorer-port must be an integer from 0 to 65535, got "${explorerPortText}"\n`,
  );
  process.exit(2);
}
const json = args.includes("--json");

const child = spawn(
  process.execPath,
  [new URL("packages/devnet/bin/perpx-devnet.js", root).pathname, "start", ...args],
  {
    stdio: ["inherit", "pipe", "inherit"],
  },
);
let explorer;
let stopping = false;
const stop = (signal) => {
  stopping = true;
  child.kill(signal);
};
process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
child.on("exit", async (code, signal) => {
  await explorer?.close();
  process.exit(code ?? (signal ? 0 : 1));
});

/** Starts the explorer for `endpoints` (as the devnet reports them); resolves with its URL. */
async function startExplorerFor(endpoints) {
  const { explorerConfig, startExplorer } = await import(
    new URL("packages/explorer/dist/index.js", root).href
  );
  const config = explorerConfig({
    network: "local",
    endpoints: {
      nodeRpc: endpoints.nodeRpc,
      nodeRest: endpoints.nodeRest,
      indexer: endpoints.indexer,
      indexerWs: endpoints.indexerWs,
    },
  });
  explorer = await startExplorer({ config, ...(explorerPort === undefined ? {} : { port: explorerPort }) });
  return explorer.url;
}

// The banner is held until it is complete, to print it with the explorer's row in its table.
let held = [];
let ready = false;
const lines = createInterface({ input: child.stdout });
lines.on("line", async (line) => {
  if (ready || withoutExplorer || stopping) {
    process.stdout.write(`${line}\n`);
    return;
  }
  if (json) {
    ready = true;
    const message = JSON.parse(line);
    if (message.ready === true) {
      try {
        message.endpoints.explorer = await startExplorerFor(message.endpoints);
      } catch (error) {
        process.stderr.write(`devnet: the explorer did not start: ${error.message}\n`);
      }
    }
    process.stdout.write(`${JSON.stringify(message)}\n`);
    return;
  }
  held.push(line);
  if (line !== "Press Ctrl-C to stop.") return;
  ready = true;
  const control = held.map((l) => /^\s+Control\s+(\S+)\/devnet\/status$/.exec(l)?.[1]).find(Boolean);
  try {
    const status = await (await fetch(`${control}/devnet/status`)).json();
    const url = await startExplorerFor(status.endpoints);
    const at = held.findIndex((l) => /^\s+Indexer WS\s/.test(l));
    held.splice(at + 1, 0, `  ${"Explorer".padEnd(14)}${url}`);
  } catch (error) {
    held.push(`devnet: the explorer did not start: ${error.message}`);
  }
  process.stdout.write(`${held.join("\n")}\n`);
  held = [];
});
