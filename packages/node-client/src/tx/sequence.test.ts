import { describe, expect, it } from "vitest";
import { broadcastTxError, isSequenceMismatchError, type SequenceMismatchError } from "../errors.js";
import { type AccountSequence, SequenceManager, TIMESTAMP_NONCE_MIN } from "./sequence.js";

/** A chain double that checks sequences as CheckTx does (committed + mempool) and counts landed txs. */
class FakeChain {
  committed = 0n;
  mempool: { sequence: bigint; payload: string }[] = [];
  landed: string[] = [];
  nonces = new Set<bigint>();
  fetches = 0;
  inFlight = 0;
  maxInFlight = 0;

  async fetchAccount(): Promise<AccountSequence> {
    this.fetches++;
    await tick();
    return { accountNumber: 7n, sequence: this.committed };
  }

  checkSequence(): bigint {
    return this.committed + BigInt(this.mempool.length);
  }

  async broadcast(account: AccountSequence, payload: string): Promise<string> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await tick();
      if (account.sequence >= TIMESTAMP_NONCE_MIN) {
        if (this.nonces.has(account.sequence)) throw mismatch(0n, account.sequence, "nonce already used");
        this.nonces.add(account.sequence);
        this.landed.push(payload);
        return payload;
      }
      const expected = this.checkSequence();
      if (account.sequence !== expected) throw mismatch(expected, account.sequence);
      this.mempool.push({ sequence: account.sequence, payload });
      return payload;
    } finally {
      this.inFlight--;
    }
  }

  commit(): void {
    for (const tx of this.mempool) this.landed.push(tx.payload);
    this.committed += BigInt(this.mempool.length);
    this.mempool = [];
  }
}

function tick(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
}

function mismatch(expected: bigint, got: bigint, extra = ""): SequenceMismatchError {
  return broadcastTxError({
    abciCode: 32,
    codespace: "sdk",
    log: `account sequence mismatch, expected ${expected}, got ${got}${extra ? ` (${extra})` : ""}: incorrect account sequence`,
    txHash: "AB",
    phase: "checkTx",
  }) as SequenceMismatchError;
}

const ADDRESS = "perpx1account";

describe("SequenceManager", () => {
  it("lands 50 concurrent stateful txs exactly once, with sequences 0..49 in order", async () => {
    const chain = new FakeChain();
    const manager = new SequenceManager({ fetchAccount: () => chain.fetchAccount() });
    const used: bigint[] = [];
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        manager.run({ address: ADDRESS, mode: "sequence" }, async (account) => {
          used.push(account.sequence);
          return chain.broadcast(account, `tx${i}`);
        }),
      ),
    );
    chain.commit();
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => `tx${i}`));
    expect(new Set(chain.landed).size).toBe(50);
    expect(chain.landed).toHaveLength(50);
    expect(used).toEqual(Array.from({ length: 50 }, (_, i) => BigInt(i)));
    expect(chain.fetches).toBe(1);
    expect(chain.maxInFlight).toBe(1);
    expect(manager.peek(ADDRESS)).toEqual({ accountNumber: 7n, sequence: 50n });
  });

  it("resyncs on a sequence mismatch and retries once with the same payload", async () => {
    const chain = new FakeChain();
    const manager = new SequenceManager({ fetchAccount: () => chain.fetchAccount() });
    await manager.run({ address: ADDRESS, mode: "sequence" }, (a) => chain.broadcast(a, "first"));
    chain.commit();
    // Another process uses the account behind our back: two txs, one still in the mempool.
    await chain.broadcast({ accountNumber: 7n, sequence: 1n }, "other-1");
    chain.commit();
    await chain.broadcast({ accountNumber: 7n, sequence: 2n }, "other-2");
    const attempts: bigint[] = [];
    await manager.run({ address: ADDRESS, mode: "sequence" }, (a) => {
      attempts.push(a.sequence);
      return chain.broadcast(a, "mine");
    });
    chain.commit();
    // The committed sequence read on resync was 2, but the log said 3 (the mempool counts).
    expect(attempts).toEqual([1n, 3n]);
    expect(chain.landed.filter((p) => p === "mine")).toHaveLength(1);
    expect(manager.peek(ADDRESS).sequence).toBe(4n);
  });

  it("gives up after one retry, and re-reads the sequence next time", async () => {
    const chain = new FakeChain();
    const manager = new SequenceManager({ fetchAccount: () => chain.fetchAccount() });
    let calls = 0;
    const error = await manager
      .run({ address: ADDRESS, mode: "sequence" }, async () => {
        calls++;
        throw mismatch(99n, 0n);
      })
      .catch((e: unknown) => e);
    expect(isSequenceMismatchError(error)).toBe(true);
    expect(calls).toBe(2);
    expect(manager.peek(ADDRESS).sequence).toBeUndefined();
  });

  it("keeps the sequence after a definite CheckTx refusal, and forgets it after an unknown outcome", async () => {
    const chain = new FakeChain();
    const manager = new SequenceManager({ fetchAccount: () => chain.fetchAccount() });
    await manager.run({ address: ADDRESS, mode: "sequence" }, (a) => chain.broadcast(a, "a"));
    const refusal = broadcastTxError({
      abciCode: 5,
      codespace: "sdk",
      log: "insufficient funds",
      txHash: "X",
      phase: "checkTx",
    });
    await expect(
      manager.run({ address: ADDRESS, mode: "sequence" }, () => Promise.reject(refusal)),
    ).rejects.toBe(refusal);
    expect(manager.peek(ADDRESS).sequence).toBe(1n);
    await expect(
      manager.run({ address: ADDRESS, mode: "sequence" }, () => Promise.reject(new Error("socket hang up"))),
    ).rejects.toThrow("socket hang up");
    expect(manager.peek(ADDRESS).sequence).toBeUndefined();
    chain.commit();
    const fetchesBefore = chain.fetches;
    await manager.run({ address: ADDRESS, mode: "sequence" }, (a) => chain.broadcast(a, "b"));
    expect(chain.fetches).toBe(fetchesBefore + 1);
    expect(manager.peek(ADDRESS).sequence).toBe(2n);
  });

  it("runs timestamp-nonce txs in parallel with strictly increasing nonces", async () => {
    const chain = new FakeChain();
    let clock = 1_800_000_000_000;
    const manager = new SequenceManager({ fetchAccount: () => chain.fetchAccount(), now: () => clock });
    await manager.run({ address: ADDRESS, mode: "sequence" }, (a) => chain.broadcast(a, "warm"));
    const nonces: bigint[] = [];
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        manager.run({ address: ADDRESS, mode: "timestamp" }, (a) => {
          nonces.push(a.sequence);
          return chain.broadcast(a, `n${i}`);
        }),
      ),
    );
    expect(chain.maxInFlight).toBeGreaterThan(1);
    expect(new Set(nonces).size).toBe(50);
    expect(nonces.every((n) => n >= BigInt(clock))).toBe(true);
    clock += 10;
    expect(manager.nextTimestampNonce(ADDRESS)).toBeGreaterThan(
      [...nonces].sort((a, b) => Number(a - b)).at(-1)!,
    );
    // The classic sequence is untouched by timestamp nonces.
    expect(manager.peek(ADDRESS).sequence).toBe(1n);
  });

  it("honours timestampOffsetMs and retries a refused nonce once with a fresh one", async () => {
    const chain = new FakeChain();
    const manager = new SequenceManager({
      fetchAccount: () => chain.fetchAccount(),
      now: () => 1_800_000_000_000,
      timestampOffsetMs: -5_000,
    });
    const seen: bigint[] = [];
    let first = true;
    await manager.run({ address: ADDRESS, mode: "timestamp" }, async (a) => {
      seen.push(a.sequence);
      if (first) {
        first = false;
        throw mismatch(0n, a.sequence, "nonce too old");
      }
      return "ok";
    });
    expect(seen).toEqual([1_799_999_995_000n, 1_799_999_995_001n]);
  });

  it("never touches the sequence for short-term orders", async () => {
    const chain = new FakeChain();
    const manager = new SequenceManager({ fetchAccount: () => chain.fetchAccount() });
    await manager.run({ address: ADDRESS, mode: "sequence" }, (a) => chain.broadcast(a, "a"));
    const seen: bigint[] = [];
    await Promise.all(
      Array.from({ length: 10 }, () =>
        manager.run({ address: ADDRESS, mode: "none" }, async (a) => {
          seen.push(a.sequence);
          return "short";
        }),
      ),
    );
    expect(seen.every((s) => s === 1n)).toBe(true);
    expect(manager.peek(ADDRESS).sequence).toBe(1n);
    manager.reset();
    expect(manager.peek(ADDRESS).sequence).toBeUndefined();
  });
});

describe("a mismatch found after the lock (DeliverTx)", () => {
  it("makes the next transaction read the account again; other failures do not", async () => {
    let reads = 0;
    const sequences = new SequenceManager({
      fetchAccount: async () => {
        reads++;
        return { accountNumber: 1n, sequence: 10n };
      },
    });
    await sequences.run({ address: "a", mode: "sequence" }, async () => "sent");
    expect(sequences.peek("a").sequence).toBe(11n);
    sequences.observe(
      "a",
      broadcastTxError({ abciCode: 5, codespace: "sdk", log: "x", txHash: "AB", phase: "deliverTx" }),
    );
    expect(sequences.peek("a").sequence).toBe(11n);
    sequences.observe(
      "a",
      broadcastTxError({
        abciCode: 32,
        codespace: "sdk",
        log: "account sequence mismatch, expected 10, got 11: incorrect account sequence",
        txHash: "AB",
        phase: "deliverTx",
      }),
    );
    expect(sequences.peek("a").sequence).toBeUndefined();
    await sequences.run({ address: "a", mode: "sequence" }, async ({ sequence }) =>
      expect(sequence).toBe(10n),
    );
    expect(reads).toBe(2);
  });
});
