/**
 * The gRPC ports are bound by TCP listeners that build their HTTP/2 servers on the first connection:
 * that first connection (h2c, TLS, HTTP/1 over TLS) is served like any later one, and close still
 * drops open sessions.
 */

import { request } from "node:https";
import { create, toBinary } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { cosmosNode } from "@perpx/proto";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeChainApp } from "../../test/support/fake-chain-app.js";
import { createDispatcher } from "./dispatch.js";
import { type GrpcServers, startGrpcServers } from "./grpc.js";
import { generateTlsCertificate } from "./tls.js";

const tls = generateTlsCertificate();
let grpc: GrpcServers | undefined;

const GAS_PRICE = "0.025uusdc,25000000000aperpx";

async function freshServers(): Promise<GrpcServers> {
  const app = createFakeChainApp();
  app.answers.set("/cosmos.base.node.v1beta1.Service/Config", () => ({
    code: 0,
    codespace: "",
    log: "",
    height: 0n,
    value: toBinary(
      cosmosNode.ConfigResponseSchema,
      create(cosmosNode.ConfigResponseSchema, { minimumGasPrice: GAS_PRICE }),
    ),
  }));
  grpc = await startGrpcServers({ dispatcher: createDispatcher(app), tls, port: 0, tlsPort: 0 });
  return grpc;
}

async function minimumGasPrice(baseUrl: string, nodeOptions: { ca?: string } = {}): Promise<string> {
  const node = createClient(cosmosNode.Service, createGrpcTransport({ baseUrl, nodeOptions }));
  return (await node.config({})).minimumGasPrice;
}

afterEach(async () => {
  await grpc?.close();
  grpc = undefined;
});

describe("gRPC servers built on the first connection", () => {
  it("serve the first connection over h2c, then TLS", async () => {
    const servers = await freshServers();
    expect(await minimumGasPrice(servers.url)).toBe(GAS_PRICE);
    expect(await minimumGasPrice(servers.tlsUrl, { ca: tls.cert })).toBe(GAS_PRICE);
  });

  it("serve the first connection over TLS, then h2c", async () => {
    const servers = await freshServers();
    expect(await minimumGasPrice(servers.tlsUrl, { ca: tls.cert })).toBe(GAS_PRICE);
    expect(await minimumGasPrice(servers.url)).toBe(GAS_PRICE);
  });

  it("serve HTTP/1 over TLS as the first connection", async () => {
    const servers = await freshServers();
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${servers.tlsUrl}/cosmos.base.node.v1beta1.Service/Config`, {
        method: "POST",
        ca: tls.cert,
        headers: { "content-type": "application/json" },
      });
      req.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
      });
      req.on("error", reject);
      req.end("{}");
    });
    expect(status).toBe(200);
  });

  it("close drops a session still open", async () => {
    const servers = await freshServers();
    const manager = new Http2SessionManager(servers.url);
    const transport = createGrpcTransport({ baseUrl: servers.url, sessionManager: manager });
    await createClient(cosmosNode.Service, transport).config({});
    expect(manager.state()).toBe("open");
    await servers.close();
    grpc = undefined;
    await expect.poll(() => manager.state()).toBe("closed");
  });

  it("refuse bad timeouts at start, before any connection", async () => {
    await expect(
      startGrpcServers({
        dispatcher: createDispatcher(createFakeChainApp()),
        tls,
        port: 0,
        tlsPort: 0,
        timeouts: { http2IdleMs: 0 },
      }),
    ).rejects.toThrow(/http2IdleMs/);
  });
});
