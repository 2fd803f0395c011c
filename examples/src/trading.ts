/**
 * The trading half of the demo, against a devnet started in this process: two funded accounts
 * deposit USDC into their subaccounts, one rests a BTC-USD sell at the oracle price and the other
 * takes it with an immediate-or-cancel buy (accepted and matched at CheckTx, as short-term orders
 * are; its fill lands in the next block's proposed operations, watched from the node); their
 * positions are read back; a ladder of bids is placed and batch-cancelled; USDC moves between
 * subaccounts. Human prices and sizes go through
 * `@perpx/core`'s exact conversions; every step is a signed transaction the devnet verifies.
 */
import {
  type ClobPairParams,
  local,
  marketPriceToPrice,
  priceToSubticks,
  quantumsToSize,
  quoteQuantumsToUsdc,
  sizeToQuantums,
  subticksToPrice,
  usdcToQuoteQuantums,
} from "@perpx/core";
import { startDevnet } from "@perpx/devnet";
import {
  createNodeClient,
  type NodeClient,
  subaccountBalances,
  watchShortTermOrder,
} from "@perpx/node-client";
import { LocalWallet } from "@perpx/node-client/wallets";

/** One market's grid, read from the chain: what the exact conversions need. */
async function marketGrid(client: NodeClient, clobPairId: number) {
  const pair = await client.getClobPair({ id: clobPairId });
  if (pair.metadata.case !== "perpetualClobMetadata")
    throw new Error(`clob pair ${clobPairId} is not a perpetual`);
  const perpetual = await client.getPerpetual({ id: pair.metadata.value.perpetualId });
  const params = perpetual.params;
  if (params === undefined) throw new Error(`perpetual ${pair.metadata.value.perpetualId} has no params`);
  const grid: ClobPairParams = {
    atomicResolution: params.atomicResolution,
    quantumConversionExponent: pair.quantumConversionExponent,
    stepBaseQuantums: pair.stepBaseQuantums,
    subticksPerTick: pair.subticksPerTick,
  };
  const oracle = await client.getMarketPrice({ id: params.marketId });
  return { ticker: params.ticker, grid, oraclePrice: marketPriceToPrice(oracle) };
}

/**
 * A subaccount's USDC and the size of its first position, in human units. A fill lands in USDC (its
 * price and fee), as on the chain; the position carries only its size.
 */
async function describeSubaccount(client: NodeClient, owner: string, number: number, grid: ClobPairParams) {
  const balances = subaccountBalances(await client.getSubaccount({ owner, number }));
  const position = balances.perpetuals[0];
  return {
    usdc: quoteQuantumsToUsdc(balances.usdcQuantums),
    position: position === undefined ? "none" : quantumsToSize(position.quantums, grid),
  };
}

/**
 * Runs the trading demo and prints every step with `log`; stops the devnet however it ends.
 *
 * @param log - where each line goes.
 */
export async function runTradingDemo(log: (line: string) => void): Promise<void> {
  const devnet = await startDevnet({ ports: "free", blockTimeMs: 100 });
  const client = createNodeClient({
    nodeRpc: devnet.endpoints.nodeRpc,
    nodeRest: devnet.endpoints.nodeRest,
    grpc: { url: devnet.endpoints.grpcTls, caCert: devnet.caPem },
    network: local,
    pollIntervalMs: 25,
  });
  try {
    const [maker, taker] = devnet.accounts.slice(0, 2).map((a) => LocalWallet.fromMnemonic(a.mnemonic));
    if (maker === undefined || taker === undefined) throw new Error("the devnet has fewer than two accounts");
    const block = await client.getLatestBlock();
    log(`\n# Trading on the embedded devnet`);
    log(
      `chain:           ${block.chainId} at height ${block.height} (gRPC over TLS ${devnet.endpoints.grpcTls})`,
    );
    log(`maker:           ${maker.address}`);
    log(`taker:           ${taker.address}`);

    const deposit = usdcToQuoteQuantums("10000");
    for (const wallet of [maker, taker]) {
      await client.depositToSubaccount({
        signer: wallet,
        sender: wallet.address,
        recipient: { owner: wallet.address, number: 0 },
        quantums: deposit,
      });
    }
    log(`deposited:       ${quoteQuantumsToUsdc(deposit)} USDC into subaccount 0 of each`);

    const { ticker, grid, oraclePrice } = await marketGrid(client, 0);
    const size = "0.01";
    const subticks = priceToSubticks(oraclePrice, grid, { rounding: "down" });
    const quantums = sizeToQuantums(size, grid);
    log(`market:          ${ticker}, oracle ${oraclePrice}, order price ${subticksToPrice(subticks, grid)}`);

    // Who trades, on which subaccount and market: the part every order and cancel below shares.
    const onBtc = (wallet: LocalWallet) => ({
      signer: wallet,
      subaccount: { owner: wallet.address, number: 0 },
      clobPairId: 0,
    });
    const now = Math.floor((await client.getLatestBlock()).time.getTime() / 1000);
    const resting = await client.placeOrder({
      ...onBtc(maker),
      clientId: 1,
      side: "SELL",
      quantums,
      subticks,
      kind: "long-term",
      goodTilBlockTime: now + 3_600,
      timeInForce: "POST_ONLY",
    });
    log(`maker sells:     ${size} ${ticker} long-term post-only, in block ${resting.height}`);

    const height = Number((await client.getLatestBlock()).height);
    const goodTilBlock = height + 10;
    const taken = await client.placeOrder({
      ...onBtc(taker),
      clientId: 1,
      side: "BUY",
      quantums,
      subticks,
      kind: "short-term",
      goodTilBlock,
      timeInForce: "IOC",
    });
    // A short-term order never enters a block: CheckTx matched it; its fill lands in a later block's
    // proposed operations, which the node serves like any block.
    const outcome = await watchShortTermOrder(client, {
      orderId: taken.orderId!,
      goodTilBlock,
      quantums,
      ...(taken.latestHeight === undefined ? {} : { fromHeight: taken.latestHeight + 1n }),
      pollIntervalMs: 25,
    });
    const landed = outcome.fills.map((f) => f.height).join(", ");
    log(
      `taker buys:      ${size} ${ticker} short-term IOC, accepted at CheckTx; ${outcome.fills.length} fill(s) in block ${landed} (proposed operations)`,
    );

    const makerAfter = await describeSubaccount(client, maker.address, 0, grid);
    const takerAfter = await describeSubaccount(client, taker.address, 0, grid);
    log(`maker position:  ${makerAfter.position} ${ticker}, USDC ${makerAfter.usdc}`);
    log(`taker position:  ${takerAfter.position} ${ticker}, USDC ${takerAfter.usdc}`);

    // A ladder of three bids 10%, 20%, 30% under the oracle, then one batch cancel for all of them.
    const ladderHeight = Number((await client.getLatestBlock()).height);
    const clientIds = [11, 12, 13];
    for (const [i, clientId] of clientIds.entries()) {
      // Exact arithmetic in subticks (bigint), then down to the market's tick.
      const under = (subticks * BigInt(90 - 10 * i)) / 100n;
      const price = priceToSubticks(subticksToPrice(under, grid), grid, { rounding: "down" });
      await client.placeOrder({
        ...onBtc(maker),
        clientId,
        side: "BUY",
        quantums,
        subticks: price,
        kind: "short-term",
        goodTilBlock: ladderHeight + 15,
        tx: { broadcastMode: "sync" },
      });
    }
    const cancelled = await client.batchCancel({
      ...onBtc(maker),
      cancels: [{ clobPairId: 0, clientIds }],
      goodTilBlock: ladderHeight + 15,
    });
    log(
      `ladder:          3 bids placed, batch-cancelled at CheckTx (${cancelled.shortTerm ? "memclob" : "block"})`,
    );

    const moved = usdcToQuoteQuantums("250");
    await client.transfer({
      signer: maker,
      sender: { owner: maker.address, number: 0 },
      recipient: { owner: maker.address, number: 1 },
      quantums: moved,
    });
    const second = await describeSubaccount(client, maker.address, 1, grid);
    log(
      `transfer:        ${quoteQuantumsToUsdc(moved)} USDC to the maker's subaccount 1, which now holds ${second.usdc} USDC`,
    );
  } finally {
    client.close();
    await devnet.stop();
  }
}
