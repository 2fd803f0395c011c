/**
 * Devnet start to ready, the command line as a user runs it (`perpx-devnet start`, every port free,
 * `--json`: the clock stops at its ready line), beside a bare `node -e 0` (spawn to exit), rounds
 * interleaved; medians. Uses the built CLI: `pnpm --filter @perpx/devnet run build` first.
 * Run alone: `npx vitest bench --run --project bench table/startup`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { bench, describe } from "vitest";
import { fmt, interleave, median, ONE_CALL, once, QUICK, report, timed } from "./harness.js";

const CLI = fileURLToPath(new URL("../../packages/devnet/bin/perpx-devnet.js", import.meta.url));
const PORT_FLAGS = [
  "rpc",
  "rest",
  "grpc",
  "grpc-tls",
  "evm",
  "evm-ws",
  "faucet",
  "control",
  "indexer",
  "indexer-ws",
  "source-l1",
  "source-l2",
].flatMap((name) => [`--port-${name}`, "0"]);

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

/** Spawns the devnet and resolves at its ready line; stops it afterwards (outside the clock). */
async function devnetStart(): Promise<number> {
  let child: ChildProcess | undefined;
  const ms = await timed(
    () =>
      new Promise<void>((resolve, reject) => {
        child = spawn(process.execPath, [CLI, "start", "--json", "--block-time-ms", "1000", ...PORT_FLAGS], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        child.stdout?.on("data", (chunk: Buffer) => {
          out += chunk.toString("utf8");
          if (out.includes("\n")) {
            if (out.includes('"ready":true')) resolve();
            else reject(new Error(`the devnet did not start: ${out}`));
          }
        });
        child.once("exit", (code) => reject(new Error(`the devnet exited (${code}) before ready`)));
      }),
  );
  if (child !== undefined) {
    child.kill("SIGTERM");
    await exited(child);
  }
  return ms;
}

async function bareNode(): Promise<number> {
  return timed(async () => {
    const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
    await exited(child);
  });
}

describe("devnet start to ready vs a bare node start", () => {
  bench(
    "perpx-devnet start (interleaved with node -e 0)",
    once(async () => {
      const rounds = QUICK ? 6 : 15;
      const { devnet, node } = await interleave(rounds, { devnet: devnetStart, node: bareNode });
      const ours = median(devnet);
      const floor = median(node);
      const ratio = ours / floor;
      report({
        id: "1-startup",
        metric: "devnet start to ready (CLI)",
        floor: `${fmt(floor, "ms")} (node -e 0)`,
        ours: fmt(ours, "ms"),
        ratio: `${ratio.toFixed(2)}x`,
        goal: "<= 2x",
        met: ratio <= 2,
        note: `${rounds} interleaved rounds, medians`,
      });
    }),
    ONE_CALL,
  );
});
