/**
 * A request target `new URL` cannot parse (`GET //`) is answered 400, and the server goes on:
 * before, the request listener threw, which ends a Node process (vitest fails the run on it).
 */
import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { type ExplorerServer, explorerConfig, startExplorer } from "../src/index.js";

let server: ExplorerServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Sends one raw request line and answers the status line of the reply. */
function rawStatus(port: number, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: explorer\r\nConnection: close\r\n\r\n`),
    );
    let reply = "";
    socket.on("data", (chunk) => {
      reply += chunk.toString();
    });
    socket.on("end", () => resolve(reply.split("\r\n")[0] ?? ""));
    socket.on("error", reject);
  });
}

it("answers 400 to a target that is not a path, and keeps serving", async () => {
  server = await startExplorer({
    config: explorerConfig({ network: "local" }),
    port: 0,
    assets: { script: "export const page = 1;" },
  });
  for (const target of ["//", "/\\\\", "//["]) {
    expect(await rawStatus(server.port, target)).toBe("HTTP/1.1 400 Bad Request");
  }
  expect((await fetch(server.url)).status).toBe(200);
});
