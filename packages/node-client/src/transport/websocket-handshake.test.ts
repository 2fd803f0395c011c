/**
 * `disconnect()` (and a client's `close()`) during a WebSocket handshake the server never
 * completes: the socket is closed and the calls waiting for it reject, at once.
 */

import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, expect, it } from "vitest";
import { createNodeClient } from "../client.js";
import { isTransportError } from "../errors.js";

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A TCP server that accepts connections, reads them and never answers the upgrade. */
async function silentServer() {
  let accepted!: (socket: Socket) => void;
  const connection = new Promise<Socket>((resolve) => {
    accepted = resolve;
  });
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.resume();
    accepted(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, connection };
}

it("close() during a handshake the node never completes closes the socket and rejects the waiting call", async () => {
  const server = await silentServer();
  const client = createNodeClient({ nodeRpc: server.url });
  // Its own deadline is far beyond the test's: only close() can end it in time.
  const call = client.getLatestBlock({ timeoutMs: 600_000 }).catch((error: unknown) => error);
  const socket = await server.connection;
  const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  client.close();
  const error = await call;
  expect(isTransportError(error) && error.nothingSent).toBe(true);
  expect(String(error)).toContain("closed");
  await ended; // the client closed its end
});
