/**
 * Every example under `examples/src/tasks/` runs (on the built packages, as `pnpm example <name>`
 * does), exits 0 and prints its expected lines (see `support/examples.ts`): all of them against
 * one devnet named by `PERPX_NETWORK=local` and the `PERPX_*_URL` variables, each with a fresh
 * wallet (`PERPX_MNEMONIC`) the example's harness funds from the faucet; one of them also with
 * `PERPX_NETWORK` unset, on the devnet it starts in its own process.
 */
import { join } from "node:path";
import { ENDPOINT_ENV_VARS } from "@perpx/core";
import { type Devnet, startDevnet } from "@perpx/devnet";
import { generateMnemonic24 } from "@perpx/node-client/wallets";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  exampleNames,
  expectedLines,
  missingLine,
  patternOf,
  runExamplesScript,
  type ScriptRun,
} from "./support/examples.js";

/**
 * How long one example may run before it is called hung and killed: a guard, never a claim on
 * speed (five run at once; on a loaded machine each takes well over a minute).
 */
const HANG_GUARD_MS = 300_000;
/** The vitest timeout of one example: longer than the guard, so the guard's report is what fails. */
const EXAMPLE_TIMEOUT_MS = HANG_GUARD_MS + 30_000;

/** Runs one example task; one that hangs is killed by the guard. */
function runExample(name: string, env: NodeJS.ProcessEnv): Promise<ScriptRun> {
  return runExamplesScript(join("src", "tasks", `${name}.ts`), env, HANG_GUARD_MS);
}

/** The environment without any PERPX_ variable of the machine running the tests. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PERPX_")));
}

describe("the expected-lines format", () => {
  it("turns placeholders into wildcards and keeps the rest literal", () => {
    expect(patternOf("order <id>: RESTING").test("order 17: RESTING")).toBe(true);
    expect(patternOf("order <id>: RESTING").test("order : RESTING")).toBe(false);
    expect(patternOf("price 1.5 (x)").test("price 105 (x)")).toBe(false);
    expect(missingLine("a\nb 1\nc\n", [patternOf("a"), patternOf("c")])).toBeUndefined();
    expect(missingLine("c\na\n", [patternOf("a"), patternOf("c")])?.source).toBe("^c$");
  });

  it("every example lists its expected output", () => {
    const names = exampleNames();
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const name of names) expect(expectedLines(name).length, name).toBeGreaterThan(0);
  });
});

describe("the examples", () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ ports: "free", blockTimeMs: 200, faucetWindowMs: 0, liquidity: true });
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  function networkEnv(): NodeJS.ProcessEnv {
    const { endpoints } = devnet;
    const urls = {
      nodeRpc: endpoints.nodeRpc,
      nodeRest: endpoints.nodeRest,
      grpc: endpoints.grpc,
      faucet: endpoints.faucet,
      indexer: endpoints.indexer,
      indexerWs: endpoints.indexerWs,
      devnetControl: endpoints.devnetControl,
      sourceL1Rpc: endpoints.sourceL1Rpc,
      sourceL2Rpc: endpoints.sourceL2Rpc,
    } as const;
    const env: NodeJS.ProcessEnv = {
      ...cleanEnv(),
      PERPX_NETWORK: "local",
      PERPX_MNEMONIC: generateMnemonic24(),
    };
    for (const [name, url] of Object.entries(urls)) env[ENDPOINT_ENV_VARS[name as keyof typeof urls]] = url;
    return env;
  }

  it.concurrent.each(exampleNames())(
    "%s runs against a devnet named by PERPX_NETWORK and prints its lines",
    async (name) => {
      const { code, stdout, stderr } = await runExample(name, networkEnv());
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(missingLine(stdout, expectedLines(name)), stdout).toBeUndefined();
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it(
    "markets runs with PERPX_NETWORK unset, on a devnet it starts in its own process",
    async () => {
      const { code, stdout, stderr } = await runExample("markets", cleanEnv());
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(missingLine(stdout, expectedLines("markets")), stdout).toBeUndefined();
    },
    EXAMPLE_TIMEOUT_MS,
  );
});
