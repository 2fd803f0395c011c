/**
 * Subaccounts and sending against a running devnet: deposits, withdrawals and
 * transfers signed in the test (`@perpx/proto` + cosmjs), refusals with the subaccounts codes,
 * queries over RPC `abci_query`, REST and gRPC, the oracle's control routes, and the faucet's
 * subaccount credit.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { decodeSerializableInt, prices, sending, subaccounts } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpetualsGenesis } from "../src/app/genesis/genesis-exchange.js";
import { DEFAULT_MARKETS } from "../src/app/genesis/genesis-markets.js";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";
import { msg, signTx, type TestMsg } from "./support/sign-tx.js";

let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, faucetWindowMs: 0 });
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: Loose }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

async function rpc(method: string, params: Record<string, unknown>): Promise<Loose> {
  const { body } = await json(devnet.endpoints.nodeRpc, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  if (body.error !== undefined) throw new Error(JSON.stringify(body.error));
  return body.result;
}

/** Signs `msgs` as account `who`, broadcasts over RPC, mines a block, returns the delivery result. */
async function deliver(
  who: number,
  msgs: TestMsg[],
): Promise<{ code: number; codespace: string; log: string }> {
  const account = devnet.accounts[who]!;
  const info = (await json(`${devnet.endpoints.nodeRest}/cosmos/auth/v1beta1/accounts/${account.address}`))
    .body.account;
  const tx = await signTx({
    mnemonic: account.mnemonic,
    chainId: devnet.app.info.chainId,
    accountNumber: BigInt(info.account_number),
    sequence: BigInt(info.sequence),
    msgs,
  });
  const sync = await rpc("broadcast_tx_sync", { tx: Buffer.from(tx).toString("base64") });
  if (sync.code !== 0) return { code: sync.code, codespace: sync.codespace, log: sync.log };
  const [block] = devnet.mine(1);
  const result = block!.txResults.at(-1)!;
  return { code: result.code, codespace: result.codespace, log: result.log };
}

/** A subaccount over RPC abci_query: USDC quantums and positions. */
async function subaccountOverRpc(
  owner: string,
  number: number,
): Promise<{ usdc: bigint; raw: subaccounts.Subaccount }> {
  const data = toBinary(
    subaccounts.QueryGetSubaccountRequestSchema,
    create(subaccounts.QueryGetSubaccountRequestSchema, { owner, number }),
  );
  const result = await rpc("abci_query", {
    path: "/perpx.subaccounts.v1.Query/Subaccount",
    data: Buffer.from(data).toString("hex"),
  });
  expect(result.response.code).toBe(0);
  const response = fromBinary(
    subaccounts.QuerySubaccountResponseSchema,
    new Uint8Array(Buffer.from(result.response.value, "base64")),
  );
  const raw = response.subaccount!;
  const usdc = raw.assetPositions.find((p) => p.assetId === 0);
  return { usdc: usdc === undefined ? 0n : decodeSerializableInt(usdc.quantums), raw };
}

async function bankUsdc(address: string): Promise<bigint> {
  const { body } = await json(
    `${devnet.endpoints.nodeRest}/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=uusdc`,
  );
  return BigInt(body.balance.amount);
}

const id = (owner: string, number: number) => create(subaccounts.SubaccountIdSchema, { owner, number });

describe("sending", () => {
  it("deposits from an account into its subaccount 0 (bank coins go to the collateral pool)", async () => {
    const alice = devnet.accounts[0]!.address;
    const pool = (await json(`${devnet.endpoints.nodeRest}/perpx/subaccounts/v1/collateral_pool_address/0`))
      .body.collateral_pool_address as string;
    const [poolBefore, subBefore] = [await bankUsdc(pool), (await subaccountOverRpc(alice, 0)).usdc];
    const result = await deliver(0, [
      msg(
        sending.MsgDepositToSubaccountSchema,
        create(sending.MsgDepositToSubaccountSchema, {
          sender: alice,
          recipient: id(alice, 0),
          assetId: 0,
          quantums: 100_000_000n,
        }),
      ),
    ]);
    expect(result).toMatchObject({ code: 0 });
    expect((await subaccountOverRpc(alice, 0)).usdc).toBe(subBefore + 100_000_000n);
    expect(await bankUsdc(pool)).toBe(poolBefore + 100_000_000n);
  });

  it("withdraws to another account and transfers to another owner's child subaccount", async () => {
    const [alice, bob] = [devnet.accounts[0]!.address, devnet.accounts[1]!.address];
    const before = (await subaccountOverRpc(alice, 0)).usdc;
    const bobBank = await bankUsdc(bob);
    const withdraw = await deliver(0, [
      msg(
        sending.MsgWithdrawFromSubaccountSchema,
        create(sending.MsgWithdrawFromSubaccountSchema, {
          recipient: bob,
          sender: id(alice, 0),
          assetId: 0,
          quantums: 40_000_000n,
        }),
      ),
    ]);
    expect(withdraw.code).toBe(0);
    expect(await bankUsdc(bob)).toBe(bobBank + 40_000_000n);
    const transfer = await deliver(0, [
      msg(
        sending.MsgCreateTransferSchema,
        create(sending.MsgCreateTransferSchema, {
          transfer: { sender: id(alice, 0), recipient: id(bob, 130), assetId: 0, amount: 10_000_000n },
        }),
      ),
      msg(
        sending.MsgCreateTransferSchema,
        create(sending.MsgCreateTransferSchema, {
          transfer: { sender: id(alice, 0), recipient: id(alice, 128), assetId: 0, amount: 5_000_000n },
        }),
      ),
    ]);
    expect(transfer.code).toBe(0);
    expect((await subaccountOverRpc(alice, 0)).usdc).toBe(before - 55_000_000n);
    expect((await subaccountOverRpc(bob, 130)).usdc).toBe(10_000_000n);
    expect((await subaccountOverRpc(alice, 128)).usdc).toBe(5_000_000n);
  });

  it("refuses to withdraw or transfer more than the collateral (subaccounts 102) and changes nothing", async () => {
    const [alice, bob] = [devnet.accounts[0]!.address, devnet.accounts[1]!.address];
    const before = (await subaccountOverRpc(alice, 128)).usdc;
    const withdraw = await deliver(0, [
      msg(
        sending.MsgWithdrawFromSubaccountSchema,
        create(sending.MsgWithdrawFromSubaccountSchema, {
          recipient: alice,
          sender: id(alice, 128),
          assetId: 0,
          quantums: before + 1n,
        }),
      ),
    ]);
    expect(withdraw).toMatchObject({ code: 102, codespace: "subaccounts" });
    expect(withdraw.log).toContain("failed to apply subaccount updates");
    const transfer = await deliver(0, [
      msg(
        sending.MsgCreateTransferSchema,
        create(sending.MsgCreateTransferSchema, {
          transfer: { sender: id(alice, 128), recipient: id(bob, 0), assetId: 0, amount: before + 1n },
        }),
      ),
    ]);
    expect(transfer).toMatchObject({ code: 102, codespace: "subaccounts" });
    expect((await subaccountOverRpc(alice, 128)).usdc).toBe(before);
  });

  it("rejects malformed messages at CheckTx with the sending and subaccounts codes", async () => {
    const alice = devnet.accounts[0]!.address;
    const same = await deliver(0, [
      msg(
        sending.MsgCreateTransferSchema,
        create(sending.MsgCreateTransferSchema, {
          transfer: { sender: id(alice, 0), recipient: id(alice, 0), assetId: 0, amount: 1n },
        }),
      ),
    ]);
    expect(same).toMatchObject({ code: 1, codespace: "sending" });
    const zero = await deliver(0, [
      msg(
        sending.MsgDepositToSubaccountSchema,
        create(sending.MsgDepositToSubaccountSchema, {
          sender: alice,
          recipient: id(alice, 0),
          assetId: 0,
          quantums: 0n,
        }),
      ),
    ]);
    expect(zero).toMatchObject({ code: 2, codespace: "sending" });
    const asset = await deliver(0, [
      msg(
        sending.MsgDepositToSubaccountSchema,
        create(sending.MsgDepositToSubaccountSchema, {
          sender: alice,
          recipient: id(alice, 0),
          assetId: 1,
          quantums: 5n,
        }),
      ),
    ]);
    expect(asset).toMatchObject({ code: 1101, codespace: "sending" });
    const number = await deliver(0, [
      msg(
        sending.MsgDepositToSubaccountSchema,
        create(sending.MsgDepositToSubaccountSchema, {
          sender: alice,
          recipient: id(alice, 128_001),
          assetId: 0,
          quantums: 5n,
        }),
      ),
    ]);
    expect(number).toMatchObject({ code: 200, codespace: "subaccounts" });
  });

  it("refuses a message signed by someone else than its signer", async () => {
    const alice = devnet.accounts[0]!.address;
    const result = await deliver(1, [
      msg(
        sending.MsgWithdrawFromSubaccountSchema,
        create(sending.MsgWithdrawFromSubaccountSchema, {
          recipient: alice,
          sender: id(alice, 0),
          assetId: 0,
          quantums: 1n,
        }),
      ),
    ]);
    expect(result.code).not.toBe(0);
  });
});

describe("subaccount queries", () => {
  it("serves Subaccount and SubaccountAll over REST with SerializableInt quantums", async () => {
    const alice = devnet.accounts[0]!.address;
    const one = await json(`${devnet.endpoints.nodeRest}/perpx/subaccounts/v1/subaccount/${alice}/0`);
    expect(one.status).toBe(200);
    expect(one.body.subaccount.id).toEqual({ owner: alice, number: 0 });
    expect(one.body.subaccount.asset_positions[0].asset_id).toBe(0);
    // SerializableInt quantums are a decimal string in JSON, the same amount as over abci_query.
    const { usdc } = await subaccountOverRpc(alice, 0);
    expect(usdc).toBeGreaterThan(0n);
    expect(one.body.subaccount.asset_positions[0]).toEqual({
      asset_id: 0,
      quantums: usdc.toString(),
      index: "0",
    });
    const all = await json(`${devnet.endpoints.nodeRest}/perpx/subaccounts/v1/subaccount_all`);
    expect(all.status).toBe(200);
    expect(all.body.subaccount.length).toBeGreaterThanOrEqual(3);
    const blocked = await json(
      `${devnet.endpoints.nodeRest}/perpx/subaccounts/v1/get_withdrawal_and_transfers_blocked_info/0`,
    );
    expect(blocked.status).toBe(200);
  });

  it("serves the same over gRPC", async () => {
    const alice = devnet.accounts[0]!.address;
    const client = createClient(subaccounts.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const { subaccount } = await client.subaccount({ owner: alice, number: 0 });
    const overRpc = await subaccountOverRpc(alice, 0);
    expect(subaccount?.assetPositions[0]?.quantums).toEqual(overRpc.raw.assetPositions[0]?.quantums);
    const pool = await client.collateralPoolAddress({ perpetualId: 0 });
    expect(pool.collateralPoolAddress).toMatch(/^perpx1/);
  });
});

describe("assets, prices, perpetuals and fee tiers over REST", () => {
  it("serves the genesis of each module", async () => {
    const rest = devnet.endpoints.nodeRest;
    const asset = await json(`${rest}/perpx/assets/v1/asset/0`);
    expect(asset.body.asset).toEqual({
      id: 0,
      symbol: "USDC",
      denom: "uusdc",
      denom_exponent: -6,
      has_market: false,
      market_id: 0,
      atomic_resolution: -6,
    });
    const params = await json(`${rest}/perpx/prices/v1/all_market_params`);
    expect(params.body.market_params.map((p: Loose) => [p.pair, p.exponent])).toEqual([
      ["BTC-USD", -5],
      ["ETH-USD", -6],
      ["SOL-USD", -8],
    ]);
    expect((await json(`${rest}/perpx/prices/v1/next_market_id`)).body.next_market_id).toBe(3);
    const btc = await json(`${rest}/perpx/perpetuals/v1/perpetual/0`);
    expect(btc.body.perpetual).toMatchObject({ funding_index: "0", open_interest: "0" });
    expect(btc.body.perpetual.params).toMatchObject({
      ticker: "BTC-USD",
      atomic_resolution: -10,
      liquidity_tier: 0,
    });
    const tiers = await json(`${rest}/perpx/perpetuals/v1/all_liquidity_tiers`);
    const largeCap = perpetualsGenesis(DEFAULT_MARKETS).liquidityTiers[0]!;
    expect(tiers.body.liquidity_tiers[0]).toMatchObject({
      initial_margin_ppm: largeCap.initialMarginPpm,
      maintenance_fraction_ppm: largeCap.maintenanceFractionPpm,
    });
    expect((await json(`${rest}/perpx/perpetuals/v1/next_perpetual_id`)).body.next_perpetual_id).toBe(3);
    const fees = await json(`${rest}/perpx/feetiers/v1/perpetual_fee_params`);
    expect(fees.body.params.tiers[0]).toMatchObject({ name: "1", maker_fee_ppm: -110, taker_fee_ppm: 500 });
    expect(fees.body.params.tiers.at(-1)).toMatchObject({ taker_fee_ppm: 250 });
    const user = await json(`${rest}/perpx/feetiers/v1/user_fee_tier/${devnet.accounts[2]!.address}`);
    expect(user.body).toMatchObject({ index: 0, tier: { name: "1" } });
  });

  it("exports the modules' state in /genesis app_state", async () => {
    const genesis = await rpc("genesis", {});
    const state = genesis.genesis.app_state;
    expect(state.prices.market_prices.map((p: Loose) => p.id)).toEqual([0, 1, 2]);
    expect(state.perpetuals.perpetuals).toHaveLength(3);
    expect(state.assets.assets[0].denom).toBe("uusdc");
    expect(state.feetiers.params.tiers).toHaveLength(9);
    expect(state.subaccounts).toEqual({ subaccounts: [] });
    // SerializableInts are decimal strings in the genesis document too.
    expect(state.perpetuals.perpetuals[0]).toMatchObject({ funding_index: "0", open_interest: "0" });
    expect(
      state.clob.equity_tier_limit_config.stateful_order_equity_tiers.map((t: Loose) => t.usd_tnc_required),
    ).toEqual(["0", "20000000", "100000000", "1000000000", "10000000000", "100000000000"]);
    expect(state.ratelimit["limit_params/uusdc"].limiters.map((l: Loose) => l.baseline_minimum)).toEqual([
      "1000000000000",
      "10000000000000",
    ]);
  });
});

describe("governance of markets, perpetuals and fees", () => {
  const propose = async (messages: unknown[]) =>
    (
      await json(`${devnet.endpoints.devnetControl}/devnet/gov/proposals`, {
        method: "POST",
        body: JSON.stringify({ messages, mine: true }),
      })
    ).body;

  it("creates an oracle market and its perpetual, and updates the fee tiers", async () => {
    const authority = (await json(`${devnet.endpoints.devnetControl}/devnet/gov/authority`)).body.authority;
    const created = await propose([
      {
        "@type": "/perpx.prices.v1.MsgCreateOracleMarket",
        authority,
        params: { id: 3, pair: "DOGE-USD", exponent: -9, min_exchanges: 3, min_price_change_ppm: 4000 },
      },
      {
        "@type": "/perpx.perpetuals.v1.MsgCreatePerpetual",
        authority,
        params: {
          id: 3,
          ticker: "DOGE-USD",
          market_id: 3,
          atomic_resolution: -5,
          liquidity_tier: 2,
          market_type: "PERPETUAL_MARKET_TYPE_CROSS",
        },
      },
      {
        "@type": "/perpx.feetiers.v1.MsgUpdatePerpetualFeeParams",
        authority,
        params: {
          tiers: [{ name: "1", absolute_volume_requirement: "0", maker_fee_ppm: -50, taker_fee_ppm: 400 }],
        },
      },
    ]);
    expect(created.result).toMatchObject({ status: "passed", code: 0 });
    const rest = devnet.endpoints.nodeRest;
    expect((await json(`${rest}/perpx/prices/v1/market_param/3`)).body.market_param.pair).toBe("DOGE-USD");
    expect((await json(`${rest}/perpx/perpetuals/v1/perpetual/3`)).body.perpetual.params.ticker).toBe(
      "DOGE-USD",
    );
    expect((await json(`${rest}/perpx/feetiers/v1/perpetual_fee_params`)).body.params.tiers).toHaveLength(1);
    const set = await json(`${devnet.endpoints.devnetControl}/devnet/prices`, {
      method: "POST",
      body: JSON.stringify({ market: "DOGE-USD", price: "0.123456789" }),
    });
    expect(set.body.mantissa).toBe("123456789");
  });

  it("refuses a perpetual on a missing market and a fee schedule whose first tier has a requirement", async () => {
    const authority = (await json(`${devnet.endpoints.devnetControl}/devnet/gov/authority`)).body.authority;
    const perpetual = await propose([
      {
        "@type": "/perpx.perpetuals.v1.MsgCreatePerpetual",
        authority,
        params: { id: 9, ticker: "NOPE-USD", market_id: 42, atomic_resolution: -5, liquidity_tier: 2 },
      },
    ]);
    expect(perpetual.result).toMatchObject({ status: "failed", codespace: "perpetuals", code: 3 });
    const fees = await propose([
      {
        "@type": "/perpx.feetiers.v1.MsgUpdatePerpetualFeeParams",
        authority,
        params: {
          tiers: [{ name: "1", absolute_volume_requirement: "5", maker_fee_ppm: 0, taker_fee_ppm: 400 }],
        },
      },
    ]);
    expect(fees.result).toMatchObject({ status: "failed", codespace: "feetiers", code: 401 });
  });
});

describe("oracle control", () => {
  it("sets a price by pair, switches the walk, and reads prices back", async () => {
    const off = await json(`${devnet.endpoints.devnetControl}/devnet/prices/walk`, {
      method: "POST",
      body: JSON.stringify({ enabled: false }),
    });
    expect(off.body).toEqual({ enabled: false });
    const set = await json(`${devnet.endpoints.devnetControl}/devnet/prices`, {
      method: "POST",
      body: JSON.stringify({ market: "ETH-USD", price: "3456.78", mine: true }),
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      marketId: 1,
      pair: "ETH-USD",
      price: "3456.78",
      mantissa: "3456780000",
      exponent: -6,
    });
    devnet.mine(3);
    const client = createClient(prices.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const { marketPrice } = await client.marketPrice({ id: 1 });
    expect(marketPrice?.price).toBe(3_456_780_000n);
    const listed = await json(`${devnet.endpoints.devnetControl}/devnet/prices`);
    expect(listed.body.markets.map((m: Loose) => m.pair).slice(0, 3)).toEqual([
      "BTC-USD",
      "ETH-USD",
      "SOL-USD",
    ]);
    const bad = await json(`${devnet.endpoints.devnetControl}/devnet/prices`, {
      method: "POST",
      body: JSON.stringify({ market: "PEPE-USD", price: "1" }),
    });
    expect(bad.status).toBe(400);
    const tooPrecise = await json(`${devnet.endpoints.devnetControl}/devnet/prices`, {
      method: "POST",
      body: JSON.stringify({ market: 0, price: "65000.000001" }),
    });
    expect(tooPrecise.status).toBe(400);
    await json(`${devnet.endpoints.devnetControl}/devnet/prices/walk`, {
      method: "POST",
      body: JSON.stringify({ enabled: true }),
    });
    devnet.mine(5);
    const moved = await client.marketPrice({ id: 1 });
    expect(moved.marketPrice?.price).not.toBe(3_456_780_000n);
  });
});

describe("control: fund a subaccount", () => {
  it("deposits USDC into any subaccount through a tx of the chain, and refuses a bad number", async () => {
    const bob = devnet.accounts[1]!.address;
    const before = (await subaccountOverRpc(bob, 2)).usdc;
    const ok = await json(`${devnet.endpoints.devnetControl}/devnet/fund-subaccount`, {
      method: "POST",
      body: JSON.stringify({ owner: bob, number: 2, quantums: "2500000" }),
    });
    expect(ok.body).toEqual({
      owner: bob,
      number: 2,
      credited: "2500000",
      txHash: expect.stringMatching(/^[0-9A-F]{64}$/),
      height: devnet.app.latestBlock().height.toString(),
    });
    expect((await subaccountOverRpc(bob, 2)).usdc).toBe(before + 2_500_000n);
    // The hash is a tx of the chain: the node finds it, a MsgDepositToSubaccount in the deposit's block.
    const found = await rpc("tx", { hash: Buffer.from(ok.body.txHash, "hex").toString("base64") });
    expect([found.height, found.tx_result.code]).toEqual([ok.body.height, 0]);
    const rest = await json(`${devnet.endpoints.nodeRest}/cosmos/tx/v1beta1/txs/${ok.body.txHash}`);
    expect(rest.body.tx.body.messages).toMatchObject([
      {
        "@type": "/perpx.sending.v1.MsgDepositToSubaccount",
        recipient: { owner: bob, number: 2 },
        quantums: "2500000",
      },
    ]);
    // The indexer's transfer is a deposit from the faucet's account carrying that hash.
    const transfers = await json(
      `${devnet.endpoints.indexer}/v4/transfers?address=${bob}&subaccountNumber=2`,
    );
    expect(transfers.body.transfers[0]).toMatchObject({
      sender: { address: rest.body.tx.body.messages[0].sender },
      recipient: { address: bob, subaccountNumber: 2 },
      size: "2.5",
      type: "DEPOSIT",
      transactionHash: ok.body.txHash,
      createdAtHeight: ok.body.height,
    });
    const bad = await json(`${devnet.endpoints.devnetControl}/devnet/fund-subaccount`, {
      method: "POST",
      body: JSON.stringify({ owner: bob, number: 200_000, quantums: "1" }),
    });
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_subaccount"]);
  });
});

describe("faucet", () => {
  it("credits 1,000 USDC to subaccount 0 (or the one asked for) as well as the account", async () => {
    const fresh = "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc";
    const res = await json(`${devnet.endpoints.faucet}/faucet/tokens`, {
      method: "POST",
      body: JSON.stringify({ address: fresh }),
    });
    expect(res.status).toBe(200);
    expect(res.body.subaccount).toEqual({ number: 0, quantums: "1000000000" });
    expect((await subaccountOverRpc(fresh, 0)).usdc).toBe(1_000_000_000n);
    const second = await json(`${devnet.endpoints.faucet}/faucet/tokens`, {
      method: "POST",
      body: JSON.stringify({ address: fresh, subaccountNumber: 7 }),
    });
    expect(second.status).toBe(200);
    expect((await subaccountOverRpc(fresh, 7)).usdc).toBe(1_000_000_000n);
    const bad = await json(`${devnet.endpoints.faucet}/faucet/tokens`, {
      method: "POST",
      body: JSON.stringify({ address: fresh, subaccountNumber: -1 }),
    });
    expect(bad.body.code).toBe("invalid_subaccount");
  });
});
