/**
 * The URI (GET) form of the CometBFT RPC refuses a parameter it cannot convert as CometBFT's
 * `http_uri_handler.go` does: HTTP 500, id -1, code -32602 `Invalid params`, and data
 * `error converting http params to arguments: <Go's error>`; an empty value is the default.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";

let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
});

afterAll(async () => {
  await devnet?.stop();
});

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${devnet.endpoints.nodeRpc}${path}`);
  return { status: response.status, body: await response.json() };
}

const refusal = (reason: string) => ({
  status: 500,
  body: {
    jsonrpc: "2.0",
    id: -1,
    error: {
      code: -32602,
      message: "Invalid params",
      data: `error converting http params to arguments: ${reason}`,
    },
  },
});

describe("CometBFT RPC, URI form: parameter errors", () => {
  const hash = `0x${"ab".repeat(32)}`;
  it.each([
    ["/block?height=x", 'invalid 64-bit integer encoding "x", expected string'],
    ["/block?height=1.5", 'invalid 64-bit integer encoding "1.5", expected string'],
    ["/block?height=0x10", "got a hex string arg, but expected 'int64'"],
    ["/validators?per_page=0x1", "got a hex string arg, but expected 'int'"],
    ['/block?height="x"', "invalid character 'x' looking for beginning of value"],
    ['/block?height="1.5"', "json: cannot unmarshal number 1.5 into Go value of type int64"],
    [
      "/block?height=99999999999999999999",
      "json: cannot unmarshal number 99999999999999999999 into Go value of type int64",
    ],
    ["/tx?hash=0xzz", "encoding/hex: invalid byte: U+007A 'z'"],
    ["/tx?hash=0xabc", "encoding/hex: odd length hex string"],
    [`/tx?hash=${hash}&prove=yes`, "invalid character 'y' looking for beginning of value"],
    [`/tx?hash=${hash}&prove="true"`, "json: cannot unmarshal string into Go value of type bool"],
    [`/tx?hash=${hash}&prove=1`, "json: cannot unmarshal number into Go value of type bool"],
    [`/tx?hash=${hash}&prove=0x1`, "got a hex string arg, but expected 'bool'"],
    ["/broadcast_tx_sync?tx=AQID", "invalid character 'A' looking for beginning of value"],
    ['/abci_query?path="/x"&data=zz', "invalid hex string: zz"],
  ])("GET %s: 500 and CometBFT's body", async (path, reason) => {
    expect(await get(path)).toEqual(refusal(reason));
  });

  it("an empty value is the parameter's default, as CometBFT's getParam reads it", async () => {
    devnet.mine(1);
    const latest = await get("/block?height=");
    expect(latest.status).toBe(200);
    const validators = await get("/validators?height=&page=&per_page=");
    expect(validators.status).toBe(200);
  });

  it("an unknown method stays 404", async () => {
    expect((await get("/nope")).status).toBe(404);
  });
});
