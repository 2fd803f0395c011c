/**
 * Every REST path, every gRPC service over TLS, the EVM JSON-RPC methods, the faucet and the control
 * server, against the real chain application.
 */
import { createHash } from "node:crypto";
import { create, type DescMethod, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
import { SigningStargateClient } from "@cosmjs/stargate";
import { addressToHex } from "@perpx/address";
import {
  cosmosAuth,
  cosmosBank,
  cosmosNode,
  cosmosTendermint,
  cosmosTx,
  cosmosUpgrade,
  ibcChannel,
  typeRegistry,
} from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";

let devnet: Devnet;
let testnet: Devnet;

beforeAll(async () => {
  [devnet, testnet] = await Promise.all([
    startDevnet({ ports: "free", blockTimeMs: 0, faucetWindowMs: 60_000 }),
    startDevnet({ ports: "free", blockTimeMs: 0, profile: "testnet" }),
  ]);
  devnet.mine(1);
});

afterAll(async () => {
  await Promise.all([devnet?.stop(), testnet?.stop()]);
});

async function json(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: Loose; headers: Headers }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** A signed bank send from alice to bob, as TxRaw bytes. */
async function signedSend(amount: string, sequenceOffset = 0): Promise<Uint8Array> {
  const [alice, bob] = [devnet.accounts[0]!, devnet.accounts[1]!];
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(alice.mnemonic, { prefix: "perpx" });
  const signer = await SigningStargateClient.offline(wallet);
  const account = (await json(`${devnet.endpoints.nodeRest}/cosmos/auth/v1beta1/accounts/${alice.address}`))
    .body.account;
  const signed = await signer.sign(
    alice.address,
    [
      {
        typeUrl: "/cosmos.bank.v1beta1.MsgSend",
        value: { fromAddress: alice.address, toAddress: bob.address, amount: [{ denom: "uusdc", amount }] },
      },
    ],
    { amount: [{ denom: "uusdc", amount: "5000" }], gas: "200000" },
    "",
    {
      accountNumber: BigInt(account.account_number),
      sequence: Number(account.sequence) + sequenceOffset,
      chainId: devnet.chainId,
    },
  );
  return toBinary(cosmosTx.TxRawSchema, create(cosmosTx.TxRawSchema, signed));
}

describe("CometBFT RPC", () => {
  const rpc = (method: string, params: Record<string, unknown> = {}) =>
    json(devnet.endpoints.nodeRpc, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
    });

  it("commits a tx with broadcast_tx_commit, finds it by GET 0x-hash, and reports a Tx event with a tx.hash condition", async () => {
    const { WebSocket } = await import("ws");
    const tx = await signedSend("99");
    const hash = createHash("sha256").update(tx).digest("hex").toUpperCase();
    const socket = new WebSocket(devnet.endpoints.nodeRpcWs);
    await new Promise((r) => socket.once("open", r));
    let subscribed: () => void = () => undefined;
    const subscribeReply = new Promise<void>((resolve) => {
      subscribed = resolve;
    });
    const event = new Promise<Loose>((resolve) => {
      socket.on("message", (d) => {
        const message = JSON.parse(d.toString());
        if (message.result?.data) resolve(message);
        else if (message.id === "sub") subscribed();
      });
    });
    socket.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: "sub",
        method: "subscribe",
        params: { query: `tm.event='Tx' AND tx.hash='${hash}'` },
      }),
    );
    await subscribeReply;
    // Blocks are mined by hand: keep mining until the tx is in one (it is once CheckTx took it).
    const timer = setInterval(() => devnet.mine(1), 50);
    const committed = await rpc("broadcast_tx_commit", { tx: Buffer.from(tx).toString("base64") }).finally(
      () => clearInterval(timer),
    );
    expect(committed.body.result.check_tx.code).toBe(0);
    expect(committed.body.result.tx_result.code).toBe(0);
    expect(committed.body.result.hash).toBe(hash);
    const message = await event;
    socket.close();
    expect(message.id).toBe("sub");
    expect(message.result.data.type).toBe("tendermint/event/Tx");
    expect(message.result.data.value.TxResult.height).toBe(committed.body.result.height);
    expect(message.result.events["tx.hash"]).toEqual([hash]);
    const byGet = await json(`${devnet.endpoints.nodeRpc}/tx?hash=0x${hash}`);
    expect(byGet.body.result.height).toBe(committed.body.result.height);
    const results = await json(
      `${devnet.endpoints.nodeRpc}/block_results?height=${committed.body.result.height}`,
    );
    expect(results.body.result.txs_results[0].code).toBe(0);
  });

  it("answers a malformed search query with -32602 naming the query", async () => {
    const bad = await rpc("tx_search", { query: "tx.height=" });
    expect(bad.body.error.code).toBe(-32602);
    expect(bad.body.error.message).toContain("query");
  });

  it("answers a height beyond any block (or a float exponent) in tx_search with -32602 over POST and 500 over GET (CometBFT's URI status)", async () => {
    for (const query of [
      `tx.height>${"9".repeat(400)}`,
      "tx.height>1e400",
      "tx.height=9223372036854775808",
    ]) {
      const post = await rpc("tx_search", { query });
      expect(post.status).toBe(200);
      expect(post.body.error.code, query).toBe(-32602);
      expect(post.body.error.message).toContain("query");
      expect(post.body.error.data).not.toContain("BigInt");
      const get = await json(
        `${devnet.endpoints.nodeRpc}/tx_search?query=${encodeURIComponent(JSON.stringify(query))}`,
      );
      expect(get.status, query).toBe(500);
      expect(get.body.error.code).toBe(-32602);
    }
    const largest = await rpc("tx_search", { query: "tx.height<=9223372036854775807 AND tx.height>0" });
    expect(Number(largest.body.result.total_count)).toBeGreaterThan(0);
  });

  it("finds blocks with block_search by height and by finalize-block event, with the same parser", async () => {
    devnet.mine(2);
    const byHeight = await rpc("block_search", {
      query: "block.height>=2 AND block.height<4",
      order_by: "desc",
    });
    expect(byHeight.body.result.blocks.map((b: Loose) => b.block.header.height)).toEqual(["3", "2"]);
    expect(byHeight.body.result.total_count).toBe("2");
    const [event] = devnet.app.latestBlock().finalizeBlockEvents;
    expect(event).toBeDefined();
    const byEvent = await json(
      `${devnet.endpoints.nodeRpc}/block_search?query=${encodeURIComponent(`"${event!.type}.mode='BeginBlock'"`)}&per_page=100`,
    );
    expect(byEvent.status).toBe(200);
    expect(byEvent.body.result.blocks.map((b: Loose) => b.block.header.height)).toContain(
      devnet.app.latestBlock().height.toString(),
    );
    const bad = await rpc("block_search", { query: `block.height>${"9".repeat(30)}` });
    expect(bad.body.error.code).toBe(-32602);
  });
});

describe("REST", () => {
  const rest = () => devnet.endpoints.nodeRest;
  const alice = () => devnet.accounts[0]!.address;

  it("serves the four paths of the specification", async () => {
    const channels = await json(`${rest()}/ibc/core/channel/v1/channels`);
    expect(channels.status).toBe(200);
    for (const channel of channels.body.channels) {
      expect(channel).toHaveProperty("channel_id");
      expect(channel).toHaveProperty("state");
      expect(channel.counterparty).toHaveProperty("channel_id");
    }
    const config = await json(`${rest()}/cosmos/base/node/v1beta1/config`);
    expect(config.body.minimum_gas_price).toMatch(/uusdc/);
    expect(config.body.minimum_gas_price).toMatch(/aperpx/);
    const nodeInfo = await json(`${testnet.endpoints.nodeRest}/cosmos/base/tendermint/v1beta1/node_info`);
    expect(nodeInfo.body.application_version.version).toBe("v27.5");
    expect(nodeInfo.body.default_node_info.network).toBe("perpx-testnet-1");
    const plan = await json(`${testnet.endpoints.nodeRest}/cosmos/upgrade/v1beta1/applied_plan/v27.5`);
    expect(plan.body.height).toBe("5016944");
    const older = await json(`${testnet.endpoints.nodeRest}/cosmos/upgrade/v1beta1/applied_plan/v26.12`);
    expect(older.body.height).toBe("776500");
  });

  it("serves accounts, balances and supply", async () => {
    const account = await json(`${rest()}/cosmos/auth/v1beta1/accounts/${alice()}`);
    expect(account.body.account["@type"]).toBe("/cosmos.auth.v1beta1.BaseAccount");
    expect(account.body.account.address).toBe(alice());
    expect(typeof account.body.account.sequence).toBe("string");
    const missing = await json(
      `${rest()}/cosmos/auth/v1beta1/accounts/perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc`,
    );
    expect(missing.status).toBe(404);
    const balances = await json(`${rest()}/cosmos/bank/v1beta1/balances/${alice()}`);
    expect(balances.body.balances.map((b: Loose) => b.denom)).toEqual(["aperpx", "uusdc"]);
    const byDenom = await json(`${rest()}/cosmos/bank/v1beta1/balances/${alice()}/by_denom?denom=uusdc`);
    expect(byDenom.body.balance.denom).toBe("uusdc");
    expect(BigInt(byDenom.body.balance.amount)).toBeGreaterThan(0n);
    const supply = await json(`${rest()}/cosmos/bank/v1beta1/supply`);
    expect(supply.body.supply.length).toBeGreaterThan(0);
    const bad = await json(`${rest()}/cosmos/bank/v1beta1/balances/not-an-address`);
    expect(bad.status).toBe(400);
  });

  it("simulates, broadcasts and finds a tx", async () => {
    const tx = await signedSend("321");
    const simulated = await json(`${rest()}/cosmos/tx/v1beta1/simulate`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64") }),
    });
    expect(simulated.status).toBe(200);
    expect(BigInt(simulated.body.gas_info.gas_used)).toBeGreaterThan(0n);
    const sent = await json(`${rest()}/cosmos/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_SYNC" }),
    });
    expect(sent.body.tx_response.code).toBe(0);
    const hash = sent.body.tx_response.txhash as string;
    const [block] = devnet.mine(1);
    const found = await json(`${rest()}/cosmos/tx/v1beta1/txs/${hash}`);
    expect(found.status).toBe(200);
    expect(found.body.tx_response.height).toBe(block!.height.toString());
    expect(found.body.tx.body.messages[0]["@type"]).toBe("/cosmos.bank.v1beta1.MsgSend");
    const search = await json(
      `${rest()}/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(`tx.height=${block!.height}`)}`,
    );
    expect(search.body.tx_responses.map((t: Loose) => t.txhash)).toContain(hash);
    const stale = await json(`${rest()}/cosmos/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_SYNC" }),
    });
    // A committed tx stays in CometBFT's mempool cache: the SDK answers code 19 before CheckTx.
    expect(stale.body.tx_response).toMatchObject({ code: 19, codespace: "sdk", txhash: hash });
    const badMode = await json(`${rest()}/cosmos/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "NOPE" }),
    });
    expect(badMode.status).toBe(400);
  });

  it("serves blocks and syncing", async () => {
    const latest = await json(`${rest()}/cosmos/base/tendermint/v1beta1/blocks/latest`);
    expect(latest.body.block.header.chain_id).toBe("perpx-local-1");
    const height = latest.body.block.header.height as string;
    const byHeight = await json(`${rest()}/cosmos/base/tendermint/v1beta1/blocks/${height}`);
    expect(byHeight.body.block_id.hash).toBe(latest.body.block_id.hash);
    const syncing = await json(`${rest()}/cosmos/base/tendermint/v1beta1/syncing`);
    expect(syncing.body.syncing).toBe(false);
    const tooHigh = await json(`${rest()}/cosmos/base/tendermint/v1beta1/blocks/999999`);
    expect(tooHigh.status).toBeGreaterThanOrEqual(400);
  });

  it("routes every perpx Query method generically and answers unknown paths with 404", async () => {
    const res = await fetch(`${rest()}/perpx/accountplus/v1/params`);
    expect(res.status).toBe(200);
    const kebab = await fetch(`${rest()}/perpx/clob/v1/clob-pair-all`);
    expect(kebab.status).not.toBe(404);
    const unknown = await json(`${rest()}/perpx/clob/v1/nothing_here`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 5 });
  });
});

describe("gRPC over TLS", () => {
  const transport = () =>
    createGrpcTransport({ baseUrl: devnet.endpoints.grpcTls, nodeOptions: { ca: devnet.caPem } });

  it("answers one call of every served service with a result or a mapped gRPC code", async () => {
    const services = [...typeRegistry].filter((t) => t.kind === "service" && t.name !== "Msg");
    expect(services.length).toBeGreaterThan(10);
    const t = transport();
    for (const service of services) {
      if (service.kind !== "service") continue;
      const client = createClient(service, t) as unknown as Record<string, (req: object) => Promise<unknown>>;
      const method: DescMethod = service.methods[0]!;
      const outcome = await client[method.localName]!({}).then(
        () => "ok",
        (e: unknown) => Code[ConnectError.from(e).code],
      );
      expect(
        ["ok", "InvalidArgument", "NotFound", "Unimplemented"],
        `${service.typeName}/${method.name}`,
      ).toContain(outcome);
    }
  });

  it("answers the Cosmos services", async () => {
    const t = transport();
    const alice = devnet.accounts[0]!.address;
    const auth = createClient(cosmosAuth.Query, t);
    expect((await auth.account({ address: alice })).account?.typeUrl).toBe(
      "/cosmos.auth.v1beta1.BaseAccount",
    );
    const missing = await auth
      .account({ address: "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc" })
      .catch((e: unknown) => ConnectError.from(e));
    expect((missing as ConnectError).code).toBe(Code.NotFound);
    const bank = createClient(cosmosBank.Query, t);
    expect((await bank.allBalances({ address: alice })).balances.length).toBe(2);
    const node = createClient(cosmosNode.Service, t);
    expect((await node.config({})).minimumGasPrice).toMatch(/uusdc/);
    const tm = createClient(cosmosTendermint.Service, t);
    expect((await tm.getLatestBlock({})).block?.header?.chainId).toBe("perpx-local-1");
    const upgrade = createClient(cosmosUpgrade.Query, t);
    expect((await upgrade.appliedPlan({ name: "v0" })).height).toBe(0n);
    const channels = createClient(ibcChannel.Query, t);
    expect(Array.isArray((await channels.channels({})).channels)).toBe(true);

    const tx = createClient(cosmosTx.Service, t);
    const bytes = await signedSend("5");
    expect((await tx.simulate({ txBytes: bytes })).gasInfo?.gasUsed).toBeGreaterThan(0n);
    const sent = await tx.broadcastTx({ txBytes: bytes, mode: cosmosTx.BroadcastMode.SYNC });
    expect(sent.txResponse?.code).toBe(0);
    const [block] = devnet.mine(1);
    const got = await tx.getTx({ hash: sent.txResponse!.txhash });
    expect(got.txResponse?.height).toBe(block!.height);
    const events = await tx.getTxsEvent({ query: `tx.height=${block!.height}` });
    expect(events.txResponses.map((r) => r.txhash)).toContain(sent.txResponse!.txhash);
    const async = await tx.broadcastTx({
      txBytes: await signedSend("6"),
      mode: cosmosTx.BroadcastMode.ASYNC,
    });
    expect(async.txResponse?.txhash).toMatch(/^[0-9A-F]{64}$/);
  });

  it("serves the height header and plain h2c", async () => {
    const h2c = createGrpcTransport({ baseUrl: devnet.endpoints.grpc });
    const node = createClient(cosmosNode.Service, h2c);
    let height: string | null = null;
    await node.status({}, { onHeader: (h) => (height = h.get("x-cosmos-block-height")) });
    expect(height).toBe(devnet.app.latestBlock().height.toString());
  });
});

describe("EVM JSON-RPC", () => {
  const call = async (method: string, params: unknown[] = []) =>
    (
      await json(devnet.endpoints.evmRpc, {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      })
    ).body;

  it("answers chain id, net version, block number, balance and blocks", async () => {
    expect((await call("eth_chainId")).result).toBe("0x7a69");
    expect((await call("net_version")).result).toBe("31337");
    const mainnetLike = await json(testnet.endpoints.evmRpc, {
      method: "POST",
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
    });
    expect(mainnetLike.body.result).toBe("0x31516");
    expect(BigInt((await call("eth_blockNumber")).result)).toBe(devnet.app.latestBlock().height);
    const alice = devnet.accounts[0]!.address;
    const rest = await json(
      `${devnet.endpoints.nodeRest}/cosmos/bank/v1beta1/balances/${alice}/by_denom?denom=aperpx`,
    );
    expect(BigInt((await call("eth_getBalance", [addressToHex(alice), "latest"])).result)).toBe(
      BigInt(rest.body.balance.amount),
    );
    const block = (await call("eth_getBlockByNumber", ["latest", false])).result;
    expect(BigInt(block.number)).toBe(devnet.app.latestBlock().height);
    expect(block.hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await call("web3_clientVersion")).result).toMatch(/^perpx-devnet\//);
    expect((await call("eth_call", [])).error).toEqual({
      code: -32601,
      message: "the method eth_call does not exist/is not available",
    });
  });
});

describe("faucet", () => {
  const post = (body: string) =>
    json(`${devnet.endpoints.faucet}/faucet/tokens`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
  const fresh = "0x00000000000000000000000000000000000000AA";

  it("credits uusdc and aperpx, then rate-limits the address", async () => {
    const ok = await post(JSON.stringify({ address: fresh }));
    expect(ok.status).toBe(200);
    const balances = await json(
      `${devnet.endpoints.nodeRest}/cosmos/bank/v1beta1/balances/${ok.body.address}`,
    );
    expect(balances.body.balances).toEqual([
      { denom: "aperpx", amount: "10000000000000000000" },
      { denom: "uusdc", amount: "1000000000" },
    ]);
    const again = await post(JSON.stringify({ address: ok.body.address }));
    expect(again.status).toBe(429);
    expect(again.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("answers 400 for bad JSON and bad addresses", async () => {
    expect((await post("not json")).status).toBe(400);
    const bad = await post(JSON.stringify({ address: "perpx1notanaddress" }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/perpx1notanaddress/);
  });
});

describe("control", () => {
  const post = (path: string, body: unknown) =>
    json(`${devnet.endpoints.devnetControl}/devnet${path}`, { method: "POST", body: JSON.stringify(body) });

  it("mines, advances time, funds and reports status", async () => {
    const before = devnet.app.latestBlock();
    const mined = await post("/blocks", { count: 2 });
    expect(mined.body.height).toBe((before.height + 2n).toString());
    const advanced = await post("/advance-time", { ms: 3_600_000, mine: true });
    expect(new Date(advanced.body.blockTime).getTime() - before.time.getTime()).toBeGreaterThanOrEqual(
      3_600_000,
    );
    const target = devnet.accounts[4]!.address;
    const funded = await post("/fund", { address: target, coins: [{ denom: "uusdc", amount: "42" }] });
    expect(funded.status).toBe(200);
    const status = await json(`${devnet.endpoints.devnetControl}/devnet/status`);
    expect(status.body.endpoints.nodeRpc).toBe(devnet.endpoints.nodeRpc);
    expect(status.body.chainId).toBe("perpx-local-1");
    expect((await post("/block-time", { ms: 25 })).body.blockTimeMs).toBe(25);
    const h = devnet.app.latestBlock().height;
    await vi.waitFor(() => expect(devnet.app.latestBlock().height).toBeGreaterThan(h + 2n), {
      timeout: 10_000,
      interval: 20,
    });
    await post("/block-time", { ms: 0 });
  });
});
