/**
 * The on-demand `ws` server: the first upgrade (and every one that arrives while `ws` loads) is
 * served, in order; later ones go straight to the server; after `close` an upgrade is refused.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { OnDemandWebSocketServer } from "./ws-on-demand.js";

let http: Server | undefined;
let sockets: OnDemandWebSocketServer | undefined;

afterEach(async () => {
  sockets?.close();
  await new Promise<void>((resolve) => (http === undefined ? resolve() : http.close(() => resolve())));
  http = undefined;
  sockets = undefined;
});

/** An HTTP server whose upgrades go to an on-demand server that greets each socket with its number. */
async function echoServer(): Promise<string> {
  const server = new OnDemandWebSocketServer({ maxPayload: 1024 });
  sockets = server;
  let accepted = 0;
  http = createServer((_req, res) => res.end());
  http.on("upgrade", (req, socket, head) =>
    server.handleUpgrade(req, socket, head, (ws) => {
      ws.on("error", () => undefined);
      ws.send(`hello ${++accepted}`);
      ws.on("message", (data) => ws.send(`echo ${data.toString()}`));
    }),
  );
  await new Promise<void>((resolve) => http?.listen(0, "127.0.0.1", resolve));
  return `ws://127.0.0.1:${(http.address() as AddressInfo).port}/`;
}

/** Opens a client and resolves with it and its first message. */
function open(url: string): Promise<{ client: WebSocket; first: string }> {
  return new Promise((resolve, reject) => {
    const client = new WebSocket(url);
    client.once("message", (data) => resolve({ client, first: data.toString() }));
    client.once("error", reject);
  });
}

describe("OnDemandWebSocketServer", () => {
  it("serves the first upgrade, those that arrive while ws loads, and later ones", async () => {
    const url = await echoServer();
    const firsts = await Promise.all([open(url), open(url), open(url)]);
    expect(firsts.map((f) => f.first).sort()).toEqual(["hello 1", "hello 2", "hello 3"]);
    const later = await open(url);
    expect(later.first).toBe("hello 4");
    const echoed = new Promise<string>((resolve) =>
      later.client.once("message", (d) => resolve(d.toString())),
    );
    later.client.send("ping");
    expect(await echoed).toBe("echo ping");
    for (const { client } of [...firsts, later]) client.terminate();
  });

  it("applies its options to the server it makes (maxPayload closes with 1009)", async () => {
    const { client } = await open(await echoServer());
    const closed = new Promise<number>((resolve) => client.once("close", (code) => resolve(code)));
    client.send("x".repeat(2048));
    expect(await closed).toBe(1009);
  });

  it("refuses an upgrade once closed", async () => {
    const url = await echoServer();
    sockets?.close();
    await expect(open(url)).rejects.toThrow();
  });
});
