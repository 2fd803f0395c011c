/**
 * Every TypeScript snippet of the README runs against a devnet (through the workspace aliases), and
 * every `expression; // <JS literal>` line is checked: the comment is the value.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readmeSnippets, withValueChecks } from "../../../tests/support/readme.js";
import { useDevnet } from "./support.js";

const net = useDevnet();
const snippets = readmeSnippets(new URL("../README.md", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "perpx-node-client-readme-"));
const saved = { ...process.env };
beforeAll(() => {
  // core's variables, with gRPC over the devnet's TLS port and its CA (the docs runner uses h2c)
  process.env.PERPX_NODE_RPC_URL = net.devnet.endpoints.nodeRpc;
  process.env.PERPX_NODE_REST_URL = net.devnet.endpoints.nodeRest;
  process.env.PERPX_GRPC_URL = net.devnet.endpoints.grpcTls;
  process.env.PERPX_GRPC_CA = net.devnet.caPem;
  process.env.PERPX_MNEMONIC_0 = net.devnet.accounts[0]!.mnemonic;
  process.env.PERPX_MNEMONIC_1 = net.devnet.accounts[1]!.mnemonic;
  process.env.PERPX_MNEMONIC_2 = net.devnet.accounts[2]!.mnemonic;
  process.env.PERPX_MNEMONIC_3 = net.devnet.accounts[3]!.mnemonic;
});
afterAll(() => {
  process.env = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe("README", () => {
  it("has snippets", () => {
    expect(snippets.length).toBeGreaterThanOrEqual(3);
  });

  it.each(snippets.map((code, index) => [index + 1, code] as const))(
    "snippet %i runs and shows true values",
    async (index, code) => {
      const { code: checked, checks } = withValueChecks(code);
      expect(checks).toBeGreaterThan(0);
      const file = join(dir, `snippet-${index}.ts`);
      writeFileSync(file, checked);
      await expect(import(/* @vite-ignore */ pathToFileURL(file).href)).resolves.toBeDefined();
    },
  );
});
