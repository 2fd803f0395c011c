/**
 * Connecting is one line: a devnet's own `endpoints` object and CA go to `connect` as they are (the
 * CA with the TLS gRPC port, the plain `grpc` as h2c without it), and a network that lacks its
 * required endpoints is refused once, naming every endpoint left unset with its variable.
 */
import {
  ENDPOINT_ENV_VARS,
  ENDPOINT_NAMES,
  isMissingEndpointError,
  type MissingEndpointError,
} from "@perpx/core";
import { getBalance } from "@perpx/node-client";
import { afterEach, describe, expect, it } from "vitest";
import { CompositeClient } from "../src/index.js";
import { useDevnet } from "./support.js";

const net = useDevnet({ liquidity: false });
const clients: CompositeClient[] = [];

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

describe("connect to a devnet in one line", () => {
  it("takes devnet.endpoints and devnet.caPem as written, with gRPC over TLS", async () => {
    const { devnet } = net;
    const wallet = net.wallets[0]!;
    const client = await CompositeClient.connect({
      endpoints: devnet.endpoints,
      grpcCaCert: devnet.caPem,
      wallet,
    });
    clients.push(client);
    expect(client.context.config.network.name).toBe("local");
    expect(client.context.config.endpoints.nodeRpc).toBe(devnet.endpoints.nodeRpc);
    const { node } = client.context;
    const usdc = await getBalance(node, { address: wallet.address, denom: "uusdc", transport: "grpc" });
    expect(usdc.amount > 0n).toBe(true);
    expect((await client.getMarket({ ticker: "BTC-USD" })).ticker).toBe("BTC-USD");
  });

  it("without a CA, takes the devnet's plain grpc endpoint as h2c", async () => {
    const { devnet } = net;
    const wallet = net.wallets[1]!;
    const client = await CompositeClient.connect({ endpoints: devnet.endpoints, wallet });
    clients.push(client);
    const usdc = await getBalance(client.context.node, {
      address: wallet.address,
      denom: "uusdc",
      transport: "grpc",
    });
    expect(usdc.amount > 0n).toBe(true);
  });
});

describe("a network without its endpoints", () => {
  it("PERPX_NETWORK=testnet and nothing else is refused naming every missing endpoint and its variable", async () => {
    const error = (await CompositeClient.connect({ env: { PERPX_NETWORK: "testnet" } }).catch(
      (e: unknown) => e,
    )) as MissingEndpointError;
    expect(isMissingEndpointError(error)).toBe(true);
    expect(error.network).toBe("testnet");
    expect(error.missing.map((m) => m.envVar)).toEqual(ENDPOINT_NAMES.map((name) => ENDPOINT_ENV_VARS[name]));
    expect(error.missing.filter((m) => m.required).map((m) => m.endpoint)).toEqual([
      "nodeRpc",
      "indexer",
      "indexerWs",
    ]);
    for (const name of ENDPOINT_NAMES) expect(error.message).toContain(ENDPOINT_ENV_VARS[name]);
  });
});
