/**
 * gRPC-web on the devnet's API (REST) port, over real sockets: connect's web transport from Node
 * (global fetch), the base64 text variant by hand, CORS preflight, errors in trailers.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { cosmosBank } from "@perpx/proto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevnet } from "../src/devnet.js";
import type { Devnet } from "../src/devnet-options.js";
import { decodeGrpcWebText, unaryPayload } from "../src/servers/grpc-web.js";

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 50, faucetWindowMs: 0 });
});
afterAll(async () => {
  await devnet?.stop();
});

const BALANCE = "/cosmos.bank.v1beta1.Query/Balance";

function framed(message: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + message.length);
  new DataView(out.buffer).setUint32(1, message.length, false);
  out.set(message, 5);
  return out;
}

/** Splits a gRPC-web response body into its frames. */
function frames(body: Uint8Array): Array<{ flag: number; payload: Uint8Array }> {
  const out: Array<{ flag: number; payload: Uint8Array }> = [];
  let at = 0;
  while (at < body.length) {
    const length = new DataView(body.buffer, body.byteOffset + at + 1, 4).getUint32(0, false);
    out.push({ flag: body[at]!, payload: body.subarray(at + 5, at + 5 + length) });
    at += 5 + length;
  }
  return out;
}

function trailerMap(payload: Uint8Array): Record<string, string> {
  const lines = new TextDecoder().decode(payload).split("\r\n").filter(Boolean);
  return Object.fromEntries(lines.map((line) => line.split(/:\s*/, 2) as [string, string]));
}

function balanceRequest(address: string): Uint8Array {
  return toBinary(
    cosmosBank.QueryBalanceRequestSchema,
    create(cosmosBank.QueryBalanceRequestSchema, { address, denom: "uusdc" }),
  );
}

describe("gRPC-web on the API port", () => {
  it("answers connect's gRPC-web transport from Node, with the height header", async () => {
    const transport = createGrpcWebTransport({ baseUrl: devnet.endpoints.nodeRest });
    const bank = createClient(cosmosBank.Query, transport);
    let height: string | null = null;
    const response = await bank.balance(
      { address: devnet.accounts[0]!.address, denom: "uusdc" },
      { onHeader: (headers) => (height = headers.get("x-cosmos-block-height")) },
    );
    expect(response.balance?.amount).toBe(
      devnet.accounts[0]!.balances.find((b) => b.denom === "uusdc")?.amount.toString(),
    );
    expect(Number(height)).toBeGreaterThanOrEqual(1);
  });

  it("reports a refusal as a gRPC status in the trailers", async () => {
    const bank = createClient(
      cosmosBank.Query,
      createGrpcWebTransport({ baseUrl: devnet.endpoints.nodeRest }),
    );
    const error = await bank
      .balance({ address: "perpx1notanaddress", denom: "uusdc" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.InvalidArgument);
  });

  it("speaks grpc-web-text (base64, a request in two padded chunks)", async () => {
    const body = framed(balanceRequest(devnet.accounts[1]!.address));
    const cut = 4;
    const text =
      Buffer.from(body.subarray(0, cut)).toString("base64") +
      Buffer.from(body.subarray(cut)).toString("base64");
    expect(text.slice(0, 8)).toMatch(/=/); // the first chunk is padded: the server must decode chunk by chunk
    const res = await fetch(`${devnet.endpoints.nodeRest}${BALANCE}`, {
      method: "POST",
      headers: {
        "content-type": "application/grpc-web-text",
        "x-grpc-web": "1",
        accept: "application/grpc-web-text",
      },
      body: text,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/grpc-web-text+proto");
    const parts = frames(new Uint8Array(Buffer.from(await res.text(), "base64")));
    expect(parts.map((p) => p.flag)).toEqual([0x00, 0x80]);
    const balance = fromBinary(cosmosBank.QueryBalanceResponseSchema, parts[0]!.payload);
    expect(BigInt(balance.balance?.amount ?? "0")).toBeGreaterThan(0n);
    expect(trailerMap(parts[1]!.payload)["grpc-status"]).toBe("0");
  });

  it("answers an unknown method with Unimplemented and a bad height with InvalidArgument", async () => {
    const call = async (path: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${devnet.endpoints.nodeRest}${path}`, {
        method: "POST",
        headers: { "content-type": "application/grpc-web+proto", ...headers },
        body: framed(balanceRequest(devnet.accounts[0]!.address)),
      });
      const parts = frames(new Uint8Array(await res.arrayBuffer()));
      return trailerMap(parts.at(-1)!.payload);
    };
    expect((await call("/cosmos.bank.v1beta1.Query/NoSuchMethod"))["grpc-status"]).toBe(
      String(Code.Unimplemented),
    );
    const bad = await call(BALANCE, { "x-cosmos-block-height": "yesterday" });
    expect(bad["grpc-status"]).toBe(String(Code.InvalidArgument));
    expect(decodeURIComponent(bad["grpc-message"] ?? "")).toMatch(/x-cosmos-block-height/);
  });

  it("lets a page on another origin call it (preflight and exposed headers)", async () => {
    const preflight = await fetch(`${devnet.endpoints.nodeRest}${BALANCE}`, {
      method: "OPTIONS",
      headers: {
        origin: "http://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-grpc-web,x-user-agent",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/x-grpc-web/);
    expect(preflight.headers.get("access-control-allow-methods")).toMatch(/POST/);
    const res = await fetch(`${devnet.endpoints.nodeRest}${BALANCE}`, {
      method: "POST",
      headers: { origin: "http://app.example", "content-type": "application/grpc-web+proto" },
      body: framed(balanceRequest(devnet.accounts[0]!.address)),
    });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toMatch(/grpc-status.*grpc-message/);
  });

  it("leaves REST untouched beside it", async () => {
    const res = await fetch(
      `${devnet.endpoints.nodeRest}/cosmos/bank/v1beta1/balances/${devnet.accounts[0]!.address}`,
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { balances: unknown[] }).balances.length).toBeGreaterThan(0);
  });
});

describe("gRPC-web framing", () => {
  it("decodes base64 text sent in any number of padded chunks", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 6 }), (chunks) => {
        const text = chunks.map((c) => Buffer.from(c).toString("base64")).join("");
        expect(Buffer.from(decodeGrpcWebText(text))).toEqual(
          Buffer.concat(chunks.map((c) => Buffer.from(c))),
        );
      }),
    );
  });

  it("refuses text that is not base64, compressed frames and truncated bodies", () => {
    expect(() => decodeGrpcWebText("not base64!")).toThrow(/not base64/);
    const compressed = framed(new Uint8Array([1, 2]));
    compressed[0] = 1;
    expect(() => unaryPayload(compressed)).toThrow(/compressed/);
    expect(() => unaryPayload(framed(new Uint8Array([1, 2, 3])).subarray(0, 6))).toThrow(/announces/);
    expect(() => unaryPayload(new Uint8Array([0, 0]))).toThrow(/no message frame/);
  });
});
