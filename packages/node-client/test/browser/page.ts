/**
 * The page the Chromium test loads, bundled from the package's browser entry: it creates a wallet,
 * reads the chain over RPC (fetch and WebSocket) and gRPC-web, deposits, places a long-term order
 * and cancels it, and reports what it saw. Every value crosses back to the test as a string.
 */
// The package entry; the test bundles it for the browser (the `browser` condition picks the web
// sides of `#crypto-platform` and `#transport-platform`).
import { createNodeClient } from "../../src/index.js";
import { WebSocketRpcClient } from "../../src/tx.js";
import { LocalWallet } from "../../src/wallets.js";

/** What the test gives the page. */
export interface ScenarioConfig {
  rpc: string;
  rpcWebsocket: string;
  /** The node's API port, which serves gRPC-web. */
  grpcWeb: string;
  mnemonic: string;
}

/** What the page reports. */
export type ScenarioReport = Record<string, string | number | boolean | null>;

async function scenario(config: ScenarioConfig): Promise<ScenarioReport> {
  const report: ScenarioReport = {
    origin: (globalThis as unknown as { location: { origin: string } }).location.origin,
  };
  const wallet = LocalWallet.fromMnemonic(config.mnemonic);
  report.address = wallet.address;
  report.signerBackend = wallet.signerBackend;
  const client = createNodeClient({
    nodeRpc: config.rpc,
    grpc: config.grpcWeb,
    timeoutMs: 30_000,
    commitTimeoutMs: 90_000,
    pollIntervalMs: 100,
  });

  // Read the chain: height (RPC over fetch), a balance and a market (gRPC-web).
  const latest = await client.getLatestBlock();
  report.chainId = latest.chainId;
  report.height = latest.height.toString();
  report.balance = (await client.getBalance({ address: wallet.address, denom: "uusdc" })).amount.toString();
  const pair = (await client.getClobPairs())[0];
  if (pair === undefined || pair.metadata.case !== "perpetualClobMetadata")
    throw new Error("no perpetual market");
  const perpetual = await client.getPerpetual({ id: pair.metadata.value.perpetualId });
  report.ticker = perpetual.params?.ticker ?? null;
  report.oraclePrice = (
    await client.getMarketPrice({ id: perpetual.params?.marketId ?? 0 })
  ).price.toString();

  // The same over the browser's WebSocket, and a new-block subscription.
  const wsClient = createNodeClient({ nodeRpc: config.rpcWebsocket, timeoutMs: 30_000 });
  report.wsHeight = (await wsClient.getLatestBlock()).height.toString();
  wsClient.close();
  const socket = new WebSocketRpcClient({ url: config.rpcWebsocket });
  report.subscribedHeight = await new Promise<string>((resolve, reject) => {
    socket
      .subscribe({
        query: "tm.event='NewBlock'",
        onEvent: (data: unknown) => {
          const event = data as { value?: { block?: { header?: { height?: string } } } };
          resolve(String(event.value?.block?.header?.height));
        },
      })
      .catch(reject);
  });
  socket.disconnect();

  // Trade: collateral in, a long-term order placed (committed), found in state, cancelled.
  const subaccount = { owner: wallet.address, number: 0 };
  const deposit = await client.depositToSubaccount({
    signer: wallet,
    sender: wallet.address,
    recipient: subaccount,
    quantums: 10_000_000_000n,
  });
  report.depositCode = deposit.tx?.code ?? null;
  const now = await client.getLatestBlock();
  const goodTilBlockTime = Math.floor(now.time.getTime() / 1000) + 3_600;
  const clientId = 1 + Math.floor(Math.random() * 1_000_000);
  const order = { subaccount, clientId, clobPairId: pair.id, kind: "long-term" as const };
  const placed = await client.placeOrder({
    signer: wallet,
    ...order,
    side: "BUY",
    quantums: pair.stepBaseQuantums,
    subticks: BigInt(pair.subticksPerTick) * 1_000n,
    goodTilBlockTime,
  });
  report.placeCode = placed.tx?.code ?? null;
  report.placeHeight = placed.tx?.height?.toString() ?? null;
  const stored = await client.getStatefulOrder({ order });
  report.storedClientId = stored?.orderPlacement?.order?.orderId?.clientId ?? null;
  const cancelled = await client.cancelOrder({ signer: wallet, ...order, goodTilBlockTime });
  report.cancelCode = cancelled.tx?.code ?? null;
  report.goneAfterCancel = (await client.getStatefulOrder({ order })) === undefined;
  client.close();
  return report;
}

/** The entry point the test calls with `page.evaluate`. */
(globalThis as { perpxScenario?: (config: ScenarioConfig) => Promise<ScenarioReport> }).perpxScenario =
  async (config) => {
    try {
      return await scenario(config);
    } catch (error) {
      const e = error as Error;
      return { error: `${e.name}: ${e.message}\n${e.stack ?? ""}` };
    }
  };
