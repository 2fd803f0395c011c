/**
 * A broadcast answered with another transaction's hash (a caching proxy, a confused node) is
 * neither this transaction's acceptance nor its refusal, over RPC and gRPC.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttp2Server, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { cosmosTx } from "@perpx/proto";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeClient } from "../client.js";
import { isBroadcastTxError, isTransportError } from "../errors.js";
import { submitTx } from "./broadcast.js";
import { txHash } from "./encode.js";

const txBytes = new Uint8Array([10, 0, 18, 0, 26, 0]);
const other = "AB".repeat(32);

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A CometBFT RPC that answers every broadcast with `result`, echoing the request's id. */
async function rpcAnswering(result: Record<string, unknown>): Promise<string> {
  const server: Server = createHttpServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    request.on("end", () => {
      const { id } = JSON.parse(body) as { id: number };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An h2c gRPC server that answers every BroadcastTx with `txResponse` (none: an empty answer). */
async function grpcAnswering(txResponse: { txhash: string; code: number } | undefined): Promise<string> {
  const message = toBinary(
    cosmosTx.BroadcastTxResponseSchema,
    create(cosmosTx.BroadcastTxResponseSchema, txResponse ? { txResponse } : {}),
  );
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  const server: Http2Server = createHttp2Server();
  const sessions = new Set<ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  server.on("stream", (stream) => {
    stream.resume();
    stream.on("end", () => {
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      stream.end(frame);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("a broadcast answered with another transaction's hash", () => {
  it("is a TransportError that may have been sent, accepted or refused, over RPC", async () => {
    for (const code of [0, 5]) {
      const client = createNodeClient({ nodeRpc: await rpcAnswering({ code, hash: other, log: "" }) });
      const error = await submitTx(client, { txBytes, mode: "sync", transport: "rpc" }).catch(
        (e: unknown) => e,
      );
      expect(isBroadcastTxError(error)).toBe(false);
      expect(isTransportError(error) && error.nothingSent === false).toBe(true);
      expect(String(error)).toContain(other);
      client.close();
    }
  });

  it("is a TransportError over gRPC too; the transaction's own hash is returned when it matches", async () => {
    for (const code of [0, 5]) {
      const client = createNodeClient({ grpc: await grpcAnswering({ txhash: other, code }) });
      const error = await submitTx(client, { txBytes, mode: "sync", transport: "grpc" }).catch(
        (e: unknown) => e,
      );
      expect(isBroadcastTxError(error)).toBe(false);
      expect(isTransportError(error) && error.nothingSent === false).toBe(true);
      client.close();
    }
    const hash = txHash(txBytes);
    const rpc = createNodeClient({
      nodeRpc: await rpcAnswering({ code: 0, hash: hash.toLowerCase(), log: "" }),
    });
    expect(await submitTx(rpc, { txBytes, mode: "sync", transport: "rpc" })).toBe(hash);
    const grpc = createNodeClient({ grpc: await grpcAnswering({ txhash: hash, code: 0 }) });
    expect(await submitTx(grpc, { txBytes, mode: "sync", transport: "grpc" })).toBe(hash);
    rpc.close();
    grpc.close();
  });
});

describe("a broadcast answered without this transaction's hash", () => {
  it("is a TransportError that may have been sent over RPC, never an acceptance", async () => {
    for (const result of [{}, { code: 0 }, { code: 0, hash: "", log: "" }]) {
      for (const mode of ["sync", "async"] as const) {
        const client = createNodeClient({ nodeRpc: await rpcAnswering(result) });
        const error = await submitTx(client, { txBytes, mode, transport: "rpc" }).catch((e: unknown) => e);
        expect(isTransportError(error) && error.nothingSent === false).toBe(true);
        expect(String(error)).toContain("without the transaction's hash");
        client.close();
      }
    }
  });

  it("is a TransportError over gRPC too: an empty answer or one without a hash", async () => {
    for (const txResponse of [undefined, { txhash: "", code: 0 }]) {
      const client = createNodeClient({ grpc: await grpcAnswering(txResponse) });
      const error = await submitTx(client, { txBytes, mode: "sync", transport: "grpc" }).catch(
        (e: unknown) => e,
      );
      expect(isTransportError(error) && error.nothingSent === false).toBe(true);
      expect(String(error)).toContain("without the transaction's hash");
      client.close();
    }
  });
});
