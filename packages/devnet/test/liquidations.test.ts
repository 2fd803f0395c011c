/**
 * The risk engine over the wire (orders and withdrawals signed with cosmjs and broadcast over RPC;
 * prices moved and outages opened through the control server; blocks, events, queries and the
 * indexer read back over RPC, REST and gRPC-over-ABCI):
 *
 * - (a liquidation against a bid, slice by slice within the block limits: `liquidation-limits.test.ts`)
 * - with an empty book, a subaccount at negative equity is deleveraged against the offsetting
 *   short at the bankruptcy price (`MatchPerpetualDeleveraging`), ending at zero equity;
 * - a subaccount left at negative equity after a partial liquidation gets a zero-fill
 *   deleveraging, and withdrawals are refused (subaccounts 102, WithdrawalsAndTransfersBlocked)
 *   until 50 blocks later, as `GetWithdrawalAndTransfersBlockedInfo` reports; a chain outage (a
 *   5-minute gap between blocks) gates them too.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { clob, cosmosTx, decodeSerializableInt, sending, subaccounts } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bech32Of, moduleAddress } from "../src/app/lib/addresses.js";
import { type Devnet, startDevnet } from "../src/index.js";
import { scaled } from "../src/indexer/format.js";
import { type OrderSpec, placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";
import { accountOf, broadcastSync, rpcCall } from "./support/wire.js";

let devnet: Devnet;
let lp: TestSigner;
let victim2: TestSigner;
let victim3: TestSigner;
let nextClientId = 1;
const QUANTUMS = 3_000_000_000n; // 0.3 BTC
const height = () => Number(devnet.app.latestBlock().height);
const subticksOf = (usd: number) => BigInt(usd) * 100_000n; // BTC-USD: 1e5 subticks per dollar

/** A short-term order, signed and broadcast (`broadcast_tx_sync`); answers the CheckTx code. */
async function place(signer: TestSigner, spec: Partial<OrderSpec>): Promise<number> {
  const order: OrderSpec = {
    owner: signer.address,
    clientId: nextClientId++,
    side: "buy",
    quantums: QUANTUMS,
    subticks: subticksOf(50_000),
    goodTilBlock: height() + 15,
    ...spec,
  };
  const answer = await broadcastSync(
    devnet.endpoints.nodeRpc,
    await signMsgs(signer, devnet.chainId, 0n, [placeMsg(order)], 0n),
  );
  return answer.code;
}

/** POST to the control server. */
async function control(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await fetch(`${devnet.endpoints.devnetControl}/devnet${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** The `MsgProposedOperations` at the head of a block, read over RPC `block`. */
async function operationsAt(blockHeight: number): Promise<clob.MsgProposedOperations> {
  const answer = await rpcCall(devnet.endpoints.nodeRpc, "block", { height: String(blockHeight) });
  const first = answer.block.data.txs[0] as string;
  const raw = fromBinary(cosmosTx.TxRawSchema, Buffer.from(first, "base64"));
  const body = fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes);
  expect(body.messages.map((m) => m.typeUrl)).toEqual(["/perpx.clob.v1.MsgProposedOperations"]);
  return fromBinary(clob.MsgProposedOperationsSchema, (body.messages[0] as { value: Uint8Array }).value);
}

/** The events of a block's first tx, over RPC `block_results`, as type -> attribute maps. */
async function eventsAt(
  blockHeight: number,
): Promise<{ type: string; attributes: Record<string, string> }[]> {
  const answer = await rpcCall(devnet.endpoints.nodeRpc, "block_results", { height: String(blockHeight) });
  const events = (answer.txs_results[0]?.events ?? []) as {
    type: string;
    attributes: { key: string; value: string }[];
  }[];
  return events.map((e) => ({
    type: e.type,
    attributes: Object.fromEntries(e.attributes.map((a) => [a.key, a.value])),
  }));
}

/** A subaccount over ABCI `abci_query`: USDC and BTC position (quantums). */
async function subaccountOf(owner: string): Promise<{ usdc: bigint; btc: bigint }> {
  const data = toBinary(
    subaccounts.QueryGetSubaccountRequestSchema,
    create(subaccounts.QueryGetSubaccountRequestSchema, { owner, number: 0 }),
  );
  const answer = await rpcCall(devnet.endpoints.nodeRpc, "abci_query", {
    path: "/perpx.subaccounts.v1.Query/Subaccount",
    data: Buffer.from(data).toString("hex"),
  });
  const found = fromBinary(
    subaccounts.QuerySubaccountResponseSchema,
    Buffer.from(answer.response.value as string, "base64"),
  ).subaccount;
  const usdc = found?.assetPositions.find((a) => a.assetId === 0);
  const btc = found?.perpetualPositions.find((p) => p.perpetualId === 0);
  return {
    usdc: usdc === undefined ? 0n : decodeSerializableInt(usdc.quantums),
    btc: btc === undefined ? 0n : decodeSerializableInt(btc.quantums),
  };
}

/** `GetWithdrawalAndTransfersBlockedInfo` for perpetual 0, over ABCI. */
async function blockedInfo(): Promise<subaccounts.QueryGetWithdrawalAndTransfersBlockedInfoResponse> {
  const data = toBinary(
    subaccounts.QueryGetWithdrawalAndTransfersBlockedInfoRequestSchema,
    create(subaccounts.QueryGetWithdrawalAndTransfersBlockedInfoRequestSchema, { perpetualId: 0 }),
  );
  const answer = await rpcCall(devnet.endpoints.nodeRpc, "abci_query", {
    path: "/perpx.subaccounts.v1.Query/GetWithdrawalAndTransfersBlockedInfo",
    data: Buffer.from(data).toString("hex"),
  });
  return fromBinary(
    subaccounts.QueryGetWithdrawalAndTransfersBlockedInfoResponseSchema,
    Buffer.from(answer.response.value as string, "base64"),
  );
}

/** Withdraws 1 USDC from the signer's subaccount 0 in a block; answers the delivery result. */
async function withdraw(signer: TestSigner): Promise<{ code: number; codespace: string; log: string }> {
  const account = await accountOf(devnet.endpoints.nodeRest, signer.address);
  const tx = await signMsgs(
    signer,
    devnet.chainId,
    account.sequence,
    [
      {
        schema: sending.MsgWithdrawFromSubaccountSchema,
        value: create(sending.MsgWithdrawFromSubaccountSchema, {
          sender: { owner: signer.address, number: 0 },
          recipient: signer.address,
          assetId: 0,
          quantums: 1_000_000n,
        }),
      },
    ] as Parameters<typeof signMsgs>[3],
    50_000n,
  );
  const checked = await broadcastSync(devnet.endpoints.nodeRpc, tx);
  expect(checked.code, checked.log).toBe(0);
  const [block] = devnet.mine(1);
  const result = block?.txResults.at(-1);
  return { code: result?.code ?? -1, codespace: result?.codespace ?? "", log: result?.log ?? "" };
}

/** Opens a 0.3 BTC long for `signer` at `usd` against a resting sell of the liquidity provider. */
async function openLong(signer: TestSigner, usd: number): Promise<void> {
  expect(await place(lp, { side: "sell", subticks: subticksOf(usd) })).toBe(0);
  expect(
    await place(signer, { side: "buy", subticks: subticksOf(usd), timeInForce: clob.Order_TimeInForce.IOC }),
  ).toBe(0);
  devnet.mine(1);
  expect((await subaccountOf(signer.address)).btc).toBe(QUANTUMS);
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
  [lp, victim2, victim3] = (await Promise.all(
    devnet.accounts.slice(1, 4).map((a, i) => testSigner(a.mnemonic, i + 1)),
  )) as [TestSigner, TestSigner, TestSigner];
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "50000");
  devnet.app.control.fundSubaccount(lp.address, 0, 100_000_000_000n);
  for (const s of [victim2, victim3]) devnet.app.control.fundSubaccount(s.address, 0, 1_000_000_000n);
  // The insurance fund holds $1,000 to pay liquidations below the bankruptcy price.
  devnet.app.control.fund(bech32Of(moduleAddress("insurance_fund")), [
    { denom: "uusdc", amount: 1_000_000_000n },
  ]);
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("devnet control for the risk engine", () => {
  it("moves a price by a factor (rounded down) and refuses a factor that is not a positive decimal", async () => {
    const res = await fetch(`${devnet.endpoints.devnetControl}/devnet/prices`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ market: "BTC-USD", factor: "1.00001" }),
    });
    expect(await res.json()).toMatchObject({ pair: "BTC-USD", price: "50000.5" });
    for (const factor of ["-1", "0", "abc"]) {
      const bad = await fetch(`${devnet.endpoints.devnetControl}/devnet/prices`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ market: "BTC-USD", factor }),
      });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ code: "invalid_price" });
    }
    await control("/prices", { market: "BTC-USD", price: "50000" });
  });
});

describe("liquidations", () => {
  it("deleverages a negative-equity subaccount against the offsetting short when the book cannot absorb it", async () => {
    await control("/prices", { market: "BTC-USD", price: "47500" });
    await openLong(victim2, 47_500);
    const lpBefore = await subaccountOf(lp.address);
    expect(lpBefore.btc).toBe(-QUANTUMS);
    await control("/prices", { market: "BTC-USD", factor: "0.9" }); // $42,750: equity below zero
    const before = await subaccountOf(victim2.address);
    expect(before.usdc + (QUANTUMS * 4_275n) / 1_000n).toBeLessThan(0n);
    devnet.mine(2);
    const at = height();
    const deleveraging = (await operationsAt(at)).operationsQueue
      .map((o) => (o.operation.case === "match" ? o.operation.value.match : undefined))
      .find((m) => m?.case === "matchPerpetualDeleveraging")?.value as clob.MatchPerpetualDeleveraging;
    expect(deleveraging).toMatchObject({
      liquidated: { owner: victim2.address, number: 0 },
      perpetualId: 0,
      isFinalSettlement: false,
    });
    expect(deleveraging.fills.map((f) => [f.offsettingSubaccountId?.owner, f.fillAmount])).toEqual([
      [lp.address, QUANTUMS],
    ]);
    // At the bankruptcy price the victim ends with nothing; the short pays that amount.
    const after = await subaccountOf(victim2.address);
    expect(after).toEqual({ usdc: 0n, btc: 0n });
    const lpAfter = await subaccountOf(lp.address);
    expect(lpAfter).toEqual({ usdc: lpBefore.usdc + before.usdc, btc: 0n });
    // The indexer: DELEVERAGED for the victim, OFFSETTING for the short.
    const base = `${devnet.endpoints.indexer}/v4`;
    type Fill = { type: string; size: string; price: string; fee: string; positionSizeBefore?: string };
    let fills: Fill[] = [];
    await expect
      .poll(async () => {
        const res = await fetch(`${base}/fills?address=${victim2.address}&subaccountNumber=0`);
        fills = ((await res.json()) as { fills: Fill[] }).fills;
        return fills.map((f) => [f.type, f.size]);
      })
      .toContainEqual(["DELEVERAGED", "0.3"]);
    // As the real indexer: a deleveraging fill carries no position-before fields and leaves the
    // realized PnL alone (minus the opening fill's fee only).
    const deleveraged = fills.find((f) => f.type === "DELEVERAGED") as Fill;
    expect(deleveraged.positionSizeBefore).toBeUndefined();
    const opening = fills.find((f) => f.type === "LIMIT") as Fill;
    const closed = (await (
      await fetch(`${base}/perpetualPositions?address=${victim2.address}&subaccountNumber=0`)
    ).json()) as { positions: { status: string; realizedPnl: string }[] };
    expect(closed.positions.map((p) => [p.status, p.realizedPnl])).toEqual([["CLOSED", `-${opening.fee}`]]);
    const offset = (await (await fetch(`${base}/fills?address=${lp.address}&subaccountNumber=0`)).json()) as {
      fills: { type: string }[];
    };
    expect(offset.fills.map((f) => f.type)).toContain("OFFSETTING");
    // The liquidated side is a TAKER fill: the real indexer's trades show it (type DELEVERAGED),
    // at the quote amount over the size, as are both fills' prices.
    const quote = scaled(-before.usdc, -6);
    const trades = (await (await fetch(`${base}/trades/perpetualMarket/BTC-USD`)).json()) as {
      trades: { type: string; side: string; size: string; price: string }[];
    };
    const trade = trades.trades[0];
    expect(trade).toMatchObject({ type: "DELEVERAGED", side: "SELL", size: "0.3" });
    // $13,257.125 / 0.3 as numeric divides: at least 16 significant digits, rounded half up.
    expect(quote).toBe("13257.125");
    expect(trade?.price).toBe("44190.416666666667");
    expect(deleveraged).toMatchObject({ price: trade?.price });
    const event = (await eventsAt(at)).find((e) => e.type === "perpx.clob.deleveraging");
    expect(event?.attributes).toMatchObject({
      liquidated_owner: victim2.address,
      offsetting_owner: lp.address,
      fill_amount: QUANTUMS.toString(),
      total_quote_quantums: (-before.usdc).toString(),
      is_buy: "false",
      is_final_settlement: "false",
    });
  });

  it("gates withdrawals for 50 blocks after a subaccount is left at negative equity", async () => {
    expect(await blockedInfo()).toMatchObject({ negativeTncSubaccountSeenAtBlock: 0 });
    expect((await withdraw(lp)).code).toBe(0);
    await openLong(victim3, 42_750);
    // A bid for a third of the position: the liquidation fills its first slice from it (the fund
    // pays the loss) and the subaccount keeps negative equity.
    expect(await place(lp, { side: "buy", quantums: 1_000_000_000n, subticks: subticksOf(38_000) })).toBe(0);
    await control("/prices", { market: "BTC-USD", factor: "0.9" });
    devnet.mine(2);
    const seenAt = height();
    const ops = (await operationsAt(seenAt)).operationsQueue.map((o) =>
      o.operation.case === "match" ? o.operation.value.match : undefined,
    );
    expect(ops.find((m) => m?.case === "matchPerpetualLiquidation")?.value).toMatchObject({
      liquidated: { owner: victim3.address },
    });
    expect(ops.find((m) => m?.case === "matchPerpetualDeleveraging")?.value).toMatchObject({
      liquidated: { owner: victim3.address },
      fills: [],
    });
    expect(await blockedInfo()).toMatchObject({
      negativeTncSubaccountSeenAtBlock: seenAt,
      withdrawalsAndTransfersUnblockedAtBlock: seenAt + 50,
    });
    const refused = await withdraw(lp);
    expect([refused.codespace, refused.code]).toEqual(["subaccounts", 102]);
    expect(refused.log).toContain("WithdrawalsAndTransfersBlocked: failed to apply subaccount updates");
    // The liquidation goes on a slice per block (the block limits), then the rest is deleveraged;
    // every block that still sees the negative equity moves the gate on.
    for (let blocks = 0; (await subaccountOf(victim3.address)).btc !== 0n; blocks++) {
      expect(blocks).toBeLessThan(100); // a hang guard: the position is closed well before
      devnet.mine(1);
    }
    devnet.mine(1);
    const last = (await blockedInfo()).negativeTncSubaccountSeenAtBlock;
    expect(last).toBeGreaterThan(seenAt);
    expect(await blockedInfo()).toMatchObject({ withdrawalsAndTransfersUnblockedAtBlock: last + 50 });
    devnet.mine(last + 50 - height() - 2);
    expect((await withdraw(lp)).code).toBe(102); // delivered at last + 49
    expect((await withdraw(lp)).code).toBe(0); // delivered at last + 50
  });

  it("gates withdrawals for 50 blocks after a chain outage (a 5-minute gap between blocks)", async () => {
    const opened = await control("/outage", {});
    const at = Number(opened.height);
    expect(await blockedInfo()).toMatchObject({
      chainOutageSeenAtBlock: at,
      withdrawalsAndTransfersUnblockedAtBlock: at + 50,
    });
    const refused = await withdraw(lp);
    expect([refused.codespace, refused.code]).toEqual(["subaccounts", 102]);
  });
});
