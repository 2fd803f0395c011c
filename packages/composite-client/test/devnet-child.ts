/**
 * The devnet as a child process (`perpx-devnet start --json`, its built CLI), to be killed with
 * SIGKILL and started again on the same ports and state directory.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { DevnetEndpoints } from "@perpx/devnet";
import { sparePorts } from "../../../tests/support/spare-ports.js";

/** The CLI's port flag of each endpoint (the RPC's WebSocket shares the RPC's port). */
const PORT_FLAGS: Record<Exclude<keyof DevnetEndpoints, "nodeRpcWs">, string> = {
  nodeRpc: "--port-rpc",
  nodeRest: "--port-rest",
  grpc: "--port-grpc",
  grpcTls: "--port-grpc-tls",
  evmRpc: "--port-evm",
  evmWs: "--port-evm-ws",
  faucet: "--port-faucet",
  devnetControl: "--port-control",
  indexer: "--port-indexer",
  indexerWs: "--port-indexer-ws",
  sourceL1Rpc: "--port-source-l1",
  sourceL2Rpc: "--port-source-l2",
};

/** A running devnet child. */
export interface DevnetChild {
  endpoints: DevnetEndpoints;
  caPem: string;
  /** The port flags that start another devnet on the same ports. */
  portFlags: string[];
  /** Kills it with SIGKILL and resolves once it exited. */
  kill(): Promise<void>;
}

const bin = join(
  dirname(createRequire(import.meta.url).resolve("@perpx/devnet/package.json")),
  "bin/perpx-devnet.js",
);
const children = new Set<ChildProcess>();

/** The `--json` ready line's fields, or undefined for a line that is not JSON. */
function readyOf(line: string): { endpoints?: DevnetEndpoints; caPem: string } | undefined {
  try {
    return JSON.parse(line) as { endpoints?: DevnetEndpoints; caPem: string };
  } catch {
    return undefined;
  }
}

/** Kills (SIGKILL) every devnet child still running; for `afterAll`. */
export function killDevnetChildren(): void {
  for (const child of children) child.kill("SIGKILL");
}

/**
 * Starts `perpx-devnet start --json` with `args` and resolves on its ready line. Its ports are
 * `portFlags`, else spare ones (below the ephemeral range, so that no parallel test takes one while
 * the devnet is down). The bound (120 s) only catches a devnet that never starts.
 */
export async function startDevnetChild(args: string[], portFlags?: string[]): Promise<DevnetChild> {
  const flags = Object.values(PORT_FLAGS);
  const ports = portFlags ?? (await sparePorts(flags.length)).flatMap((port, i) => [flags[i]!, String(port)]);
  const child = spawn(process.execPath, [bin, "start", "--json", ...ports, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  // 'close', not 'exit': the pipes may still hold the child's last output when it exits.
  const exited = new Promise<void>((resolve) =>
    child.once("close", () => {
      children.delete(child);
      resolve();
    }),
  );
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; stderr: ${err}`)), 120_000);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the devnet exited before it was ready; stderr: ${err}`));
    });
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const newline = out.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners("data");
      child.stdout!.resume();
      const line = out.slice(0, newline);
      const ready = readyOf(line);
      const endpoints = ready?.endpoints;
      if (ready === undefined || endpoints === undefined) {
        reject(new Error(`the devnet's first line is no ready line: ${line}; stderr: ${err}`));
        return;
      }
      resolve({
        endpoints,
        caPem: ready.caPem,
        portFlags: Object.entries(PORT_FLAGS).flatMap(([key, flag]) => [
          flag,
          new URL(endpoints[key as keyof typeof PORT_FLAGS]).port,
        ]),
        kill: async () => {
          child.kill("SIGKILL");
          await exited;
        },
      });
    });
  });
}
