/**
 * The liquidation limits of the reference genesis over the wire (orders signed with cosmjs and
 * broadcast over RPC; prices moved through the control server; blocks, events and queries read
 * back over RPC and gRPC-over-ABCI): a $14,250 BTC long a price move makes liquidatable is
 * liquidated a slice per block against a resting bid, one `MatchPerpetualLiquidation` per block,
 * each slice re-priced from the state the pass saw and sized as the chain sizes it from
 * `LiquidationsConfiguration` (at most max(10% of the position, $1,000 notional), within the
 * subaccount's $100k per block, down to the step), until the position is gone; the insurance
 * fund receives each fill's `insurance_fund_delta`; the indexer shows LIQUIDATED fills, each with
 * the position it found (`positionSizeBefore`, `entryPriceBefore`, `positionSideBefore`), and a
 * CLOSED position whose realized PnL the liquidation fills leave alone (minus the opening
 * fill's fee, as the real indexer has it).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { clob, cosmosTx, decodeSerializableInt, subaccounts } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bech32Of, moduleAddress } from "../src/app/lib/addresses.js";
import { type Devnet, startDevnet } from "../src/index.js";
import { scaled } from "../src/indexer/format.js";
import { type OrderSpec, placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";
import { bankUusdc, broadcastSync, rpcCall } from "./support/wire.js";

let devnet: Devnet;
let lp: TestSigner;
let victim: TestSigner;
let nextClientId = 1;
const QUANTUMS = 3_000_000_000n; // 0.3 BTC
const STEP = 1_000_000n; // BTC-USD step base quantums
const height = () => Number(devnet.app.latestBlock().height);
const subticksOf = (usd: bigint) => usd * 100_000n; // BTC-USD: 1e5 subticks per dollar
/** Quote quantums of `quantums` BTC at `usd` per BTC (1 BTC = 1e10 quantums, $1 = 1e6). */
const notionalOf = (quantums: bigint, usd: bigint) => (quantums * usd) / 10_000n;

/** A short-term order, signed and broadcast; answers the CheckTx code. */
async function place(signer: TestSigner, spec: Partial<OrderSpec>): Promise<number> {
  const order: OrderSpec = {
    owner: signer.address,
    clientId: nextClientId++,
    side: "buy",
    quantums: QUANTUMS,
    subticks: subticksOf(50_000n),
    goodTilBlock: height() + 20,
    ...spec,
  };
  const answer = await broadcastSync(
    devnet.endpoints.nodeRpc,
    await signMsgs(signer, devnet.chainId, 0n, [placeMsg(order)], 0n),
  );
  return answer.code;
}

/** An ABCI query's answer. */
async function abciQuery(path: string, data: Uint8Array): Promise<Uint8Array> {
  const answer = await rpcCall(devnet.endpoints.nodeRpc, "abci_query", {
    path,
    data: Buffer.from(data).toString("hex"),
  });
  return Buffer.from(answer.response.value as string, "base64");
}

/** A subaccount's USDC and BTC position (quantums), over ABCI. */
async function subaccountOf(owner: string): Promise<{ usdc: bigint; btc: bigint }> {
  const found = fromBinary(
    subaccounts.QuerySubaccountResponseSchema,
    await abciQuery(
      "/perpx.subaccounts.v1.Query/Subaccount",
      toBinary(
        subaccounts.QueryGetSubaccountRequestSchema,
        create(subaccounts.QueryGetSubaccountRequestSchema, { owner, number: 0 }),
      ),
    ),
  ).subaccount;
  const usdc = found?.assetPositions.find((a) => a.assetId === 0);
  const btc = found?.perpetualPositions.find((p) => p.perpetualId === 0);
  return {
    usdc: usdc === undefined ? 0n : decodeSerializableInt(usdc.quantums),
    btc: btc === undefined ? 0n : decodeSerializableInt(btc.quantums),
  };
}

/** The chain's liquidations configuration, over ABCI. */
async function liquidationsConfig(): Promise<clob.LiquidationsConfig> {
  const answer = fromBinary(
    clob.QueryLiquidationsConfigurationResponseSchema,
    await abciQuery(
      "/perpx.clob.v1.Query/LiquidationsConfiguration",
      toBinary(
        clob.QueryLiquidationsConfigurationRequestSchema,
        create(clob.QueryLiquidationsConfigurationRequestSchema, {}),
      ),
    ),
  );
  if (answer.liquidationsConfig === undefined) throw new Error("no liquidations config");
  return answer.liquidationsConfig;
}

/** The `MatchPerpetualLiquidation`s in a block's proposed operations, over RPC `block`. */
async function liquidationsAt(blockHeight: number): Promise<clob.MatchPerpetualLiquidation[]> {
  const answer = await rpcCall(devnet.endpoints.nodeRpc, "block", { height: String(blockHeight) });
  const raw = fromBinary(cosmosTx.TxRawSchema, Buffer.from(answer.block.data.txs[0] as string, "base64"));
  const body = fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes);
  const ops = fromBinary(
    clob.MsgProposedOperationsSchema,
    (body.messages[0] as { value: Uint8Array }).value,
  ).operationsQueue;
  return ops.flatMap((o) =>
    o.operation.case === "match" && o.operation.value.match.case === "matchPerpetualLiquidation"
      ? [o.operation.value.match.value]
      : [],
  );
}

/** The `insurance_fund_delta` of a block's liquidation fills, over RPC `block_results`. */
async function insuranceDeltasAt(blockHeight: number): Promise<bigint[]> {
  const answer = await rpcCall(devnet.endpoints.nodeRpc, "block_results", { height: String(blockHeight) });
  const events = (answer.txs_results[0]?.events ?? []) as {
    type: string;
    attributes: { key: string; value: string }[];
  }[];
  return events
    .filter((e) => e.type === "perpx.clob.order_fill")
    .map((e) => Object.fromEntries(e.attributes.map((a) => [a.key, a.value])))
    .filter((a) => a.liquidation === "true")
    .map((a) => BigInt(a.insurance_fund_delta as string));
}

/**
 * The chain's size of the next liquidation of a long of `quantums` at `usd` (base quantums): the
 * position block limit max(portion × notional, min(min notional, notional)), within what the
 * subaccount may still have liquidated this block; all of it when that covers the notional, else
 * that quote amount in base quantums rounded down to the step.
 */
function expectedSize(config: clob.LiquidationsConfig, quantums: bigint, usd: bigint): bigint {
  const notional = notionalOf(quantums, usd);
  const minNotional = config.positionBlockLimits?.minPositionNotionalLiquidated ?? 0n;
  const portion = BigInt(config.positionBlockLimits?.maxPositionPortionLiquidatedPpm ?? 0);
  const floor = minNotional < notional ? minNotional : notional;
  const byPortion = (notional * portion) / 1_000_000n;
  let max = byPortion > floor ? byPortion : floor;
  const subaccountMax = config.subaccountBlockLimits?.maxNotionalLiquidated ?? 0n;
  if (subaccountMax < max) max = subaccountMax;
  if (notional <= max || quantums <= STEP) return quantums;
  const size = ((max * 10_000n) / usd / STEP) * STEP;
  return size < STEP ? STEP : size > quantums ? quantums : size;
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
  [lp, victim] = (await Promise.all(
    devnet.accounts.slice(1, 3).map((a, i) => testSigner(a.mnemonic, i + 1)),
  )) as [TestSigner, TestSigner];
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "50000");
  devnet.app.control.fundSubaccount(lp.address, 0, 100_000_000_000n);
  devnet.app.control.fundSubaccount(victim.address, 0, 850_000_000n);
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("liquidation limits", () => {
  it("liquidates a $14,250 position a re-priced slice per block, as the reference genesis's limits size it", async () => {
    const config = await liquidationsConfig();
    // The reference genesis: max(10%, $1,000) per position, $100k / $1M per subaccount per block.
    expect(config.positionBlockLimits).toMatchObject({
      maxPositionPortionLiquidatedPpm: 100_000,
      minPositionNotionalLiquidated: 1_000_000_000n,
    });
    expect(config.subaccountBlockLimits).toMatchObject({
      maxNotionalLiquidated: 100_000_000_000n,
      maxQuantumsInsuranceLost: 1_000_000_000_000n,
    });
    // A 0.3 BTC long at $50,000, then a bid for all of it at $47,450 and the price to $47,500.
    expect(await place(lp, { side: "sell", subticks: subticksOf(50_000n) })).toBe(0);
    expect(
      await place(victim, {
        side: "buy",
        subticks: subticksOf(50_000n),
        timeInForce: clob.Order_TimeInForce.IOC,
      }),
    ).toBe(0);
    devnet.mine(1);
    expect((await subaccountOf(victim.address)).btc).toBe(QUANTUMS);
    expect(await place(lp, { side: "buy", subticks: subticksOf(47_450n) })).toBe(0);
    const price = 47_500n;
    devnet.app.control.setOraclePrice("BTC-USD", price.toString());
    expect(notionalOf(QUANTUMS, price)).toBe(14_250_000_000n);
    const fund = bech32Of(moduleAddress("insurance_fund"));
    const fundBefore = await bankUusdc(devnet.endpoints.nodeRest, fund);
    devnet.mine(1); // commits at the new price; the memclob's pass liquidates the first slice after it
    // The sizes the chain's formula gives, slice after slice, and the blocks that takes.
    const expected: bigint[] = [];
    for (let left = QUANTUMS; left > 0n; ) {
      const size = expectedSize(config, left, price);
      expected.push(size);
      left -= size;
    }
    expect(expected.length).toBeGreaterThanOrEqual(10);
    const seen: bigint[] = [];
    let deltas = 0n;
    // Each block carries the slice the pass built on the state of the block before it.
    for (let i = 0; i < expected.length; i++) {
      const before = await subaccountOf(victim.address);
      devnet.mine(1);
      const matches = await liquidationsAt(height());
      expect(matches).toHaveLength(1);
      const match = matches[0] as clob.MatchPerpetualLiquidation;
      expect(match).toMatchObject({ liquidated: { owner: victim.address }, perpetualId: 0, isBuy: false });
      expect(match.totalSize).toBe(expectedSize(config, before.btc, price));
      seen.push(match.totalSize);
      expect((await subaccountOf(victim.address)).btc).toBe(before.btc - match.totalSize);
      for (const delta of await insuranceDeltasAt(height())) {
        // a liquidation fee, at most max_liquidation_fee_ppm of the fill's quote amount
        const quote = notionalOf(match.totalSize, 47_450n);
        expect(delta).toBeGreaterThan(0n);
        expect(delta).toBeLessThanOrEqual((quote * BigInt(config.maxLiquidationFeePpm)) / 1_000_000n);
        deltas += delta;
      }
    }
    expect(seen).toEqual(expected);
    expect(await subaccountOf(victim.address)).toMatchObject({ btc: 0n });
    expect(await bankUusdc(devnet.endpoints.nodeRest, fund)).toBe(fundBefore + deltas);
    // The indexer: LIQUIDATED fills for the victim, one per slice, each with the position it found.
    const base = `${devnet.endpoints.indexer}/v4`;
    type Fill = {
      type: string;
      fee: string;
      positionSizeBefore?: string;
      entryPriceBefore?: string;
      positionSideBefore?: string;
    };
    let fills: Fill[] = [];
    await expect
      .poll(async () => {
        const res = await fetch(`${base}/fills?address=${victim.address}&subaccountNumber=0`);
        fills = ((await res.json()) as { fills: Fill[] }).fills;
        return fills.filter((f) => f.type === "LIQUIDATED").length;
      })
      .toBe(expected.length);
    const sizeText = (quantums: bigint) => scaled(quantums, -10);
    const liquidated = fills.filter((f) => f.type === "LIQUIDATED").reverse(); // oldest first
    let left = QUANTUMS;
    liquidated.forEach((f, i) => {
      expect(f).toMatchObject({
        positionSizeBefore: sizeText(left),
        entryPriceBefore: "50000",
        positionSideBefore: "LONG",
      });
      left -= expected[i] as bigint;
    });
    // The position is CLOSED (the reference's subaccount update never writes LIQUIDATED); its
    // realized PnL is minus the opening fill's fee only.
    const opening = fills.find((f) => f.type === "LIMIT") as Fill;
    expect(opening).toMatchObject({ positionSizeBefore: "0" });
    const positions = (await (
      await fetch(`${base}/perpetualPositions?address=${victim.address}&subaccountNumber=0`)
    ).json()) as { positions: { status: string; market: string; realizedPnl: string }[] };
    expect(positions.positions.map((p) => [p.market, p.status, p.realizedPnl])).toEqual([
      ["BTC-USD", "CLOSED", `-${opening.fee}`],
    ]);
  });
});
