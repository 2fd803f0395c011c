import { local } from "@perpx/core";
import { type Devnet, type StartDevnetOptions, startDevnet } from "@perpx/devnet";
import { afterAll, beforeAll } from "vitest";
import {
  type BoundActions,
  createNodeClient,
  type NodeClient,
  type NodeClientOptions,
} from "../src/index.js";
import { type QueryActions, queryActions } from "../src/queries.js";
import { LocalWallet } from "../src/wallets.js";

/** Options of `makeClient`: any option, or `undefined` to drop the default. */
export type Overrides = { [K in keyof NodeClientOptions]?: NodeClientOptions[K] | undefined };

/** A node client with the chain-module queries of `@perpx/node-client/queries` as methods too. */
export type TestClient = NodeClient & BoundActions<QueryActions>;

/** A devnet for one test file, with wallets for its funded accounts. */
export interface TestNet {
  devnet: Devnet;
  /** Wallets of the devnet's funded accounts, in order. */
  wallets: LocalWallet[];
  /** A client over RPC, REST and gRPC (TLS with the devnet's CA). */
  client: TestClient;
  /** Makes another client; every option can be overridden (`undefined` removes a default). */
  makeClient(options?: Overrides): TestClient;
}

/** Starts a devnet on free ports before the file's tests and stops it after. */
export function useDevnet(options: StartDevnetOptions = {}): TestNet {
  const net = {} as TestNet;
  const clients: NodeClient[] = [];
  beforeAll(async () => {
    net.devnet = await startDevnet({ ports: "free", blockTimeMs: 50, faucetWindowMs: 0, ...options });
    net.wallets = net.devnet.accounts.map((a) => LocalWallet.fromMnemonic(a.mnemonic));
    net.makeClient = (overrides = {}) => {
      const merged: Overrides = {
        nodeRpc: net.devnet.endpoints.nodeRpc,
        nodeRest: net.devnet.endpoints.nodeRest,
        grpc: { url: net.devnet.endpoints.grpcTls, caCert: net.devnet.caPem },
        ...(net.devnet.profile === "local" ? { network: local } : {}),
        pollIntervalMs: 25,
        commitTimeoutMs: 20_000,
        ...overrides,
      };
      const options = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
      const client = createNodeClient(options as NodeClientOptions).extend(queryActions);
      clients.push(client);
      return client;
    };
    net.client = net.makeClient();
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await net.devnet?.stop();
  });
  return net;
}
