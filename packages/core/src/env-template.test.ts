import { readFileSync } from "node:fs";
import { isInvalidArgumentError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import { ENDPOINT_NAMES, ENDPOINT_VARIABLES, OTHER_ENV_VARS } from "./endpoint-table.js";
import { resolveNetwork } from "./endpoints.js";
import { endpointEnvValues, envTemplate } from "./env-template.js";
import { NETWORK_NAMES } from "./networks.js";

/** Parses the assignments of a template, commented (`# NAME=`) or not. */
function assignments(text: string): Map<string, { value: string; commented: boolean }> {
  const out = new Map<string, { value: string; commented: boolean }>();
  for (const match of text.matchAll(/^(# )?(PERPX_[A-Z0-9_]+)=(.*)$/gm)) {
    out.set(match[2]!, { value: match[3]!, commented: match[1] !== undefined });
  }
  return out;
}

describe("envTemplate", () => {
  it("matches the committed template of every network (regenerate: node scripts/env-templates.mjs)", () => {
    for (const network of NETWORK_NAMES) {
      const file = new URL(`../env/${network}.env.example`, import.meta.url);
      expect(readFileSync(file, "utf8"), `${network}.env.example`).toBe(envTemplate(network));
    }
  });

  it("lists every endpoint variable with its purpose, required ones set and optional ones commented", () => {
    const text = envTemplate("testnet");
    const vars = assignments(text);
    for (const name of ENDPOINT_NAMES) {
      const row = ENDPOINT_VARIABLES[name];
      expect(vars.get(row.envVar), row.envVar).toEqual({ value: "", commented: !row.required });
      expect(text).toContain(`# ${name}: ${row.purpose}\n`);
    }
    expect(vars.get("PERPX_NETWORK")).toEqual({ value: "testnet", commented: false });
    for (const [name, row] of Object.entries(OTHER_ENV_VARS))
      expect(vars.has(name), name).toBe(row.inTemplate);
  });

  it("fills the local template with the devnet's default ports, and resolves as written", () => {
    const vars = assignments(envTemplate("local"));
    expect(vars.get("PERPX_NODE_RPC_URL")).toEqual({ value: "http://127.0.0.1:26657", commented: false });
    const env = Object.fromEntries([...vars].filter(([, v]) => !v.commented).map(([k, v]) => [k, v.value]));
    const config = resolveNetwork({ env, requireEndpoints: true });
    expect(config.network.name).toBe("local");
    expect(config.endpoints.indexerWs).toBe("ws://127.0.0.1:3003");
  });

  it("writes given values (a running devnet's), ignoring keys that are not endpoints", () => {
    const values = endpointEnvValues({ nodeRpc: "http://127.0.0.1:4000", grpcTls: "https://127.0.0.1:4001" });
    expect(values).toEqual({ PERPX_NODE_RPC_URL: "http://127.0.0.1:4000" });
    const vars = assignments(envTemplate("local", { ...values, PERPX_MCP_URL: "http://127.0.0.1:4002" }));
    expect(vars.get("PERPX_NODE_RPC_URL")?.value).toBe("http://127.0.0.1:4000");
    expect(vars.get("PERPX_MCP_URL")).toEqual({ value: "http://127.0.0.1:4002", commented: false });
  });

  it("refuses a value on several lines, naming it", () => {
    let error: unknown;
    try {
      envTemplate("testnet", { PERPX_GRPC_CA: "-----BEGIN\nCERT" });
    } catch (e) {
      error = e;
    }
    expect(isInvalidArgumentError(error) && error.argument).toBe("values.PERPX_GRPC_CA");
  });
});
