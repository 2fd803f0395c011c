/**
 * Hostile clock and block-time values on the control server: each is refused with a 400 naming
 * the limit, and the chain keeps producing blocks afterwards (a clock pushed past what the epoch
 * timers or a block time can hold, or a timer Node cannot arm, would stop or flood block
 * production for good).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import type { Loose } from "./support/loose.js";

let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
});

afterAll(async () => {
  await devnet?.stop();
});

async function control(path: string, body: unknown): Promise<{ status: number; body: Loose }> {
  const res = await fetch(`${devnet.endpoints.devnetControl}/devnet${path}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Mines one block through the control server; it must succeed, one height up. */
async function minesOneBlock(): Promise<Loose> {
  const before = devnet.app.latestBlock().height;
  const mined = await control("/blocks", { count: 1 });
  expect(mined).toMatchObject({ status: 200, body: { height: (before + 1n).toString() } });
  return mined.body;
}

describe("POST /devnet/advance-time and /devnet/outage", () => {
  it.each([
    ["/advance-time", { ms: Number.MAX_SAFE_INTEGER }],
    ["/advance-time", { ms: 8_000_000_000_000_000 }],
    ["/outage", { ms: Number.MAX_SAFE_INTEGER }],
    ["/outage", { ms: 3_000_000_000_000 }],
    ["/advance-time", { seconds: 3_000_000_000 }],
  ])("refuses %s %j past 2100, and the chain still mines", async (path, body) => {
    const res = await control(path, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "invalid_request",
      message: expect.stringContaining("past 2100-01-01T00:00:00.000Z"),
    });
    const block = await minesOneBlock();
    const time = (await (await fetch(`${devnet.endpoints.devnetControl}/devnet/status`)).json()) as Loose;
    expect(String(time.blockTime)).toMatch(/^\d{4}-/);
    expect(block.heights).toHaveLength(1);
  });

  it("refuses the jump that would carry the clock past the limit, counting the jumps before it", async () => {
    // Each is under the limit alone (about 48 years); the second would carry the clock past it.
    const step = 1_500_000_000_000;
    expect((await control("/advance-time", { ms: step })).status).toBe(200);
    const second = await control("/advance-time", { ms: step });
    expect(second.status).toBe(400);
    expect(second.body.message).toContain("past 2100-01-01T00:00:00.000Z");
    await minesOneBlock();
    const status = (await (await fetch(`${devnet.endpoints.devnetControl}/devnet/status`)).json()) as Loose;
    expect(Number(String(status.blockTime).slice(0, 4))).toBeGreaterThan(2070);
  });

  it("names `seconds` when seconds do not fit in milliseconds", async () => {
    const res = await control("/advance-time", { seconds: Number.MAX_SAFE_INTEGER });
    expect(res).toMatchObject({ status: 400, body: { code: "invalid_request" } });
    expect(res.body.message).toContain('"seconds"');
    await minesOneBlock();
  });
});

describe("POST /devnet/block-time", () => {
  it("refuses a block time a Node timer cannot wait (it would fire every millisecond)", async () => {
    const res = await control("/block-time", { ms: 2_147_483_648 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "invalid_request",
      message: "blockTimeMs must be an integer from 0 to 2147483647, got 2147483648",
    });
    expect(devnet.producer.blockTimeMs).toBe(0);
    const longest = await control("/block-time", { ms: 2_147_483_647 });
    expect(longest).toEqual({ status: 200, body: { blockTimeMs: 2_147_483_647 } });
    expect((await control("/block-time", { ms: 0 })).status).toBe(200);
  });

  it("startDevnet refuses a bad block time before it locks the state directory", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "perpx-block-time-"));
    try {
      for (const blockTimeMs of [2_147_483_648, -1]) {
        await expect(startDevnet({ ports: "free", stateDir, blockTimeMs })).rejects.toThrow(
          `blockTimeMs must be an integer from 0 to 2147483647, got ${blockTimeMs}`,
        );
      }
      // Nothing was left holding the directory: a start with a good block time takes it.
      const next = await startDevnet({ ports: "free", stateDir, blockTimeMs: 0 });
      await next.stop();
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
