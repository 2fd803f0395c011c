/**
 * The REST, gRPC, EVM, faucet and control servers against the test double of the chain application.
 */

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { addressToHex } from "@perpx/address";
import { cosmosAuth, cosmosBank, cosmosNode, cosmosTendermint, cosmosTx, packAny } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createFakeChainApp, type FakeChainApp } from "../../test/support/fake-chain-app.js";
import type { Loose } from "../../test/support/loose.js";
import { DevnetError } from "../devnet-error.js";
import { type ControlServer, startControlServer } from "./control.js";
import { createDispatcher } from "./dispatch.js";
import { type EvmServers, startEvmServers } from "./evm.js";
import { type FaucetServer, startFaucetServer } from "./faucet.js";
import { type GrpcServers, startGrpcServers } from "./grpc.js";
import { BlockProducer } from "./producer.js";
import { type RestServer, snakeCase, startRestServer } from "./rest.js";
import { generateTlsCertificate } from "./tls.js";

const ALICE = "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9";

let app: FakeChainApp;
let rest: RestServer;
let grpc: GrpcServers;
let evm: EvmServers;
let faucet: FaucetServer;
let control: ControlServer;
let producer: BlockProducer;
let clock = 1_000_000;
const tls = generateTlsCertificate();

beforeAll(async () => {
  app = createFakeChainApp();
  app.answers.set("/cosmos.bank.v1beta1.Query/Balance", (data) => {
    const req = fromBinary(cosmosBank.QueryBalanceRequestSchema, data);
    const amount = req.address === ALICE ? "5000" : "0";
    return {
      code: 0,
      codespace: "",
      log: "",
      height: 0n,
      value: toBinary(
        cosmosBank.QueryBalanceResponseSchema,
        create(cosmosBank.QueryBalanceResponseSchema, { balance: { denom: req.denom, amount } }),
      ),
    };
  });
  app.answers.set("/cosmos.auth.v1beta1.Query/Account", (data) => {
    const req = fromBinary(cosmosAuth.QueryAccountRequestSchema, data);
    if (req.address !== ALICE) {
      return {
        code: 22,
        codespace: "sdk",
        log: `rpc error: code = NotFound desc = account ${req.address} not found: key not found`,
        height: 0n,
        value: new Uint8Array(),
      };
    }
    const account = create(cosmosAuth.BaseAccountSchema, { address: ALICE, accountNumber: 3n, sequence: 7n });
    return {
      code: 0,
      codespace: "",
      log: "",
      height: 0n,
      value: toBinary(
        cosmosAuth.QueryAccountResponseSchema,
        create(cosmosAuth.QueryAccountResponseSchema, {
          account: packAny(cosmosAuth.BaseAccountSchema, account),
        }),
      ),
    };
  });
  app.answers.set("/cosmos.base.node.v1beta1.Service/Config", () => ({
    code: 0,
    codespace: "",
    log: "",
    height: 0n,
    value: toBinary(
      cosmosNode.ConfigResponseSchema,
      create(cosmosNode.ConfigResponseSchema, { minimumGasPrice: "0.025uusdc,25000000000aperpx" }),
    ),
  }));
  app.answers.set("/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo", () => ({
    code: 0,
    codespace: "",
    log: "",
    height: 0n,
    value: toBinary(
      cosmosTendermint.GetNodeInfoResponseSchema,
      create(cosmosTendermint.GetNodeInfoResponseSchema, {
        applicationVersion: { version: "v0.0.0-fake" },
        defaultNodeInfo: { network: "perpx-local-1" },
      }),
    ),
  }));
  const dispatcher = createDispatcher(app);
  producer = new BlockProducer(app, { blockTimeMs: 0, now: () => clock });
  [rest, grpc, evm, faucet, control] = await Promise.all([
    startRestServer({ dispatcher, port: 0 }),
    startGrpcServers({ dispatcher, tls, port: 0, tlsPort: 0 }),
    startEvmServers({ app, dispatcher, port: 0, wsPort: 0 }),
    startFaucetServer({ control: app.control, port: 0, rateLimitWindowMs: 60_000 }),
    startControlServer({ app, producer, port: 0 }),
  ]);
});

afterAll(async () => {
  await Promise.all([rest.close(), grpc.close(), evm.close(), faucet.close(), control.close()]);
});

async function getJson(
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: Loose; headers: Headers }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

describe("REST", () => {
  it("serves the four spec paths", async () => {
    const config = await getJson(`${rest.url}/cosmos/base/node/v1beta1/config`);
    expect(config.status).toBe(200);
    expect(config.body.minimum_gas_price).toBe("0.025uusdc,25000000000aperpx");
    expect(config.body.halt_height).toBe("0");
    expect(config.body.pruning_keep_recent).toBe("");
    const nodeInfo = await getJson(`${rest.url}/cosmos/base/tendermint/v1beta1/node_info`);
    expect(nodeInfo.body.application_version.version).toBe("v0.0.0-fake");
    expect(nodeInfo.body.default_node_info.network).toBe("perpx-local-1");
    // The fake answers no upgrade or IBC queries: the server reports the app's "unknown path" as 501.
    const plan = await getJson(`${rest.url}/cosmos/upgrade/v1beta1/applied_plan/v1.0`);
    expect(plan.status).toBe(501);
    expect(plan.body.code).toBe(Code.Unimplemented);
    expect(app.queries.at(-1)?.path).toBe("/cosmos.upgrade.v1beta1.Query/AppliedPlan");
    const channels = await getJson(`${rest.url}/ibc/core/channel/v1/channels`);
    expect(channels.status).toBe(501);
  });

  it("renders Any with @type and 64-bit integers as strings", async () => {
    const account = await getJson(`${rest.url}/cosmos/auth/v1beta1/accounts/${ALICE}`);
    expect(account.status).toBe(200);
    expect(account.body.account["@type"]).toBe("/cosmos.auth.v1beta1.BaseAccount");
    expect(account.body.account.account_number).toBe("3");
    expect(account.headers.get("x-cosmos-block-height")).toBe("1");
    const missing = await getJson(`${rest.url}/cosmos/auth/v1beta1/accounts/perpx1nobody`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/not found/);
    const balance = await getJson(`${rest.url}/cosmos/bank/v1beta1/balances/${ALICE}/by_denom?denom=uusdc`);
    expect(balance.body).toEqual({ balance: { denom: "uusdc", amount: "5000" } });
  });

  it("answers 400 naming the bad parameter, 404 for unknown paths, 405 for the wrong method", async () => {
    const bad = await getJson(`${rest.url}/cosmos/base/tendermint/v1beta1/blocks/abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("height");
    expect(bad.body.details[0].field_violations[0].field).toBe("height");
    const unknown = await getJson(`${rest.url}/cosmos/bank/v1beta1/balances/${ALICE}?nope=1`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("nope");
    const nowhere = await getJson(`${rest.url}/nowhere`);
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.code).toBe(5);
    const wrong = await getJson(`${rest.url}/cosmos/tx/v1beta1/simulate`);
    expect(wrong.status).toBe(405);
    const huge = await getJson(`${rest.url}/cosmos/tx/v1beta1/txs`, {
      method: "POST",
      body: "x".repeat(9 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
    const badJson = await getJson(`${rest.url}/cosmos/tx/v1beta1/txs`, { method: "POST", body: "{" });
    expect(badJson.status).toBe(400);
    expect(badJson.body.message).toContain("body");
  });

  it("broadcasts through CheckTx and passes raw ABCI queries through", async () => {
    const txBytes = Buffer.from([1, 2, 3, 4]).toString("base64");
    const sent = await getJson(`${rest.url}/cosmos/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: txBytes, mode: "BROADCAST_MODE_SYNC" }),
    });
    expect(sent.status).toBe(200);
    expect(sent.body.tx_response.code).toBe(0);
    expect(sent.body.tx_response.txhash).toMatch(/^[0-9A-F]{64}$/);
    expect(app.pendingTxCount()).toBe(1);
    const rejected = await getJson(`${rest.url}/cosmos/tx/v1beta1/txs`, {
      method: "POST",
      body: JSON.stringify({ tx_bytes: Buffer.from([0xff]).toString("base64"), mode: "BROADCAST_MODE_SYNC" }),
    });
    expect(rejected.body.tx_response.code).toBe(4);
    producer.mine(1);
    expect(app.pendingTxCount()).toBe(0);
    // The SDK's ABCIQuery service forwards baseapp's own paths only (app, store, p2p, custom).
    const balancePath = "/cosmos.bank.v1beta1.Query/Balance";
    const balanceRequest = toBinary(
      cosmosBank.QueryBalanceRequestSchema,
      create(cosmosBank.QueryBalanceRequestSchema, { address: ALICE, denom: "uusdc" }),
    );
    const abciQuery = (path: string) =>
      getJson(
        `${rest.url}/cosmos/base/tendermint/v1beta1/abci_query?path=${encodeURIComponent(path)}&data=${Buffer.from(balanceRequest).toString("base64")}`,
      );
    const refused = await abciQuery(balancePath);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 3, message: `unsupported ABCI query path: ${balancePath}` });
    app.answers.set("/app/simulate", () => ({
      code: 0,
      codespace: "",
      log: "",
      value: new Uint8Array([1]),
      height: 0n,
    }));
    const forwarded = await abciQuery("/app/simulate");
    expect(forwarded.status).toBe(200);
    expect(forwarded.body.code).toBe(0);
    expect(forwarded.body.height).toBe(app.latestBlock().height.toString());
    const unknown = await abciQuery("/custom/nope");
    expect(unknown.body.code).toBe(6);
    expect(unknown.body.height).toBe("0");
  });

  it("builds perpx routes from the service descriptors", () => {
    expect(snakeCase("ClobPairAll")).toBe("clob_pair_all");
    expect(snakeCase("ABCIQuery")).toBe("abci_query");
    expect(rest.routes).toContain("GET /perpx/clob/v1/clob_pair_all");
    expect(rest.routes).toContain("GET /perpx/clob/v1/clob-pair-all");
    expect(rest.routes.some((r) => r.startsWith("GET /perpx/clob/v1/clob_pair[/{id}"))).toBe(true);
  });

  it("fills perpx request fields from trailing path segments and query parameters", async () => {
    const res = await getJson(`${rest.url}/perpx/clob/v1/clob_pair/7`);
    expect(res.status).toBe(501);
    const last = app.queries.at(-1)!;
    expect(last.path).toBe("/perpx.clob.v1.Query/ClobPair");
    expect(Array.from(last.data)).toEqual([8, 7]);
    const bad = await getJson(`${rest.url}/perpx/clob/v1/clob_pair/x`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("id");
  });
});

describe("gRPC", () => {
  it("answers over TLS with the generated CA and over h2c", async () => {
    for (const [baseUrl, nodeOptions] of [
      [grpc.tlsUrl, { ca: tls.cert }],
      [grpc.url, {}],
    ] as const) {
      const transport = createGrpcTransport({ baseUrl, nodeOptions });
      const node = createClient(cosmosNode.Service, transport);
      expect((await node.config({})).minimumGasPrice).toBe("0.025uusdc,25000000000aperpx");
      const bank = createClient(cosmosBank.Query, transport);
      expect((await bank.balance({ address: ALICE, denom: "uusdc" })).balance?.amount).toBe("5000");
      const tm = createClient(cosmosTendermint.Service, transport);
      expect((await tm.getNodeInfo({})).defaultNodeInfo?.network).toBe("perpx-local-1");
    }
  });

  it("maps application error codes to gRPC codes", async () => {
    const transport = createGrpcTransport({ baseUrl: grpc.tlsUrl, nodeOptions: { ca: tls.cert } });
    const auth = createClient(cosmosAuth.Query, transport);
    const error = await auth.account({ address: "perpx1nobody" }).catch((e: unknown) => ConnectError.from(e));
    expect((error as ConnectError).code).toBe(Code.NotFound);
    expect((error as ConnectError).rawMessage).toBe("account perpx1nobody not found");
    const tx = createClient(cosmosTx.Service, transport);
    const badMode = await tx
      .broadcastTx({ txBytes: new Uint8Array([1]) })
      .catch((e: unknown) => ConnectError.from(e));
    expect((badMode as ConnectError).code).toBe(Code.InvalidArgument);
    const ok = await tx.broadcastTx({ txBytes: new Uint8Array([5, 5]), mode: cosmosTx.BroadcastMode.SYNC });
    expect(ok.txResponse?.code).toBe(0);
  });

  it("rejects a client that does not trust the CA", async () => {
    const transport = createGrpcTransport({ baseUrl: grpc.tlsUrl });
    const node = createClient(cosmosNode.Service, transport);
    await expect(node.config({})).rejects.toThrow(/certificate/i);
  });
});

describe("EVM JSON-RPC", () => {
  const call = async (method: string, params: unknown[] = []) =>
    (
      await getJson(evm.url, {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      })
    ).body;

  it("answers the supported methods", async () => {
    expect((await call("eth_chainId")).result).toBe("0x7a69");
    expect((await call("net_version")).result).toBe("31337");
    expect((await call("eth_blockNumber")).result).toBe(`0x${app.latestBlock().height.toString(16)}`);
    expect((await call("eth_getBalance", [addressToHex(ALICE), "latest"])).result).toBe("0x1388");
    expect((await call("eth_getBalance", [`0x${"11".repeat(20)}`, "latest"])).result).toBe("0x0");
    const block = (await call("eth_getBlockByNumber", ["0x1", false])).result;
    expect(block.number).toBe("0x1");
    expect(block.transactions).toEqual([]);
    expect((await call("eth_getBlockByNumber", ["0xffff", false])).result).toBeNull();
    expect((await call("web3_clientVersion")).result).toContain("perpx-devnet");
  });

  it("answers -32601 for anything else and -32602 for bad params", async () => {
    expect((await call("eth_sendTransaction", [])).error).toEqual({
      code: -32601,
      message: "the method eth_sendTransaction does not exist/is not available",
    });
    expect((await call("eth_getBalance", ["nope", "latest"])).error.code).toBe(-32602);
  });

  it("answers over WebSocket", async () => {
    const { WebSocket } = await import("ws");
    const socket = new WebSocket(evm.wsUrl);
    const reply = await new Promise<Loose>((resolve, reject) => {
      socket.on("open", () => socket.send(JSON.stringify({ jsonrpc: "2.0", id: 9, method: "eth_chainId" })));
      socket.on("message", (d) => resolve(JSON.parse(d.toString())));
      socket.on("error", reject);
    });
    socket.close();
    expect(reply).toEqual({ jsonrpc: "2.0", id: 9, result: "0x7a69" });
  });
});

describe("faucet", () => {
  const post = (body: string) =>
    getJson(`${faucet.url}/faucet/tokens`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });

  it("credits uusdc and aperpx to either address form", async () => {
    const res = await post(JSON.stringify({ address: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }));
    expect(res.status).toBe(200);
    expect(res.body.address).toBe("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c");
    expect(res.body.credited).toEqual([
      { denom: "uusdc", amount: "1000000000" },
      { denom: "aperpx", amount: "10000000000000000000" },
    ]);
    expect(app.funded.at(-1)?.address).toBe("perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c");
  });

  it("answers 400 for bad JSON and bad addresses, 429 with Retry-After when asked again", async () => {
    const badJson = await post("{nope");
    expect(badJson.status).toBe(400);
    expect(badJson.body.code).toBe("bad_json");
    const badAddress = await post(JSON.stringify({ address: "perpx1abc" }));
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.code).toBe("invalid_address");
    expect(badAddress.body.message).toContain("perpx1abc");
    await post(JSON.stringify({ address: ALICE }));
    const again = await post(JSON.stringify({ address: ALICE }));
    expect(again.status).toBe(429);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("control", () => {
  const post = (path: string, body: unknown) =>
    getJson(`${control.url}/devnet${path}`, { method: "POST", body: JSON.stringify(body) });

  it("mines blocks, sets the block time, advances time, funds and reports status", async () => {
    const before = app.latestBlock().height;
    const mined = await post("/blocks", { count: 3 });
    expect(mined.status).toBe(200);
    expect(mined.body.heights).toHaveLength(3);
    expect(app.latestBlock().height).toBe(before + 3n);
    expect((await post("/block-time", { ms: 0 })).body.blockTimeMs).toBe(0);
    expect((await post("/advance-time", { ms: 5000 })).body.advancedMs).toBe(5000);
    expect(app.advancedMs).toBe(5000);
    const funded = await post("/fund", { address: ALICE, coins: [{ denom: "uusdc", amount: "12" }] });
    expect(funded.body.credited).toEqual([{ denom: "uusdc", amount: "12" }]);
    const status = await getJson(`${control.url}/devnet/status`);
    expect(status.body.chainId).toBe("perpx-local-1");
    expect(status.body.height).toBe(app.latestBlock().height.toString());
  });

  it("validates requests", async () => {
    expect((await post("/blocks", { count: -1 })).status).toBe(400);
    expect((await post("/fund", { address: "x", coins: [] })).body.code).toBe("invalid_address");
    expect((await getJson(`${control.url}/devnet/nothing`)).status).toBe(404);
    expect((await getJson(`${control.url}/devnet/blocks`)).status).toBe(405);
  });
});

describe("block producer", () => {
  it("produces blocks on the interval with strictly increasing times", async () => {
    const local = createFakeChainApp();
    const p = new BlockProducer(local, { blockTimeMs: 5, now: () => 0 });
    p.start();
    await vi.waitFor(() => expect(local.latestBlock().height).toBeGreaterThan(3n), { timeout: 10_000 });
    p.stop();
    const height = local.latestBlock().height;
    expect(height).toBeGreaterThan(3n);
    const times = Array.from({ length: Number(height) - 1 }, (_, i) =>
      local.block(BigInt(i + 2))!.time.getTime(),
    );
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThan(times[i - 1]!);
    expect(() => p.setBlockTimeMs(-1)).toThrow(DevnetError);
    clock += 1;
  });
});
