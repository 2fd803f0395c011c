/**
 * Wrap, bridge, rate limits and affiliates against a running devnet: simulated IBC
 * deposits and channel recreation, wrap rules set through governance, MsgWithdraw, MsgRedeem and
 * MsgTransfer signed in the test (`@perpx/proto` + cosmjs), Backing with two vouchers; the bridge's
 * deposit lifecycle step by step, withdrawal signatures, a timelocked large withdrawal and a daily
 * limit; affiliates. Queries go over RPC `abci_query`, REST and gRPC.
 */
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet, encodePubkey, makeAuthInfoBytes, makeSignDoc } from "@cosmjs/proto-signing";
import { ibcDenom } from "@perpx/core";
import { affiliates, bridge, cosmosAbci, cosmosTx, ibcTransfer, ratelimit, wrap } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockRecord } from "../src/app/contract.js";
import { bech32Of, moduleAddress } from "../src/app/lib/addresses.js";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";

let devnet: Devnet;
const WRAP_ACCOUNT = bech32Of(moduleAddress("wrap"));
const VOUCHER_0 = ibcDenom("transfer", "channel-0", "uusdc");
const VOUCHER_1 = ibcDenom("transfer", "channel-1", "uusdc");
const SEPOLIA = 11155111n;
const ARBITRUM_SEPOLIA = 421614n;

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, faucetWindowMs: 0 });
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

// ------------------------------------------------------------------ helpers

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: Loose }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

async function control(path: string, body: unknown): Promise<{ status: number; body: Loose }> {
  return json(`${devnet.endpoints.devnetControl}/devnet${path}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
}

async function rest(path: string): Promise<Loose> {
  const { status, body } = await json(`${devnet.endpoints.nodeRest}${path}`);
  if (status !== 200) throw new Error(`${path}: ${status} ${JSON.stringify(body)}`);
  return body;
}

async function rpc(method: string, params: Record<string, unknown>): Promise<Loose> {
  const { body } = await json(devnet.endpoints.nodeRpc, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  if (body.error !== undefined) throw new Error(JSON.stringify(body.error));
  return body.result;
}

/** An ABCI query over RPC `abci_query`, decoded. */
async function abciQuery<Req extends DescMessage, Res extends DescMessage>(
  path: string,
  request: Req,
  value: MessageShape<Req>,
  response: Res,
): Promise<MessageShape<Res>> {
  const result = await rpc("abci_query", {
    path,
    data: Buffer.from(toBinary(request, value)).toString("hex"),
  });
  expect(result.response.code, result.response.log).toBe(0);
  return fromBinary(response, new Uint8Array(Buffer.from(result.response.value ?? "", "base64")));
}

async function balance(address: string, denom: string): Promise<bigint> {
  const body = await rest(
    `/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=${encodeURIComponent(denom)}`,
  );
  return BigInt(body.balance.amount);
}

interface TestMsg {
  typeUrl: string;
  value: Uint8Array;
}

function msg<Desc extends DescMessage>(schema: Desc, value: MessageShape<Desc>): TestMsg {
  return { typeUrl: `/${schema.typeName}`, value: toBinary(schema, value) };
}

interface Delivered {
  code: number;
  codespace: string;
  log: string;
  responses: Uint8Array[];
  events: Array<{ type: string; attributes: Array<{ key: string; value: string }> }>;
}

/** Signs `msgs` as genesis account `who` (SIGN_MODE_DIRECT), broadcasts over RPC, mines a block. */
async function deliver(who: number, msgs: TestMsg[]): Promise<Delivered> {
  const account = devnet.accounts[who]!;
  const info = (await rest(`/cosmos/auth/v1beta1/accounts/${account.address}`)).account;
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(account.mnemonic, { prefix: "perpx" });
  const [signer] = await wallet.getAccounts();
  const bodyBytes = toBinary(
    cosmosTx.TxBodySchema,
    create(cosmosTx.TxBodySchema, {
      messages: msgs.map((m) => ({ $typeName: "google.protobuf.Any" as const, ...m })),
    }),
  );
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey: encodePubkey(encodeSecp256k1Pubkey(signer!.pubkey)), sequence: Number(info.sequence) }],
    [{ denom: "uusdc", amount: "12500" }],
    500_000,
    undefined,
    undefined,
  );
  const doc = makeSignDoc(bodyBytes, authInfoBytes, devnet.chainId, Number(info.account_number));
  const { signature } = await wallet.signDirect(account.address, doc);
  const tx = toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, {
      bodyBytes,
      authInfoBytes,
      signatures: [new Uint8Array(Buffer.from(signature.signature, "base64"))],
    }),
  );
  const sync = await rpc("broadcast_tx_sync", { tx: Buffer.from(tx).toString("base64") });
  if (sync.code !== 0)
    return { code: sync.code, codespace: sync.codespace, log: sync.log, responses: [], events: [] };
  const [block] = devnet.mine(1);
  const result = block!.txResults.at(-1)!;
  const data = result.code === 0 ? fromBinary(cosmosAbci.TxMsgDataSchema, result.data) : undefined;
  return {
    code: result.code,
    codespace: result.codespace,
    log: result.log,
    responses: data?.msgResponses.map((r) => r.value) ?? [],
    events: result.events,
  };
}

function blockEvents(blocks: readonly BlockRecord[], type: string): BlockRecord["finalizeBlockEvents"] {
  return blocks.flatMap((b) => b.finalizeBlockEvents.filter((e) => e.type === type));
}

const addr = (who: number) => devnet.accounts[who]!.address;

// ------------------------------------------------------------------ wrap

describe("wrap", () => {
  it("has the genesis rule in force (REST, and gRPC)", async () => {
    const body = await rest("/perpx/wrap/v1/wrap_rules");
    expect(body.rules).toEqual([
      { port_id: "transfer", channel_id: "channel-0", source_denom: "uusdc", local_denom: "uusdc" },
    ]);
    const client = createClient(wrap.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const { rule } = await client.wrapRule({
      portId: "transfer",
      channelId: "channel-0",
      sourceDenom: "uusdc",
    });
    expect(rule?.localDenom).toBe("uusdc");
  });

  it("(2) wraps a matching incoming transfer one-for-one; the voucher goes to the wrap module account", async () => {
    const bob = addr(1);
    const before = await balance(bob, "uusdc");
    const { status, body } = await control("/ibc/receive", {
      channel: "channel-0",
      denom: "uusdc",
      amount: "5000000",
      sender: "noble1sender",
      receiver: bob,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ wrapped: true, voucherDenom: VOUCHER_0, creditedDenom: "uusdc" });
    expect(await balance(bob, "uusdc")).toBe(before + 5_000_000n);
    expect(await balance(bob, VOUCHER_0)).toBe(0n);
    expect(await balance(WRAP_ACCOUNT, VOUCHER_0)).toBe(5_000_000n);
    const [block] = devnet.mine(1);
    expect(blockEvents([block!], "wrap")[0]?.attributes.find((a) => a.key === "voucher_denom")?.value).toBe(
      VOUCHER_0,
    );
    const backing = await abciQuery(
      "/perpx.wrap.v1.Query/Backing",
      wrap.QueryBackingRequestSchema,
      create(wrap.QueryBackingRequestSchema, { localDenom: "uusdc" }),
      wrap.QueryBackingResponseSchema,
    );
    expect(backing.backings).toHaveLength(1);
    expect(backing.backings[0]).toMatchObject({
      localDenom: "uusdc",
      voucherDenom: VOUCHER_0,
      amountIssued: "5000000",
      remainingBalance: "5000000",
      channelId: "channel-0",
      ruleInForce: true,
    });
  });

  it("(3) lets a transfer matching no rule land untouched as ibc/<hash> (not an error)", async () => {
    const bob = addr(1);
    const { status, body } = await control("/ibc/receive", {
      channel: "channel-0",
      denom: "uatom",
      amount: "777",
      receiver: bob,
    });
    expect(status).toBe(200);
    const voucher = ibcDenom("transfer", "channel-0", "uatom");
    expect(body).toMatchObject({ wrapped: false, voucherDenom: voucher, creditedDenom: voucher });
    expect(await balance(bob, voucher)).toBe(777n);
    const trace = await rest(`/ibc/apps/transfer/v1/denom_traces/${voucher.slice(4)}`);
    expect(trace.denom_trace).toEqual({ path: "transfer/channel-0", base_denom: "uatom" });
  });

  it("(4) follows the rule set only: deleting the rule by governance stops wrapping, setting it resumes", async () => {
    const bob = addr(1);
    const deleted = await control("/gov/wrap-rules", {
      action: "delete",
      rule: { channel: "channel-0", sourceDenom: "uusdc" },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body.result).toMatchObject({ status: "passed", code: 0 });
    expect((await rest("/perpx/wrap/v1/wrap_rules")).rules).toEqual([]);
    const raw = await control("/ibc/receive", {
      channel: "channel-0",
      denom: "uusdc",
      amount: "3000",
      receiver: bob,
    });
    expect(raw.body).toMatchObject({ wrapped: false, voucherDenom: VOUCHER_0 });
    expect(await balance(bob, VOUCHER_0)).toBe(3000n);

    const set = await control("/gov/wrap-rules", {
      action: "set",
      rule: { channel: "channel-0", sourceDenom: "uusdc", localDenom: "uusdc" },
    });
    expect(set.body.result).toMatchObject({ status: "passed" });
    const wrapped = await control("/ibc/receive", {
      channel: "channel-0",
      denom: "uusdc",
      amount: "1000000",
      receiver: bob,
    });
    expect(wrapped.body).toMatchObject({ wrapped: true });
    // A governance message with another authority fails, and changes nothing.
    const { body: authority } = await json(`${devnet.endpoints.devnetControl}/devnet/gov/authority`);
    const bad = await control("/gov/proposals", {
      messages: [
        {
          "@type": "/perpx.wrap.v1.MsgDeleteWrapRule",
          authority: addr(0),
          port_id: "transfer",
          channel_id: "channel-0",
          source_denom: "uusdc",
        },
      ],
    });
    expect(bad.body.result).toMatchObject({ status: "failed" });
    expect(bad.body.result.log).toContain(authority.authority);
    expect((await rest("/perpx/wrap/v1/wrap_rules")).rules).toHaveLength(1);
  });

  it("MsgRedeem burns the local denom and hands the voucher over; it requires a backing voucher denom", async () => {
    const bob = addr(1);
    const [uusdc, voucher, held] = [
      await balance(bob, "uusdc"),
      await balance(bob, VOUCHER_0),
      await balance(WRAP_ACCOUNT, VOUCHER_0),
    ];
    const redeem = (voucherDenom: string, amount = "1000000") =>
      msg(
        wrap.MsgRedeemSchema,
        create(wrap.MsgRedeemSchema, { sender: bob, amount, voucherDenom, localDenom: "uusdc" }),
      );
    const missing = await deliver(1, [redeem("")]);
    expect(missing).toMatchObject({ code: 6, codespace: "wrap" });
    expect(missing.log).toContain("voucher denom is required");
    const wrong = await deliver(1, [redeem(VOUCHER_1)]);
    expect(wrong).toMatchObject({ code: 7, codespace: "wrap" });
    expect(wrong.log).toContain(`${VOUCHER_1} does not back uusdc`);
    const tooMuch = await deliver(1, [redeem(VOUCHER_0, "999000000000")]);
    expect(tooMuch).toMatchObject({ code: 8, codespace: "wrap" });

    const ok = await deliver(1, [redeem(VOUCHER_0)]);
    expect(ok.code).toBe(0);
    expect(ok.events.some((e) => e.type === "send_packet")).toBe(false);
    expect(await balance(bob, VOUCHER_0)).toBe(voucher + 1_000_000n);
    expect(await balance(WRAP_ACCOUNT, VOUCHER_0)).toBe(held - 1_000_000n);
    // The missing voucher denom fails in CheckTx (no fee); two failed deliveries and the good one paid 12500 uusdc each.
    expect(await balance(bob, "uusdc")).toBe(uusdc - 1_000_000n - 3n * 12_500n);
  });

  it("MsgWithdraw burns the local denom and sends the voucher back over IBC (receiver not validated)", async () => {
    const bob = addr(1);
    const held = await balance(WRAP_ACCOUNT, VOUCHER_0);
    const supply = BigInt((await rest(`/cosmos/bank/v1beta1/supply/by_denom?denom=uusdc`)).amount.amount);
    const withdraw = (voucherDenom: string) =>
      msg(
        wrap.MsgWithdrawSchema,
        create(wrap.MsgWithdrawSchema, {
          sender: bob,
          amount: "2000000",
          receiver: "noble1notourprefix0000000000000000000000",
          timeoutSeconds: 600n,
          voucherDenom,
          localDenom: "uusdc",
        }),
      );
    expect(await deliver(1, [withdraw("")])).toMatchObject({ code: 6, codespace: "wrap" });
    expect(await deliver(1, [withdraw(ibcDenom("transfer", "channel-0", "uatom"))])).toMatchObject({
      code: 7,
      codespace: "wrap",
    });
    const ok = await deliver(1, [withdraw(VOUCHER_0)]);
    expect(ok.code, ok.log).toBe(0);
    const response = fromBinary(wrap.MsgWithdrawResponseSchema, ok.responses[0]!);
    expect(response.channelId).toBe("channel-0");
    expect(response.sequence).toBe(1n);
    const packet = ok.events.find((e) => e.type === "send_packet")!;
    const attr = (k: string) => packet.attributes.find((a) => a.key === k)?.value;
    expect(attr("packet_src_channel")).toBe("channel-0");
    expect(JSON.parse(attr("packet_data")!)).toMatchObject({
      denom: "transfer/channel-0/uusdc",
      amount: "2000000",
      receiver: "noble1notourprefix0000000000000000000000",
    });
    const latest = devnet.app.latestBlock();
    expect(BigInt(attr("packet_timeout_timestamp")!)).toBe(
      (BigInt(latest.time.getTime()) / 1000n + 600n) * 1_000_000_000n,
    );
    expect(await balance(WRAP_ACCOUNT, VOUCHER_0)).toBe(held - 2_000_000n);
    const supplyAfter = BigInt(
      (await rest(`/cosmos/bank/v1beta1/supply/by_denom?denom=uusdc`)).amount.amount,
    );
    expect(supplyAfter).toBe(supply - 2_000_000n);
    // The withdrawal of rate-limited uusdc is held against capacity until acknowledged.
    const pending = await rest("/perpx/ratelimit/v1/all_pending_send_packets");
    expect(pending.pending_send_packets).toContainEqual({ channel_id: "channel-0", sequence: "1" });
  });

  it("accepts and records an outgoing ICS-20 MsgTransfer (voucher burned, native coin escrowed)", async () => {
    const bob = addr(1);
    const transferAccount = (
      await rest("/ibc/apps/transfer/v1/channels/channel-0/ports/transfer/escrow_address")
    ).escrow_address as string;
    const timeoutTimestamp = (BigInt(devnet.app.latestBlock().time.getTime()) + 3_600_000n) * 1_000_000n;
    const transfer = (denom: string, amount: string) =>
      msg(
        ibcTransfer.MsgTransferSchema,
        create(ibcTransfer.MsgTransferSchema, {
          sourcePort: "transfer",
          sourceChannel: "channel-0",
          token: { $typeName: "cosmos.base.v1beta1.Coin", denom, amount },
          sender: bob,
          receiver: "noble1receiver",
          timeoutTimestamp,
          memo: "perpx test",
        }),
      );
    const voucherBefore = await balance(bob, VOUCHER_0);
    const returning = await deliver(1, [transfer(VOUCHER_0, "1000")]);
    expect(returning.code, returning.log).toBe(0);
    expect(fromBinary(ibcTransfer.MsgTransferResponseSchema, returning.responses[0]!).sequence).toBe(2n);
    expect(returning.events.some((e) => e.type === "burn")).toBe(true);
    expect(await balance(bob, VOUCHER_0)).toBe(voucherBefore - 1000n);

    const escrowBefore = await balance(transferAccount, "aperpx");
    const native = await deliver(1, [transfer("aperpx", "5000")]);
    expect(native.code, native.log).toBe(0);
    expect(fromBinary(ibcTransfer.MsgTransferResponseSchema, native.responses[0]!).sequence).toBe(3n);
    expect(await balance(transferAccount, "aperpx")).toBe(escrowBefore + 5000n);
    const sent = native.events.find((e) => e.type === "ibc_transfer")!;
    expect(sent.attributes).toContainEqual(expect.objectContaining({ key: "memo", value: "perpx test" }));

    const noTimeout = await deliver(1, [
      msg(
        ibcTransfer.MsgTransferSchema,
        create(ibcTransfer.MsgTransferSchema, {
          sourcePort: "transfer",
          sourceChannel: "channel-0",
          token: { $typeName: "cosmos.base.v1beta1.Coin", denom: "aperpx", amount: "1" },
          sender: bob,
          receiver: "noble1receiver",
        }),
      ),
    ]);
    expect(noTimeout).toMatchObject({ codespace: "channel", code: 13 });
  });

  it("(1, 5) after a channel is recreated the old rule stops matching silently: the same coin lands as a raw voucher", async () => {
    const bob = addr(1);
    const recreated = await control("/ibc/recreate-channel", { channel: "channel-0" });
    expect(recreated.status).toBe(200);
    expect(recreated.body).toEqual({ closed: "channel-0", opened: "channel-1" });
    const channels = await rest("/ibc/core/channel/v1/channels");
    expect(channels.channels.map((c: Loose) => [c.channel_id, c.state])).toEqual([
      ["channel-0", "STATE_CLOSED"],
      ["channel-1", "STATE_OPEN"],
    ]);
    const closed = await control("/ibc/receive", {
      channel: "channel-0",
      denom: "uusdc",
      amount: "1",
      receiver: bob,
    });
    expect(closed.status).toBe(400);
    expect(closed.body.code).toBe("channel");

    const raw = await control("/ibc/receive", {
      channel: "channel-1",
      denom: "uusdc",
      amount: "4000000",
      receiver: bob,
    });
    expect(raw.status).toBe(200);
    expect(raw.body).toMatchObject({ wrapped: false, voucherDenom: VOUCHER_1 });
    expect(await balance(bob, VOUCHER_1)).toBe(4_000_000n);
  });

  it("(6) one local denom is backed by two vouchers once governance replaces the rule", async () => {
    const bob = addr(1);
    const replaced = await control("/gov/wrap-rules", {
      rules: [{ channel: "channel-1", sourceDenom: "uusdc", localDenom: "uusdc" }],
    });
    expect(replaced.body.result).toMatchObject({ status: "passed" });
    const before = await balance(bob, "uusdc");
    const wrapped = await control("/ibc/receive", {
      channel: "channel-1",
      denom: "uusdc",
      amount: "6000000",
      receiver: bob,
    });
    expect(wrapped.body).toMatchObject({ wrapped: true, voucherDenom: VOUCHER_1 });
    expect(await balance(bob, "uusdc")).toBe(before + 6_000_000n);
    devnet.mine(1);
    const client = createClient(wrap.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const { backings } = await client.backing({ localDenom: "uusdc" });
    expect(backings.map((b) => [b.voucherDenom, b.amountIssued, b.remainingBalance, b.ruleInForce])).toEqual(
      [
        [VOUCHER_0, "6000000", "3000000", false],
        [VOUCHER_1, "6000000", "6000000", true],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    const overRest = await rest("/perpx/wrap/v1/backing?local_denom=uusdc");
    expect(overRest.backings).toHaveLength(2);
  });
});

// ------------------------------------------------------------------ bridge

const STATUS = bridge.BridgeEventStatus;

async function depositRecords(address: string): Promise<bridge.BridgeEventRecord[]> {
  const response = await abciQuery(
    "/perpx.bridge.v1.Query/BridgeEvents",
    bridge.QueryBridgeEventsRequestSchema,
    create(bridge.QueryBridgeEventsRequestSchema, { address }),
    bridge.QueryBridgeEventsResponseSchema,
  );
  return response.events;
}

describe("bridge", () => {
  it("credits a deposit through OBSERVED, FINALIZED, ACKNOWLEDGED and COMPLETED, each visible in queries and events", async () => {
    const carl = addr(2);
    const params = await rest(`/perpx/bridge/v1/event_params?eth_chain_id=${SEPOLIA}`);
    expect(params.all_params).toHaveLength(2);
    const before = await balance(carl, "uusdc");
    const { status, body } = await control("/bridge/deposit", {
      chain: "sepolia",
      bridgeContract: params.params.eth_address,
      token: params.params.token_address,
      sender: "0x00000000000000000000000000000000000000aa",
      address: carl,
      amount: "7000000",
      sourceBlock: 123456,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ ethChainId: SEPOLIA.toString(), id: 0, status: "OBSERVED" });

    const seen: string[] = [];
    const blocks: BlockRecord[] = [];
    let recognizedAtFinalized = -1;
    let acknowledgedAtFinalized = -1;
    let delayedAtAcknowledged: bridge.DelayedCompleteBridgeMessage[] = [];
    for (let i = 0; i < 20; i++) {
      const [record] = await depositRecords(carl);
      const statusName = STATUS[record!.status];
      if (seen.at(-1) !== statusName) {
        seen.push(statusName);
        if (record!.status === STATUS.FINALIZED) {
          recognizedAtFinalized = (
            await rest(`/perpx/bridge/v1/recognized_event_info?eth_chain_id=${SEPOLIA}`)
          ).info.next_id;
          acknowledgedAtFinalized = (
            await rest(`/perpx/bridge/v1/acknowledged_event_info?eth_chain_id=${SEPOLIA}`)
          ).info.next_id;
          expect(await balance(carl, "uusdc")).toBe(before);
        }
        if (record!.status === STATUS.ACKNOWLEDGED) {
          const delayed = await abciQuery(
            "/perpx.bridge.v1.Query/DelayedCompleteBridgeMessages",
            bridge.QueryDelayedCompleteBridgeMessagesRequestSchema,
            create(bridge.QueryDelayedCompleteBridgeMessagesRequestSchema, { address: carl }),
            bridge.QueryDelayedCompleteBridgeMessagesResponseSchema,
          );
          delayedAtAcknowledged = delayed.messages;
          expect(BigInt(delayed.messages[0]!.blockHeight)).toBe(record!.completeAtBlock);
          expect(
            (await rest(`/perpx/bridge/v1/acknowledged_event_info?eth_chain_id=${SEPOLIA}`)).info.next_id,
          ).toBe(1);
          expect(await balance(carl, "uusdc")).toBe(before);
        }
      }
      if (record!.status === STATUS.COMPLETED) break;
      blocks.push(...devnet.mine(1));
    }
    expect(seen).toEqual(["OBSERVED", "FINALIZED", "ACKNOWLEDGED", "COMPLETED"]);
    expect(recognizedAtFinalized).toBe(1);
    expect(acknowledgedAtFinalized).toBe(0);
    expect(delayedAtAcknowledged).toHaveLength(1);
    expect(await balance(carl, "uusdc")).toBe(before + 7_000_000n);
    const delayedAfter = await rest(`/perpx/bridge/v1/delayed_complete_bridge_messages?address=${carl}`);
    expect(delayedAfter.messages).toEqual([]);
    // Finality takes 3 blocks, completion `delay_blocks` (5 for the local profile) after acknowledgement.
    const safety = await rest("/perpx/bridge/v1/safety_params");
    const [record] = await depositRecords(carl);
    expect(record!.completeAtBlock - record!.acknowledgedAtBlock).toBe(BigInt(safety.params.delay_blocks));
    for (const type of ["bridge_event_finalized", "bridge_event_acknowledged", "bridge_event_completed"]) {
      expect(blockEvents(blocks, type), type).toHaveLength(1);
    }
  });

  it("keeps ids per source chain and refuses a deposit to another contract", async () => {
    const bad = await control("/bridge/deposit", {
      ethChainId: ARBITRUM_SEPOLIA.toString(),
      bridgeContract: "0x000000000000000000000000000000000000dEaD",
      sender: "0x00000000000000000000000000000000000000aa",
      amount: "1",
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "bridge" });
    expect(bad.body.message).toContain("is not the bridge of chain 421614");
    const ok = await control("/bridge/deposit", {
      ethChainId: ARBITRUM_SEPOLIA.toString(),
      sender: "0x00000000000000000000000000000000000000aa",
      address: addr(2),
      amount: "1000",
      sourceBlock: "77",
    });
    expect(ok.body).toMatchObject({ ethChainId: "421614", id: 0, status: "OBSERVED" });
  });

  it("aggregates withdrawal signatures block by block until ready for relay; the fee is charged", async () => {
    const carl = addr(2);
    const before = await balance(carl, "uusdc");
    const result = await deliver(2, [
      msg(
        bridge.MsgInitiateWithdrawalSchema,
        create(bridge.MsgInitiateWithdrawalSchema, {
          sender: carl,
          recipient: "0x00000000000000000000000000000000000000bb",
          coin: { $typeName: "cosmos.base.v1beta1.Coin", denom: "uusdc", amount: "5000000" },
          ethChainId: SEPOLIA,
        }),
      ),
    ]);
    expect(result.code, result.log).toBe(0);
    const id = fromBinary(bridge.MsgInitiateWithdrawalResponseSchema, result.responses[0]!).withdrawalId;
    // 5 USDC withdrawn, a 1 USDC withdrawal fee, 12500 uusdc gas fee.
    expect(await balance(carl, "uusdc")).toBe(before - 5_000_000n - 1_000_000n - 12_500n);
    const client = createClient(bridge.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const read = async () => (await client.aggregatedWithdrawal({ withdrawalId: id })).withdrawal!;
    let w = await read();
    expect(w).toMatchObject({
      signatureCount: 0n,
      requiredSignatures: 2n,
      readyForRelay: false,
      assignedRelayer: "",
    });
    expect(w.readyAtBlock).toBe(w.withdrawal!.createdAtBlock);
    devnet.mine(1);
    w = await read();
    expect(w).toMatchObject({ signatureCount: 1n, readyForRelay: false });
    expect(w.signatures[0]!.signature).toHaveLength(65);
    expect(w.signatures[0]!.validatorAddress).toMatch(/^perpxvaloper1/);
    devnet.mine(1);
    w = await read();
    expect(w).toMatchObject({ signatureCount: 2n, readyForRelay: true });
    expect(w.assignedRelayer).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const ready = await rest(`/perpx/bridge/v1/aggregated_withdrawals?ready_for_relay_only=true`);
    expect(ready.withdrawals.map((x: Loose) => x.withdrawal.id)).toContain(id.toString());
  });

  it("timelocks a large withdrawal: it becomes ready only `timelock_blocks` later, and pays the fee", async () => {
    const carl = addr(2);
    const configs = await rest("/perpx/ratelimit/v1/asset_withdrawal_configs");
    const config = configs.configs[0];
    const threshold = BigInt(config.large_withdrawal_threshold);
    const timelock = BigInt(config.timelock_blocks);
    const fee = BigInt(config.withdrawal_fee[0].amount);
    const before = await balance(carl, "uusdc");
    const result = await deliver(2, [
      msg(
        bridge.MsgInitiateWithdrawalSchema,
        create(bridge.MsgInitiateWithdrawalSchema, {
          sender: carl,
          recipient: "0x00000000000000000000000000000000000000bb",
          coin: { $typeName: "cosmos.base.v1beta1.Coin", denom: "uusdc", amount: threshold.toString() },
          ethChainId: SEPOLIA,
        }),
      ),
    ]);
    expect(result.code, result.log).toBe(0);
    expect(await balance(carl, "uusdc")).toBe(before - threshold - fee - 12_500n);
    const id = fromBinary(bridge.MsgInitiateWithdrawalResponseSchema, result.responses[0]!).withdrawalId;
    const read = async () => (await rest(`/perpx/bridge/v1/aggregated_withdrawal/${id}`)).withdrawal;
    let w = await read();
    const created = BigInt(w.withdrawal.created_at_block);
    expect(BigInt(w.ready_at_block)).toBe(created + timelock);
    devnet.mine(Number(timelock) - 1);
    w = await read();
    expect(w.signature_count).toBe("3");
    expect(w.ready_for_relay).toBe(false);
    expect(devnet.app.latestBlock().height).toBe(created + timelock - 1n);
    const [readyBlock] = devnet.mine(1);
    w = await read();
    expect(w.ready_for_relay).toBe(true);
    expect(blockEvents([readyBlock!], "bridge_withdrawal_ready")).toHaveLength(1);
  });

  it("enforces a per-chain daily limit with a clear error, and resets it after a day", async () => {
    const dave = addr(3);
    const { body: authority } = await json(`${devnet.endpoints.devnetControl}/devnet/gov/authority`);
    const proposal = await control("/gov/proposals", {
      messages: [
        {
          "@type": "/perpx.ratelimit.v1.MsgSetAssetChainDailyLimit",
          authority: authority.authority,
          config: { chain_id: ARBITRUM_SEPOLIA.toString(), asset_id: 0, daily_limit: "10000000" },
        },
      ],
    });
    expect(proposal.body.result).toMatchObject({ status: "passed" });
    const limits = await abciQuery(
      "/perpx.ratelimit.v1.Query/DailyLimits",
      ratelimit.QueryDailyLimitsRequestSchema,
      create(ratelimit.QueryDailyLimitsRequestSchema, { chainId: ARBITRUM_SEPOLIA }),
      ratelimit.QueryDailyLimitsResponseSchema,
    );
    expect(limits.limits).toEqual([expect.objectContaining({ dailyLimit: "10000000", assetId: 0 })]);
    const withdraw = (amount: string) =>
      msg(
        bridge.MsgInitiateWithdrawalSchema,
        create(bridge.MsgInitiateWithdrawalSchema, {
          sender: dave,
          recipient: "0x00000000000000000000000000000000000000cc",
          coin: { $typeName: "cosmos.base.v1beta1.Coin", denom: "uusdc", amount },
          ethChainId: ARBITRUM_SEPOLIA,
        }),
      );
    expect((await deliver(3, [withdraw("6000000")])).code).toBe(0);
    const hit = await deliver(3, [withdraw("5000000")]);
    expect(hit).toMatchObject({ code: 2001, codespace: "ratelimit" });
    expect(hit.log).toContain("daily limit 10000000, used 6000000, requested 5000000");
    const usage = await rest(`/perpx/ratelimit/v1/daily_usage?chain_id=${ARBITRUM_SEPOLIA}`);
    expect(usage.usage[0]).toMatchObject({ daily_used: "6000000", asset_id: 0 });
    const firstReset = Number(usage.usage[0].last_reset);

    await control("/advance-time", { ms: 86_400_000, mine: true });
    const again = await deliver(3, [withdraw("5000000")]);
    expect(again.code, again.log).toBe(0);
    const after = await rest(`/perpx/ratelimit/v1/daily_usage?chain_id=${ARBITRUM_SEPOLIA}`);
    expect(after.usage[0].daily_used).toBe("5000000");
    expect(Number(after.usage[0].last_reset)).toBeGreaterThanOrEqual(firstReset + 86_400);
  });
});

// ------------------------------------------------------------------ ratelimit and affiliates

describe("ratelimit queries", () => {
  it("lists limiters and their capacity", async () => {
    const list = await rest("/perpx/ratelimit/v1/list_limit_params");
    expect(list.limit_params_list[0].denom).toBe("uusdc");
    expect(list.limit_params_list[0].limiters).toHaveLength(2);
    const client = createClient(ratelimit.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const { limiterCapacityList } = await client.capacityByDenom({ denom: "uusdc" });
    expect(limiterCapacityList).toHaveLength(2);
    expect(limiterCapacityList[0]!.capacity[0]).toBe(0x02);
    // Over REST, SerializableInts are decimal strings.
    expect(list.limit_params_list[0].limiters.map((l: Loose) => l.baseline_minimum)).toEqual([
      "1000000000000",
      "10000000000000",
    ]);
    const capacity = await rest("/perpx/ratelimit/v1/capacity_by_denom?denom=uusdc");
    expect(capacity.limiter_capacity_list.map((c: Loose) => c.capacity)).toEqual([
      expect.stringMatching(/^\d+$/),
      expect.stringMatching(/^\d+$/),
    ]);
  });

  it("takes SerializableInts as decimal strings in a proposal's JSON", async () => {
    const { body: authority } = await json(`${devnet.endpoints.devnetControl}/devnet/gov/authority`);
    const proposal = await control("/gov/proposals", {
      messages: [
        {
          "@type": "/perpx.ratelimit.v1.MsgSetLimitParams",
          authority: authority.authority,
          limit_params: {
            denom: "ufake",
            limiters: [
              {
                period: "3600s",
                baseline_minimum: "123456789012345678901234567890",
                baseline_tvl_ppm: 10_000,
              },
            ],
          },
        },
      ],
    });
    expect(proposal.body.result).toMatchObject({ status: "passed" });
    const list = await rest("/perpx/ratelimit/v1/list_limit_params");
    const fake = list.limit_params_list.find((p: Loose) => p.denom === "ufake");
    expect(fake.limiters).toEqual([
      { period: "3600s", baseline_minimum: "123456789012345678901234567890", baseline_tvl_ppm: 10_000 },
    ]);
    // The real chain's LimitParams.Validate: a baseline minimum must be positive (1005), the TVL
    // share in (0, 1_000_000] (1006), the period non-zero (1004).
    const refused = async (limiter: Record<string, unknown>) =>
      (
        await control("/gov/proposals", {
          messages: [
            {
              "@type": "/perpx.ratelimit.v1.MsgSetLimitParams",
              authority: authority.authority,
              limit_params: { denom: "ufake", limiters: [limiter] },
            },
          ],
        })
      ).body.result;
    expect(
      await refused({
        period: "3600s",
        baseline_minimum: "-123456789012345678901234567890",
        baseline_tvl_ppm: 1,
      }),
    ).toMatchObject({ status: "failed", codespace: "ratelimit", code: 1005 });
    expect(await refused({ period: "3600s", baseline_minimum: "1", baseline_tvl_ppm: 0 })).toMatchObject({
      code: 1006,
    });
    expect(await refused({ period: "0s", baseline_minimum: "1", baseline_tvl_ppm: 1 })).toMatchObject({
      code: 1004,
    });
    const bad = await json(`${devnet.endpoints.devnetControl}/devnet/gov/proposals`, {
      method: "POST",
      body: JSON.stringify({
        messages: [
          {
            "@type": "/perpx.ratelimit.v1.MsgSetLimitParams",
            authority: authority.authority,
            limit_params: { denom: "ufake", limiters: [{ baseline_minimum: "1.5" }] },
          },
        ],
      }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("limit_params.limiters[0].baseline_minimum");
  });
});

describe("affiliates", () => {
  it("serves tiers, whitelist, parameters and overrides from genesis", async () => {
    const tiers = await rest("/perpx/affiliates/v1/all_affiliate_tiers");
    expect(tiers.tiers.tiers[0]).toMatchObject({
      req_referred_volume_quote_quantums: "0",
      taker_fee_share_ppm: 50000,
    });
    expect(tiers.tiers.tiers.map((t: { taker_fee_share_ppm: number }) => t.taker_fee_share_ppm)).toEqual([
      50000, 100000, 125000, 150000, 250000,
    ]);
    // The reference genesis lists nobody (the whitelist is deprecated: overrides replaced it).
    const whitelist = await rest("/perpx/affiliates/v1/affiliate_whitelist");
    expect(whitelist.whitelist.tiers ?? []).toEqual([]);
    const parameters = await abciQuery(
      "/perpx.affiliates.v1.Query/AffiliateParameters",
      affiliates.AffiliateParametersRequestSchema,
      create(affiliates.AffiliateParametersRequestSchema),
      affiliates.AffiliateParametersResponseSchema,
    );
    expect(parameters.parameters?.refereeMinimumFeeTierIdx).toBe(2);
    const overrides = await rest("/perpx/affiliates/v1/affiliate_overrides");
    expect(overrides.overrides).toEqual({ addresses: [] });
  });

  it("answers AffiliateInfo with the fields of the specification", async () => {
    const client = createClient(affiliates.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const other = await client.affiliateInfo({ address: addr(4) });
    expect(other).toMatchObject({ isWhitelisted: false, tier: 0, feeSharePpm: 50000 });
    const regular = await rest(`/perpx/affiliates/v1/affiliate_info/${addr(0)}`);
    expect(regular).toEqual({
      is_whitelisted: false,
      tier: 0,
      fee_share_ppm: 50000,
      referred_volume: "0",
      staked_amount: "0",
      referred_volume_30d_rolling: "0",
      attributed_volume_30d_rolling: "0",
    });
  });

  it("registers a referral once (MsgRegisterAffiliate) and answers ReferredBy", async () => {
    const [alice, bob] = [addr(0), addr(1)];
    expect((await rest(`/perpx/affiliates/v1/referred_by/${bob}`)).affiliate_address).toBe("");
    const register = () =>
      msg(
        affiliates.MsgRegisterAffiliateSchema,
        create(affiliates.MsgRegisterAffiliateSchema, { referee: bob, affiliate: alice }),
      );
    expect((await deliver(1, [register()])).code).toBe(0);
    expect((await rest(`/perpx/affiliates/v1/referred_by/${bob}`)).affiliate_address).toBe(alice);
    expect(await deliver(1, [register()])).toMatchObject({ code: 1, codespace: "affiliates" });
  });
});
