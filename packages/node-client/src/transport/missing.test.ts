import { ENDPOINT_ENV_VARS, isMissingEndpointError, type MissingEndpointError } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { createNodeClient } from "../client.js";
import { queryActions } from "../queries.js";
import { LocalWallet } from "../wallet/localWallet.js";

const ADDRESS = LocalWallet.fromPrivateKey("07".repeat(32)).address;

async function rejection(call: () => Promise<unknown>): Promise<MissingEndpointError> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isMissingEndpointError(error)).toBe(true);
  return error as MissingEndpointError;
}

describe("a call without the transport it needs", () => {
  it("names the real client options and core's variables", async () => {
    const client = createNodeClient({ nodeRest: "http://127.0.0.1:9" });
    const query = await rejection(() => client.getBalances({ address: ADDRESS }));
    expect(query.envVar).toBe(ENDPOINT_ENV_VARS.grpc);
    expect(query.message).toContain("Pass the grpc or nodeRpc option of createNodeClient");
    expect(query.message).toContain('getEndpoint(config, "nodeRpc") reads PERPX_NODE_RPC_URL');
    const block = await rejection(() => client.getLatestBlock({ transport: "rpc" }));
    expect(block.envVar).toBe("PERPX_NODE_RPC_URL");
    expect(block.message).not.toMatch(/endpoints\.|PERPX_GRPC\b|PERPX_NODE_RPC\b/);
    const onlyGrpc = createNodeClient({ grpc: "http://127.0.0.1:9" }).extend(queryActions);
    const fact = await rejection(() => onlyGrpc.getNodeInfo({ transport: "rest" }));
    expect([fact.endpoint, fact.envVar]).toEqual(["nodeRest", ENDPOINT_ENV_VARS.nodeRest]);
    onlyGrpc.close();
    client.close();
  });
});
