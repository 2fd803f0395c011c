import { Exact, resolveNetwork } from "@perpx/core";
import { type Devnet, type DevnetEndpoints, type StartDevnetOptions, startDevnet } from "@perpx/devnet";
import { isBroadcastTxError, type TxSigner } from "@perpx/node-client";
import { LocalWallet } from "@perpx/node-client/wallets";
import { afterAll, beforeAll, expect, vi } from "vitest";
import {
  CompositeClient,
  type ConnectOptions,
  type OrderHandle,
  type OrderResult,
  type OrderStatus,
} from "../src/index.js";

/** The devnet's endpoints under core's names (gRPC over TLS); an in-process devnet or a child's. */
export function endpointsOf(devnet: { endpoints: DevnetEndpoints }) {
  const { endpoints } = devnet;
  return {
    nodeRpc: endpoints.nodeRpc,
    nodeRest: endpoints.nodeRest,
    grpc: endpoints.grpcTls,
    faucet: endpoints.faucet,
    indexer: endpoints.indexer,
    indexerWs: endpoints.indexerWs,
    devnetControl: endpoints.devnetControl,
    sourceL1Rpc: endpoints.sourceL1Rpc,
    sourceL2Rpc: endpoints.sourceL2Rpc,
  };
}

/** A fresh wallet funded by the devnet's faucet (bank USDC and native tokens, and subaccount 0). */
export async function fundedWallet(devnet: Devnet): Promise<LocalWallet> {
  const wallet = LocalWallet.generate();
  const response = await fetch(`${devnet.endpoints.faucet}/faucet/tokens`, {
    method: "POST",
    body: JSON.stringify({ address: wallet.address }),
  });
  if (!response.ok) throw new Error(`the faucet refused: ${await response.text()}`);
  return wallet;
}

/** A devnet with a market maker for one test file, and composite clients connected to it. */
export interface TestNet {
  devnet: Devnet;
  /** Wallets of the devnet's funded accounts, in order. */
  wallets: LocalWallet[];
  /** Connects a client to the devnet (closed after the file). */
  connect(options?: ConnectOptions): Promise<CompositeClient>;
}

/** Starts a devnet (`liquidity: true`) on free ports before the file's tests and stops it after. */
export function useDevnet(options: StartDevnetOptions = {}): TestNet {
  const net = {} as TestNet;
  const clients: CompositeClient[] = [];
  beforeAll(async () => {
    net.devnet = await startDevnet({
      ports: "free",
      blockTimeMs: 100,
      faucetWindowMs: 0,
      liquidity: true,
      ...options,
    });
    net.wallets = net.devnet.accounts.map((a) => LocalWallet.fromMnemonic(a.mnemonic));
    net.connect = async (overrides = {}) => {
      const client = await CompositeClient.connect({
        network: "local",
        grpcCaCert: net.devnet.caPem,
        pollIntervalMs: 50,
        marketRefreshIntervalMs: 1_000,
        ...overrides,
        endpoints: { ...endpointsOf(net.devnet), ...overrides.endpoints },
      });
      clients.push(client);
      return client;
    };
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await net.devnet?.stop();
  });
  return net;
}

/** POSTs `body` to the devnet's control route `/devnet<path>`. @returns its JSON answer; throws on a refusal. */
export async function devnetControl(
  net: TestNet,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${net.devnet.endpoints.devnetControl}/devnet${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * The free collateral `client` reports (`account`) is what the chain lets `wallet` withdraw: a
 * client on the node alone (margin terms from the chain) reports the same equity and free
 * collateral, one quote quantum more is refused, exactly it is accepted, and both then read "0".
 */
export async function expectFreeCollateralWithdrawable(
  net: TestNet,
  client: CompositeClient,
  wallet: LocalWallet,
  account: { equity: string; freeCollateral: string | undefined },
): Promise<void> {
  const hang = { timeout: 30_000, interval: 50 };
  const nodeOnly = await net.connect({
    wallet,
    network: {
      network: resolveNetwork({ network: "local" }).network,
      endpoints: { nodeRpc: net.devnet.endpoints.nodeRpc },
    },
  });
  const fromNode = await nodeOnly.account();
  expect(fromNode.source).toBe("node");
  expect([fromNode.equity, fromNode.freeCollateral]).toEqual([account.equity, account.freeCollateral]);
  const amount = new Exact(account.freeCollateral as string);
  const over = await client.withdraw({ amount: amount.plus("0.000001").toFixed() }).catch((e: unknown) => e);
  expect(isBroadcastTxError(over), String(over)).toBe(true);
  const withdrawn = await client.withdraw({ amount: amount.toFixed() }).catch((e: unknown) => e);
  expect(isBroadcastTxError(withdrawn), String(withdrawn)).toBe(false);
  await vi.waitFor(async () => expect((await client.account()).freeCollateral).toBe("0"), hang);
  expect((await nodeOnly.account()).freeCollateral).toBe("0");
}

/** A signer over `wallet` that records every sign document it is asked to sign. */
export function recordingSigner(wallet: LocalWallet): { signer: TxSigner; signed: unknown[] } {
  const signed: unknown[] = [];
  return {
    signed,
    signer: {
      address: wallet.address,
      publicKey: wallet.publicKey,
      keyType: wallet.keyType,
      signDirect: (doc, bytes) => {
        signed.push(doc);
        return wallet.signDirect(doc, bytes);
      },
    },
  };
}

/**
 * Follows `handle` until it reports `status` (or a final state) and returns that state: a wait for
 * the state however long a loaded machine takes, where `result({ timeoutMs })` would answer
 * whatever it had seen when its time ran out. The test's own timeout is the only hang guard.
 */
export async function reachState(handle: OrderHandle, status: OrderStatus): Promise<OrderResult> {
  for await (const state of handle.updates()) if (state.status === status || state.final) return state;
  throw new Error(`order ${handle.clientId} stopped reporting before ${status}`);
}
