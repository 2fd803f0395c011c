import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { sparePorts } from "../../../../tests/support/spare-ports.js";
import { failedBeforeConnecting, isTransportError } from "../errors.js";
import { openRest } from "./rest.js";
import { FetchRpcClient } from "./rpc-json.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/**
 * A port nothing listens on: a spare one (below the kernel's ephemeral range), which no parallel
 * test's `listen(0)` can take before the client connects, as it could a port a server held and
 * released.
 */
async function closedPort(): Promise<number> {
  const [port] = await sparePorts(1);
  return port!;
}

const request = { jsonrpc: "2.0", id: 1, method: "status", params: {} } as const;

describe("whether a failed RPC request reached the node", () => {
  it("a refused connection sent nothing", async () => {
    const client = new FetchRpcClient({ url: `http://127.0.0.1:${await closedPort()}` });
    const error = await client.execute(request).catch((e: unknown) => e);
    expect(isTransportError(error) && error.nothingSent).toBe(true);
  });

  it("a socket closed after the request was read may have delivered it", async () => {
    let received = "";
    const server = createServer((req) => {
      req.on("data", (chunk: Buffer) => {
        received += chunk.toString("utf8");
      });
      req.on("end", () => req.socket.destroy());
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const client = new FetchRpcClient({ url: `http://127.0.0.1:${port}` });
    const error = await client.execute(request).catch((e: unknown) => e);
    expect(JSON.parse(received)).toMatchObject({ method: "status" });
    expect(isTransportError(error) && error.nothingSent).toBe(false);
    expect(String(error)).toContain("before the node answered");
  });

  it("an answer cut off after its headers may have been acted on (RPC and REST), a TransportError", async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json", "content-length": "500" });
        res.write('{"jsonrpc":"2.0","id":1,"res', () => res.socket?.destroy());
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const rpc = await new FetchRpcClient({ url }).execute(request).catch((e: unknown) => e);
    const rest = await openRest(url)
      .get("/cosmos/base/tendermint/v1beta1/node_info")
      .catch((e: unknown) => e);
    for (const [error, transport] of [
      [rpc, "rpc"],
      [rest, "rest"],
    ] as const) {
      expect(isTransportError(error) && error.transport).toBe(transport);
      expect((error as { nothingSent: boolean }).nothingSent).toBe(false);
      expect(String(error)).toContain("while reading the HTTP 200 answer");
    }
  });

  it("reads the cause chain: connect and DNS failures sent nothing, resets may have", () => {
    const coded = (code: string, syscall?: string) => Object.assign(new Error(code), { code, syscall });
    const wrapped = (cause: Error) => new TypeError("fetch failed", { cause });
    expect(failedBeforeConnecting(wrapped(coded("ECONNREFUSED", "connect")))).toBe(true);
    expect(failedBeforeConnecting(wrapped(coded("ENOTFOUND", "getaddrinfo")))).toBe(true);
    expect(failedBeforeConnecting(wrapped(coded("UND_ERR_CONNECT_TIMEOUT")))).toBe(true);
    expect(failedBeforeConnecting(wrapped(new Error("bad port")))).toBe(true);
    expect(failedBeforeConnecting(wrapped(coded("UND_ERR_SOCKET")))).toBe(false);
    expect(failedBeforeConnecting(wrapped(coded("ECONNRESET", "read")))).toBe(false);
    expect(failedBeforeConnecting("not an error")).toBe(false);
  });
});
