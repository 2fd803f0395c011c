/**
 * Waiting for a transaction's block through a flaky node: `tx` polls cut by a proxy (the socket
 * dropped unanswered, the answer lost, a gateway's 502 page), a node killed and restarted on the
 * same port. The wait rides out each transport failure until `commitTimeoutMs`, then gives up with
 * `TxInclusionTimeoutError` whose cause is the last failure; a malformed answer, a node's refusal,
 * and the caller's abort still end it at once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { local } from "@perpx/core";
import { DEFAULT_PORTS, type DevnetPorts, startDevnet } from "@perpx/devnet";
import { isAbortedError } from "@perpx/errors";
import { afterAll, describe, expect, it } from "vitest";
import { type ProxyFault, startFaultProxy } from "../../../tests/support/fault-proxy.js";
import { sparePortsByName } from "../../../tests/support/spare-ports.js";
import {
  createNodeClient,
  isQueryError,
  isTransportError,
  isTxInclusionTimeoutError,
  type TxInclusionTimeoutError,
} from "../src/index.js";
import { LocalWallet } from "../src/wallets.js";
import { useDevnet } from "./support.js";

const net = useDevnet({ blockTimeMs: 50 });

/** What the proxy does to a `tx` poll: drop it unsent, lose the answer, answer a 502 page, or rewrite the answer. */
type Cut = "drop" | "swallow" | "502" | "malformed" | "refused" | "another";

interface PollProxy {
  url: string;
  /** How many `tx` polls reached the proxy, and how many of them it cuts. */
  polls: { seen: number; cut: number };
  /** The faults of the next `tx` polls, in order (one each); `always` cuts every poll with it. */
  cuts: Cut[];
  always: Cut | undefined;
  /** Resolves once `count` polls were cut. */
  cutCount(count: number): Promise<void>;
  close(): Promise<void>;
}

/** The JSON-RPC answers of a hostile or refusing node, by cut. */
const ANSWERS: Partial<Record<Cut, unknown>> = {
  // A hostile node: a JSON-RPC answer whose tx height is hex.
  malformed: { jsonrpc: "2.0", id: -1, result: { hash: "AB", height: "0x10", tx_result: {}, tx: "" } },
  // A hostile node: a well-formed answer, for another transaction that landed fine.
  another: {
    jsonrpc: "2.0",
    id: -1,
    result: {
      hash: "BB".repeat(32),
      height: "5",
      index: 0,
      tx_result: { code: 0, log: "", gas_wanted: "1", gas_used: "1", events: [] },
      tx: "",
    },
  },
  // The node refuses to look (not a "not found"): an answer, not a transport failure.
  refused: {
    jsonrpc: "2.0",
    id: -1,
    error: { code: -32603, message: "Internal error", data: "transaction indexing is disabled" },
  },
};

async function startPollProxy(target: string): Promise<PollProxy> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const proxy: PollProxy = {
    url: "",
    polls: { seen: 0, cut: 0 },
    cuts: [],
    always: undefined,
    cutCount: (count) =>
      new Promise((resolve) => {
        if (proxy.polls.cut >= count) resolve();
        else waiters.push({ count, resolve });
      }),
    close: async () => undefined,
  };
  const counted = () => {
    proxy.polls.cut += 1;
    for (const waiter of waiters.filter((w) => proxy.polls.cut >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const inner = await startFaultProxy(target, {
    fault: ({ method }): ProxyFault | undefined => {
      if (method !== "tx") return undefined;
      proxy.polls.seen += 1;
      const cut = proxy.cuts.shift() ?? proxy.always;
      if (cut === undefined) return undefined;
      counted();
      const answer = ANSWERS[cut];
      return answer === undefined ? (cut as "drop" | "swallow" | "502") : { answer };
    },
  });
  proxy.url = inner.url;
  proxy.close = inner.close;
  return proxy;
}

const proxies: PollProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

const usdc = (amount: number) => [{ denom: "uusdc", amount: BigInt(amount) }];

/** A funded wallet (one of the devnet's accounts per test) and a client whose RPC goes through a proxy. */
async function setUp(index: number) {
  const proxy = await startPollProxy(net.devnet.endpoints.nodeRpc);
  proxies.push(proxy);
  const client = net.makeClient({ nodeRpc: proxy.url, grpc: undefined, nodeRest: undefined });
  return { proxy, client, wallet: net.wallets[index]! };
}

describe("waitForTx through a flaky node", () => {
  it("rides out consecutive cut polls (dropped, answer lost, 502) and returns the landed tx", async () => {
    const { proxy, client, wallet } = await setUp(0);
    const to = LocalWallet.generate().address;
    proxy.cuts = ["drop", "swallow", "502", "drop", "swallow", "502"];
    const sent = await client.bankSend({
      signer: wallet,
      from: wallet.address,
      to,
      amount: usdc(5),
      tx: { commitTimeoutMs: 30_000 },
    });
    expect(sent.tx?.code).toBe(0);
    expect(sent.height).toBeGreaterThan(0n);
    expect(proxy.polls.cut).toBe(6);
    expect(proxy.polls.seen).toBeGreaterThan(6);
    expect((await net.client.getBalance({ address: to, denom: "uusdc" })).amount).toBe(5n);
  });

  it("every poll cut: TxInclusionTimeoutError with the hash, its cause the last transport failure", async () => {
    const { proxy, client, wallet } = await setUp(1);
    const to = LocalWallet.generate().address;
    proxy.always = "502";
    const error = await client
      .bankSend({
        signer: wallet,
        from: wallet.address,
        to,
        amount: usdc(6),
        tx: { commitTimeoutMs: 1_000, pollIntervalMs: 25 },
      })
      .catch((e: unknown) => e);
    expect(isTxInclusionTimeoutError(error)).toBe(true);
    const timeout = error as TxInclusionTimeoutError;
    expect(timeout.txHash).toMatch(/^[0-9A-F]{64}$/);
    expect(timeout.timeoutMs).toBe(1_000);
    expect(isTransportError(timeout.cause)).toBe(true);
    expect(String((timeout.cause as Error).message)).toContain("502");
    expect(proxy.polls.cut).toBe(proxy.polls.seen);
    // It landed all the same: the hash finds it once the node answers again.
    proxy.always = undefined;
    expect((await client.waitForTx({ hash: timeout.txHash })).code).toBe(0);
  });

  it("a malformed answer, another tx's, or the node's refusal ends the wait at once; so does the caller's abort", async () => {
    const { proxy, client, wallet } = await setUp(2);
    const to = LocalWallet.generate().address;
    const { hash } = await client.bankSend({
      signer: wallet,
      from: wallet.address,
      to,
      amount: usdc(7),
      tx: { broadcastMode: "sync" },
    });
    for (const [cut, isExpected] of [
      ["malformed", isTransportError],
      ["refused", isQueryError],
      ["another", isQueryError],
    ] as const) {
      proxy.cuts = [cut];
      const before = proxy.polls.seen;
      const error = await client
        .waitForTx({ hash, commitTimeoutMs: 60_000, pollIntervalMs: 25 })
        .catch((e: unknown) => e);
      expect([cut, isExpected(error), isTxInclusionTimeoutError(error)]).toEqual([cut, true, false]);
      expect(proxy.polls.seen - before).toBe(1);
    }
    // The caller's signal ends a wait that is riding out cut polls.
    proxy.always = "drop";
    const controller = new AbortController();
    const waiting = client
      .waitForTx({ hash, commitTimeoutMs: 60_000, pollIntervalMs: 25, signal: controller.signal })
      .catch((e: unknown) => e);
    await Promise.race([proxy.cutCount(proxy.polls.cut + 2), waiting]);
    controller.abort();
    expect(isAbortedError(await waiting)).toBe(true);
    proxy.always = undefined;
  });

  it("a timeout past 2^31 ms (24.8 days) is a long timeout, not an instant one", async () => {
    const { client, wallet } = await setUp(3);
    const long = 2 ** 32;
    expect((await client.getLatestBlock({ timeoutMs: long })).height).toBeGreaterThan(0n);
    const { hash } = await client.bankSend({
      signer: wallet,
      from: wallet.address,
      to: LocalWallet.generate().address,
      amount: usdc(3),
      tx: { broadcastMode: "sync" },
    });
    // Each look may take 49 days and the wait 99 days: it finds the tx, it does not spin on timeouts.
    const landed = await client.waitForTx({
      hash,
      commitTimeoutMs: 2 * long,
      timeoutMs: long,
      pollIntervalMs: 25,
    });
    expect(landed.code).toBe(0);
  });

  it("closing the client ends a wait at once (gRPC and WebSocket), not at the deadline", async () => {
    const unknown = "A".repeat(64);
    const grpc = net.makeClient({ nodeRpc: undefined, nodeRest: undefined });
    const ws = net.makeClient({
      nodeRpc: net.devnet.endpoints.nodeRpc.replace(/^http/, "ws"),
      grpc: undefined,
      nodeRest: undefined,
    });
    for (const [client, transport] of [
      [grpc, "grpc"],
      [ws, "rpc"],
    ] as const) {
      // One look answered (not found), so the connection is open when it closes.
      expect(await client.getTx({ hash: unknown, transport })).toBeUndefined();
      const waiting = client
        .waitForTx({ hash: unknown, transport, commitTimeoutMs: 20_000, pollIntervalMs: 25 })
        .catch((e: unknown) => e);
      client.close();
      const error = await waiting;
      expect([transport, isTransportError(error), (error as Error).message]).toEqual([
        transport,
        true,
        expect.stringContaining("closed"),
      ]);
    }
  });
});

describe("waitForTx across a node restart", () => {
  const stateDir = mkdtempSync(join(tmpdir(), "node-client-wait-restart-"));
  afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

  it("a node killed and restarted on the same port during the wait: the wait finds the tx that landed", async () => {
    // Spare ports, which no parallel test takes while the node is down.
    const ports = await sparePortsByName(Object.keys(DEFAULT_PORTS) as (keyof DevnetPorts)[]);
    const options = { blockTimeMs: 0, faucetWindowMs: 0, stateDir, ports } as const;
    let devnet = await startDevnet(options);
    // The client's fetch: counts the `tx` polls answered and failed, and can hold them back.
    const polls = { answered: 0, failed: 0 };
    let gate: Promise<void> | undefined;
    const events: { when: () => boolean; resolve: () => void }[] = [];
    const check = () => {
      for (const event of events.filter((e) => e.when())) {
        events.splice(events.indexOf(event), 1);
        event.resolve();
      }
    };
    const once = (when: () => boolean) =>
      new Promise<void>((resolve) => {
        events.push({ when, resolve });
        check();
      });
    let held = 0;
    const countingFetch: typeof fetch = async (input, init) => {
      const isPoll = typeof init?.body === "string" && JSON.parse(init.body).method === "tx";
      if (isPoll && gate) {
        held += 1;
        check();
        await gate;
      }
      try {
        const answer = await fetch(input, init);
        if (isPoll) polls.answered += 1;
        return answer;
      } catch (error) {
        if (isPoll) polls.failed += 1;
        throw error;
      } finally {
        check();
      }
    };
    const client = createNodeClient({
      nodeRpc: { url: devnet.endpoints.nodeRpc, fetch: countingFetch },
      network: local,
    });
    try {
      const wallet = LocalWallet.fromMnemonic(devnet.accounts[0]!.mnemonic);
      const to = LocalWallet.generate().address;
      // Blocks on demand only: the tx waits in the mempool until the block mined below.
      const { hash } = await client.bankSend({
        signer: wallet,
        from: wallet.address,
        to,
        amount: usdc(9),
        tx: { broadcastMode: "sync", gas: 200_000n },
      });
      const waiting = client
        .waitForTx({ hash, commitTimeoutMs: 100_000, pollIntervalMs: 20 })
        .catch((e: unknown) => e);
      await once(() => polls.answered >= 1);
      // The next poll is held while the tx lands and the node goes down.
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      await once(() => held >= 1);
      const [block] = devnet.mine(1);
      await devnet.stop();
      gate = undefined;
      release();
      await once(() => polls.failed >= 1);
      devnet = await startDevnet(options);
      const landed = await waiting;
      expect(isTransportError(landed)).toBe(false);
      expect(landed).toMatchObject({ hash, code: 0, height: BigInt(block!.height) });
      expect(polls.failed).toBeGreaterThanOrEqual(1);
    } finally {
      client.close();
      await devnet.stop();
    }
  });
});
