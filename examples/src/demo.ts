/**
 * The perpx demo (`npm run demo`): a devnet started in this process with its market maker
 * (`--liquidity`), two fresh wallets funded from its faucet, and a round of trading through
 * `@perpx/composite-client` in human units: the BTC-USD book printed live from the indexer's feed
 * as it changes, a resting limit sell, a market buy that crosses it within a slippage bound, the
 * fill seen on the account feed and through both order handles, positions, equity and PnL, a stop
 * order placed and cancelled, and the position closed.
 */

import {
  CompositeClient,
  formatPrice,
  formatUsd,
  type OrderHandle,
  type OrderResult,
} from "@perpx/composite-client";
import { type EndpointName, Exact, stepSize, tickSize } from "@perpx/core";
import { startDevnet } from "@perpx/devnet";
import { explorerConfig, startExplorer } from "@perpx/explorer";
import { LocalWallet } from "@perpx/node-client/wallets";
import { watchBook } from "./demo/book.js";
import { orderState, waitFor } from "./support/wait.js";

const started = performance.now();
const log = (line: string) => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(4);
  console.log(`[${seconds}s] ${line}`);
};
const MARKET = "BTC-USD";
const SIZE = "0.01";

/** The order's first observed state (a resting order's result would wait for a final one). */
async function firstState(handle: OrderHandle): Promise<OrderResult["status"]> {
  for await (const state of handle.updates()) return state.status;
  return "UNKNOWN";
}

console.log(`# perpx demo: trading on a devnet with @perpx/composite-client`);
const devnet = await startDevnet({ ports: "free", blockTimeMs: 100, faucetWindowMs: 0, liquidity: true });
const { endpoints } = devnet;
const urls: Partial<Record<EndpointName, string>> = {
  nodeRpc: endpoints.nodeRpc,
  nodeRest: endpoints.nodeRest,
  grpc: endpoints.grpcTls,
  faucet: endpoints.faucet,
  indexer: endpoints.indexer,
  indexerWs: endpoints.indexerWs,
};
const clients: CompositeClient[] = [];
const cleanup: (() => Promise<void>)[] = [];
try {
  log(
    `devnet up: ${devnet.chainId} at height ${devnet.app.latestBlock().height}, a market maker quoting every market`,
  );
  const explorer = await startExplorer({
    config: explorerConfig({ network: "local", endpoints: urls }),
    port: 0,
  });
  cleanup.push(explorer.close);
  log(`explorer: ${explorer.url} (open it to watch the book, the blocks and the accounts live)`);
  const connect = async (wallet: LocalWallet) => {
    const client = await CompositeClient.connect({
      endpoints: devnet.endpoints,
      grpcCaCert: devnet.caPem,
      wallet,
      pollIntervalMs: 50,
    });
    clients.push(client);
    return client;
  };
  const [alice, bob] = await Promise.all([connect(LocalWallet.generate()), connect(LocalWallet.generate())]);
  if (alice === undefined || bob === undefined) throw new Error("two clients expected");
  const funded = await Promise.all(
    [alice, bob].map(async (client) => {
      await client.faucet();
      return (await client.account()).usdc;
    }),
  );
  log(`alice ${alice.subaccount.owner}: funded by the faucet, ${funded[0]} USDC`);
  log(`bob   ${bob.subaccount.owner}: funded by the faucet, ${funded[1]} USDC`);

  const btc = await alice.getMarket({ ticker: MARKET });
  log(`${MARKET}: oracle ${btc.oraclePrice} USD, tick ${tickSize(btc)} USD, step ${stepSize(btc)} BTC`);
  const book = await watchBook(alice, MARKET, log);
  cleanup.push(() => book.close());
  book.print(true);

  // Alice rests a post-only sell inside the maker's spread: it becomes the best ask.
  const mid = book.book()?.mid();
  if (mid === undefined) throw new Error(`the ${MARKET} book has no mid price`);
  const resting = await alice.placeOrder({
    market: MARKET,
    side: "SELL",
    size: SIZE,
    price: mid,
    postOnly: true,
    rounding: "up",
  });
  const restingState = await firstState(resting);
  const askPrice = (await book.until("alice's ask", (b) => b.bestAsk()?.size === SIZE)).bestAsk()?.price;
  log(`alice rests a limit sell: ${SIZE} BTC @ ${askPrice} (${resting.kind}, post-only): ${restingState}`);

  // Bob's feed: his account as the indexer streams it, on his client's own socket.
  const feed = bob.context.feed?.subaccount;
  if (feed === undefined) throw new Error("bob's client has no live account feed");

  log(`bob buys at market: ${SIZE} BTC, at most 0.5% over the oracle price`);
  const taken = await bob.placeOrder({
    market: MARKET,
    side: "BUY",
    type: "MARKET",
    size: SIZE,
    slippage: "0.5%",
  });
  const takenResult = await orderState(taken);
  const fillHeights = takenResult.fills.map((f) => f.height).join(", ");
  log(`bob's order (handle): ${takenResult.status}, ${takenResult.filledSize} BTC in block ${fillHeights}`);
  const fill = await waitFor("bob's fill on the feed", () =>
    feed.view.fills().find((f) => f.ticker === MARKET),
  );
  log(
    `bob's feed: fill ${fill.side} ${fill.size} BTC @ ${formatPrice(fill.price, btc)} (${fill.liquidity.toLowerCase()}), fee ${formatUsd(fill.fee)} USDC`,
  );
  log(`alice's order (handle): ${(await orderState(resting)).status}`);
  await book.until("alice's ask gone", (b) => b.bestAsk()?.size !== SIZE);
  book.print(false);

  for (const [name, client] of [
    ["alice", alice],
    ["bob  ", bob],
  ] as const) {
    const account = await waitFor(`${name.trim()}'s position on the indexer`, async () => {
      const a = await client.account();
      return a.positions[0]?.unrealizedPnl === undefined ? undefined : a;
    });
    // Figures for people: the account's `display` (USD to cents, prices to the tick, sizes to the step).
    const shown = account.display;
    for (const p of shown.positions) {
      log(
        `${name}: ${p.side} ${p.size} ${p.market}, entry ${p.entryPrice}, oracle ${p.oraclePrice}, unrealized PnL ${p.unrealizedPnl} USD; equity ${shown.equity} USDC`,
      );
    }
  }

  const oracle = new Exact((await bob.getMarket({ ticker: MARKET, refresh: true })).oraclePrice);
  const trigger = oracle.times("0.95").toFixed(0, "halfExpand");
  const stop = await bob.placeOrder({
    market: MARKET,
    side: "SELL",
    type: "STOP_MARKET",
    size: SIZE,
    triggerPrice: trigger,
    slippage: "1%",
    reduceOnly: true,
  });
  log(
    `bob places a stop: sell ${SIZE} BTC if the oracle falls to ${trigger} (${stop.kind}): ${await firstState(stop)}`,
  );
  await bob.cancelOrder({ market: MARKET, clientId: stop.clientId });
  log(`bob cancels the stop: ${(await orderState(stop)).status}`);

  const close = await bob.closePosition({ market: MARKET, slippage: "1%" });
  const closed = await orderState(close);
  log(
    `bob closes his position (reduce-only market sell, slippage 1%): ${closed.status}, ${closed.filledSize} BTC`,
  );
  const after = await bob.account();
  const pnl = formatUsd(new Exact(after.equity).minus(1000));
  log(
    `bob: ${after.positions.length} position(s), equity ${after.display.equity} USDC (PnL ${pnl} USDC: spread and fees)`,
  );
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  for (const close of cleanup.reverse()) await close();
  for (const client of clients) client.close();
  await devnet.stop();
}
