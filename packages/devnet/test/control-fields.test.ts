/**
 * Bad request fields on the devnet's control server and faucet, over HTTP against the real chain:
 * each answers 400 in the server's own `{code, message}` shape, naming the field, before anything
 * reaches the chain.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";

let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, faucetWindowMs: 0 });
});

afterAll(async () => {
  await devnet?.stop();
});

async function post(url: string, body: unknown): Promise<{ status: number; body: Loose }> {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

const control = (path: string, body: unknown) =>
  post(`${devnet.endpoints.devnetControl}/devnet${path}`, body);

describe("POST /devnet/fund", () => {
  it.each([
    [[{ denom: "1bad", amount: "5" }], "coins[0].denom"],
    [[{ denom: "u", amount: "5" }], "coins[0].denom"],
    [
      [
        { denom: "uusdc", amount: "5" },
        { denom: "bad denom!", amount: "1" },
      ],
      "coins[1].denom",
    ],
    [[{ denom: "uusdc", amount: "0" }], "coins[0].amount"],
    [[{ denom: "uusdc", amount: "-3" }], "coins[0].amount"],
    [
      [
        { denom: "uusdc", amount: "1" },
        { denom: "uusdc", amount: "2" },
      ],
      "coins[1].denom",
    ],
    [[5], "coins[0]"],
    [{ denom: "uusdc" }, "coins"],
  ])("answers 400 invalid_coins for coins %j, naming %s", async (coins, field) => {
    const height = devnet.app.latestBlock().height;
    const res = await control("/fund", { address: devnet.accounts[0]?.address, coins });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_coins", message: expect.stringContaining(`"${field}"`) });
    expect(devnet.app.latestBlock().height).toBe(height);
  });

  it("still funds good coins, in any order", async () => {
    const res = await control("/fund", {
      address: devnet.accounts[1]?.address,
      coins: [
        { denom: "uusdc", amount: "7" },
        { denom: "aperpx", amount: 9 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.credited).toEqual([
      { denom: "uusdc", amount: "7" },
      { denom: "aperpx", amount: "9" },
    ]);
  });

  it("names a bad address field", async () => {
    const res = await control("/fund", { address: 42, coins: [{ denom: "uusdc", amount: "1" }] });
    expect(res).toEqual({
      status: 400,
      body: { code: "invalid_address", message: 'the field "address" must be a string' },
    });
  });
});

describe("POST /devnet/approve-agent", () => {
  const message = {
    masterAddress: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    agentPublicKey: `0x02${"11".repeat(32)}`,
    nonce: "1000",
  };
  const signature = `0x${"00".repeat(65)}`;

  it.each([
    [
      { typedDataSignature: signature, message: { ...message, nonce: "abc" } },
      "message.nonce",
      "invalid_request",
    ],
    [
      { typedDataSignature: signature, message: { ...message, nonce: { n: 1 } } },
      "message.nonce",
      "invalid_request",
    ],
    [
      { typedDataSignature: signature, message: { ...message, expiry: -1 } },
      "message.expiry",
      "invalid_request",
    ],
    [
      { typedDataSignature: signature, message: { ...message, masterAddress: 5 } },
      "message.masterAddress",
      "invalid_address",
    ],
    [
      { typedDataSignature: signature, message: { ...message, masterAddress: "0x12" } },
      "message.masterAddress",
      "invalid_address",
    ],
    [
      { typedDataSignature: signature, message: { ...message, agentPublicKey: "0x1234" } },
      "message.agentPublicKey",
      "invalid_request",
    ],
    [
      { typedDataSignature: signature, message: { ...message, agentAddress: 7 } },
      "message.agentAddress",
      "invalid_request",
    ],
    [{ typedDataSignature: "zz", message }, "typedDataSignature", "invalid_request"],
    [{ message }, "typedDataSignature", "invalid_request"],
    [{ typedDataSignature: signature, message: [1, 2] }, "message", "invalid_request"],
    [{ typedDataSignature: signature }, "message", "invalid_request"],
  ])("answers 400 for %j, naming %s", async (body, field, code) => {
    const res = await control("/approve-agent", body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.message).toContain(`"${field}"`);
    expect(res.body.message).not.toMatch(/BigInt|undefined|is not a function|Cannot/);
  });

  it("passes a well-formed body to the chain, which refuses the signature", async () => {
    const res = await control("/approve-agent", { typedDataSignature: signature, message });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("approve_agent_rejected");
  });
});

describe("POST /faucet/tokens", () => {
  it("names the address and the subaccount number fields", async () => {
    const faucet = (body: unknown) => post(`${devnet.endpoints.faucet}/faucet/tokens`, body);
    expect(await faucet({})).toEqual({
      status: 400,
      body: { code: "invalid_address", message: 'the field "address" is missing' },
    });
    const bad = await faucet({ address: devnet.accounts[2]?.address, subaccountNumber: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("invalid_subaccount");
    expect(bad.body.message).toContain('"subaccountNumber"');
  });
});
