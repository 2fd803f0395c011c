/**
 * Opens the network an example runs on, the same way for every example:
 *
 * - `PERPX_NETWORK` unset: a devnet started in this process on free ports, with its market maker
 *   (`--liquidity`) so books and trades are never empty; stopped when the example ends.
 * - `PERPX_NETWORK=local|testnet|mainnet`: that network, with the endpoints of the preset or of
 *   the `PERPX_*_URL` variables of `@perpx/core`'s endpoint table.
 *
 * The wallet is `PERPX_MNEMONIC`'s (index 0), or on a devnet without one its first test account.
 * On a network with a faucet (devnet, testnet), a subaccount with less USDC than the example needs
 * is topped up from the faucet first.
 */
import { CompositeClient, type ConnectOptions } from "@perpx/composite-client";
import { type NetworkName, resolveNetwork, usdcToQuoteQuantums } from "@perpx/core";
import { type Devnet, GENESIS_ACCOUNTS, startDevnet } from "@perpx/devnet";
import { LocalWallet } from "@perpx/node-client/wallets";
import { patiently } from "./wait.js";

/** What an example gets: a connected client with a wallet, and where it runs. */
export interface ExampleNetwork {
  /** The network's name (`local` for a devnet). */
  readonly name: NetworkName;
  /** The client, connected with {@link ExampleNetwork.wallet}. */
  readonly client: CompositeClient;
  /** The wallet that trades. */
  readonly wallet: LocalWallet;
  /** The indexer's WebSocket URL, when the network has one. */
  readonly indexerWs: string | undefined;
  /** The devnet, when this process started it. */
  readonly devnet: Devnet | undefined;
  /** Connects another client to the same network (e.g. with another wallet); closed with the network. */
  connect(
    options?: Pick<ConnectOptions, "wallet" | "credential" | "subaccountNumber">,
  ): Promise<CompositeClient>;
  /** Closes every client and stops the devnet this process started. */
  close(): Promise<void>;
}

/** Options of {@link openNetwork}. */
export interface OpenNetworkOptions {
  /** USDC the wallet's subaccount 0 should hold; topped up from the faucet when it holds less. @default "100" */
  readonly collateral?: string;
}

function walletOf(name: NetworkName): LocalWallet {
  const mnemonic = process.env.PERPX_MNEMONIC?.trim();
  if (mnemonic) return LocalWallet.fromMnemonic(mnemonic);
  const first = GENESIS_ACCOUNTS[0];
  if (name === "local" && first) return LocalWallet.fromMnemonic(first.mnemonic);
  throw new Error(`on ${name}, set PERPX_MNEMONIC to the 24 words of the wallet the examples trade with`);
}

async function startLocalDevnet(): Promise<{ devnet: Devnet; base: ConnectOptions }> {
  const devnet = await startDevnet({ ports: "free", blockTimeMs: 200, faucetWindowMs: 0, liquidity: true });
  // The devnet's endpoints and CA as they are: gRPC goes to its TLS port, which that CA signed.
  return { devnet, base: { endpoints: devnet.endpoints, grpcCaCert: devnet.caPem, pollIntervalMs: 100 } };
}

/**
 * Connects, and connects again when the node did not answer one of the first requests in time (a
 * loaded machine): an example waits for the network to answer, bounded only by a hang guard. For a
 * network the example starts itself (a fork); {@link ExampleNetwork.connect} reaches the example's.
 *
 * @example
 * ```ts
 * const paper = await connectPatiently({ network: "local", endpoints: fork.devnet.endpoints, wallet });
 * ```
 */
export function connectPatiently(options: ConnectOptions): Promise<CompositeClient> {
  return patiently(() => CompositeClient.connect(options));
}

/**
 * Opens the network (see the module's comment) and connects a client with the wallet.
 *
 * @example
 * ```ts
 * const net = await openNetwork();
 * const btc = await net.client.getMarket({ ticker: "BTC-USD" });
 * await net.close();
 * ```
 */
async function openNetwork(options: OpenNetworkOptions = {}): Promise<ExampleNetwork> {
  const fromEnv = process.env.PERPX_NETWORK?.trim();
  const started = fromEnv ? undefined : await startLocalDevnet();
  const base: ConnectOptions = started?.base ?? { env: process.env, pollIntervalMs: 250 };
  // Every endpoint the network lacks, named at once (required ones refuse it), before connecting.
  const config = resolveNetwork({ env: base.env, endpoints: base.endpoints, requireEndpoints: true });
  const name = config.network.name;
  const clients: CompositeClient[] = [];
  const connect = async (extra: Pick<ConnectOptions, "wallet" | "credential" | "subaccountNumber"> = {}) => {
    const client = await connectPatiently({ ...base, ...extra });
    clients.push(client);
    return client;
  };
  const close = async () => {
    for (const client of clients) client.close();
    await started?.devnet.stop();
  };
  try {
    const wallet = walletOf(name);
    const client = await connect({ wallet });
    const collateral = options.collateral ?? "100";
    if (
      config.endpoints.faucet &&
      usdcToQuoteQuantums((await client.account()).usdc) < usdcToQuoteQuantums(collateral)
    ) {
      await client.faucet();
    }
    return {
      name,
      client,
      wallet,
      indexerWs: config.endpoints.indexerWs,
      devnet: started?.devnet,
      connect,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Runs an example: opens the network, runs `main` with it, closes everything however it ends, and
 * exits non-zero (with the error on stderr) when it failed.
 *
 * @example
 * ```ts
 * await runExample(async ({ client }) => console.log(client.height()));
 * ```
 */
export async function runExample(
  main: (net: ExampleNetwork) => Promise<void>,
  options: OpenNetworkOptions = {},
): Promise<void> {
  const net = await openNetwork(options);
  try {
    await main(net);
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    await net.close();
  }
}
