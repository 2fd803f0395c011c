import {
  connect,
  constants,
  createServer,
  type Http2Server,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerHttp2Session,
} from "node:http2";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeClient, isTransportError } from "../src/index.js";
import { useDevnet } from "./support.js";

const net = useDevnet();

/** Headers to pass on: every one but the HTTP/2 pseudo-headers the other side sets itself. */
function passOn(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!name.startsWith(":") || name === ":path" || name === ":method") out[name] = value;
  }
  return out;
}

/**
 * An h2c proxy to the devnet's gRPC port that answers the first `refusals` streams with
 * RST_STREAM REFUSED_STREAM (reading none of them) and passes the rest through; `streams` counts
 * every stream it was sent.
 */
async function refusingProxy(upstreamUrl: string, refusals: number) {
  const upstream = connect(upstreamUrl);
  const state = { streams: 0 };
  const server: Http2Server = createServer();
  const sessions = new Set<ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  server.on("stream", (stream, headers) => {
    state.streams++;
    // A refused stream errors on this side too (its RST is the answer).
    stream.on("error", () => {});
    if (state.streams <= refusals) {
      stream.close(constants.NGHTTP2_REFUSED_STREAM);
      return;
    }
    const request = upstream.request(passOn(headers));
    request.on("error", () => stream.destroy());
    let trailers: OutgoingHttpHeaders = {};
    stream.pipe(request);
    request.on("response", (answer) => {
      stream.respond(answer, { waitForTrailers: true });
      request.pipe(stream);
    });
    request.on("trailers", (received) => {
      trailers = passOn(received);
    });
    stream.on("wantTrailers", () => stream.sendTrailers(trailers));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      upstream.close();
      for (const session of sessions) session.destroy();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${port}`, state, close };
}

const proxies: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const proxy of proxies.splice(0)) await proxy.close();
});

describe("a gRPC stream the server refused", () => {
  it("is sent once more, and the call answers", async () => {
    const proxy = await refusingProxy(net.devnet.endpoints.grpc, 1);
    proxies.push(proxy);
    const client = createNodeClient({ grpc: proxy.url });
    expect((await client.getLatestBlock()).chainId).toBe("perpx-local-1");
    expect(proxy.state.streams).toBe(2);
    client.close();
  });

  it("refused again, fails as a TransportError that sent nothing, after one retry only", async () => {
    const proxy = await refusingProxy(net.devnet.endpoints.grpc, Number.POSITIVE_INFINITY);
    proxies.push(proxy);
    const client = createNodeClient({ grpc: proxy.url });
    const error = await client.getLatestBlock().catch((e: unknown) => e);
    expect(isTransportError(error)).toBe(true);
    expect(error).toMatchObject({ transport: "grpc", nothingSent: true });
    expect(proxy.state.streams).toBe(2);
    client.close();
  });
});
