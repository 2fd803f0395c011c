import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { sha256 } from "@noble/hashes/sha2.js";
import { cosmosBank } from "@perpx/proto";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { accountInfo, bankBalance } from "../test/support/app-query.js";
import { msg, signTx } from "../test/support/sign-tx.js";
import { createChainApp } from "./app/app.js";
import type { PersistentChainApp } from "./app/contract.js";
import { GENESIS_ACCOUNTS } from "./app/genesis/genesis-accounts.js";
import { BinaryWriter } from "./app/lib/codec.js";
import { startDevnet } from "./devnet.js";
import {
  BLOCK_LOG_FILE,
  DevnetStateError,
  decodeRecords,
  encodeRecord,
  isDevnetStateError,
  STATE_FILE,
  StateDirectory,
} from "./persistence.js";
import { LOCK_FILE } from "./state-lock.js";

const GENESIS_TIME = new Date("2026-01-01T00:00:00Z");
const ALICE = GENESIS_ACCOUNTS[0]!;
const BOB = GENESIS_ACCOUNTS[1]!.address;
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "perpx-devnet-persist-"));
  dirs.push(dir);
  return dir;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid;
}

/** A state directory that persisted `blocks` blocks after genesis; returns the app and the directory. */
function persistedChain(blocks: number, dir = tempDir()): { app: PersistentChainApp; dir: string } {
  const store = StateDirectory.open(dir);
  const app = createChainApp({ profile: "local", genesisTime: GENESIS_TIME });
  store.persist(app);
  for (let i = 1; i <= blocks; i++) {
    app.produceBlock(new Date(GENESIS_TIME.getTime() + i * 1000));
    store.persist(app);
  }
  store.close();
  return { app, dir };
}

/** Resumes from `dir` as the devnet does; returns the app and the open directory. */
function resume(dir: string): { app: PersistentChainApp; store: StateDirectory } {
  const store = StateDirectory.open(dir);
  const state = store.resumed;
  if (state === undefined) throw new Error("nothing to resume");
  return { app: createChainApp({ profile: "local", genesisTime: new Date(0), state }), store };
}

function openError(dir: string): DevnetStateError {
  try {
    StateDirectory.open(dir).close();
  } catch (error) {
    if (error instanceof DevnetStateError) return error;
    throw error;
  }
  throw new Error("the state directory opened");
}

describe("record framing", () => {
  const chunks = fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 12 });

  it("property: decoding encoded records gives them back, and consumes every byte", () => {
    fc.assert(
      fc.property(chunks, (payloads) => {
        const bytes = Buffer.concat(payloads.map(encodeRecord));
        const { records, end } = decodeRecords(new Uint8Array(bytes));
        expect(records.map((r) => [...r])).toEqual(payloads.map((p) => [...p]));
        expect(end).toBe(bytes.length);
      }),
    );
  });

  it("property: any truncation decodes to a prefix of the records, ending at a record boundary", () => {
    fc.assert(
      fc.property(chunks, fc.nat(), (payloads, cut) => {
        const encoded = payloads.map(encodeRecord);
        const bytes = new Uint8Array(Buffer.concat(encoded));
        const length = cut % (bytes.length + 1);
        const { records, end } = decodeRecords(bytes.subarray(0, length));
        // Exactly the records that fit whole.
        let whole = 0;
        let boundary = 0;
        while (whole < encoded.length && boundary + encoded[whole]!.length <= length) {
          boundary += encoded[whole]!.length;
          whole++;
        }
        expect(records.map((r) => [...r])).toEqual(payloads.slice(0, whole).map((p) => [...p]));
        expect(end).toBe(boundary);
      }),
    );
  });

  it("property: a flipped byte in a record ends the decoding before that record", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 32 }), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (payloads, at, flip) => {
          const encoded = payloads.map(encodeRecord);
          const bytes = new Uint8Array(Buffer.concat(encoded));
          const position = at % bytes.length;
          bytes[position]! ^= flip;
          let record = 0;
          let start = 0;
          while (start + encoded[record]!.length <= position) start += encoded[record++]!.length;
          const { records } = decodeRecords(bytes);
          expect(records.map((r) => [...r])).toEqual(payloads.slice(0, record).map((p) => [...p]));
        },
      ),
    );
  });

  it("stops at `limit` records", () => {
    const bytes = new Uint8Array(Buffer.concat([1, 2, 3].map((n) => encodeRecord(new Uint8Array([n])))));
    const { records, end } = decodeRecords(bytes, 2);
    expect(records.map((r) => [...r])).toEqual([[1], [2]]);
    expect(end).toBe(18);
  });
});

describe("state directory", () => {
  it("resumes the snapshot and every block, and continues as the chain it was", () => {
    const { app, dir } = persistedChain(5);
    const { app: resumed, store } = resume(dir);
    expect(resumed.latestBlock()).toEqual(app.latestBlock());
    expect(resumed.exportSnapshot()).toEqual(app.exportSnapshot());
    const next = new Date(GENESIS_TIME.getTime() + 60_000);
    expect(resumed.produceBlock(next).hash).toEqual(app.produceBlock(next).hash);
    store.persist(resumed);
    store.close();
    expect(resume(dir).app.latestBlock().height).toBe(7n);
  });

  it("persists a block by appending one record (the log grows by the block, not the chain)", () => {
    const { app, dir } = persistedChain(3);
    const store = resume(dir).store;
    const before = statSync(join(dir, BLOCK_LOG_FILE)).size;
    const block = app.produceBlock(new Date(GENESIS_TIME.getTime() + 60_000));
    store.persist(app);
    store.close();
    const added = statSync(join(dir, BLOCK_LOG_FILE)).size - before;
    expect(added).toBe(encodeRecord(app.exportBlock(block.height)!).length);
  });

  it.each([
    ["garbage", () => new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])],
    ["half a record", () => encodeRecord(new Uint8Array(100).fill(7)).subarray(0, 60)],
    [
      "a whole record of a block whose snapshot was never written",
      () => encodeRecord(new Uint8Array([1, 2, 3])),
    ],
  ])("truncates a tail of %s and resumes at the snapshot's block", (_, tail) => {
    const { app, dir } = persistedChain(4);
    const log = join(dir, BLOCK_LOG_FILE);
    const size = statSync(log).size;
    appendFileSync(log, tail());
    const { app: resumed, store } = resume(dir);
    expect(statSync(log).size).toBe(size);
    expect(resumed.latestBlock().height).toBe(app.latestBlock().height);
    resumed.produceBlock(new Date(GENESIS_TIME.getTime() + 60_000));
    store.persist(resumed);
    store.close();
    expect(resume(dir).app.latestBlock().height).toBe(6n);
  });

  it("resumes at N when the process died between a block's record and its snapshot", () => {
    const { app, dir } = persistedChain(4);
    const snapshot = readFileSync(join(dir, STATE_FILE));
    const store = resume(dir).store;
    app.produceBlock(new Date(GENESIS_TIME.getTime() + 60_000));
    store.persist(app);
    store.close();
    writeFileSync(join(dir, STATE_FILE), snapshot);
    expect(resume(dir).app.latestBlock().height).toBe(5n);
  });

  it("fails with a typed error naming the log when it holds fewer blocks than the snapshot follows", () => {
    const { dir } = persistedChain(4);
    const log = join(dir, BLOCK_LOG_FILE);
    truncateSync(log, statSync(log).size - 1);
    const error = openError(dir);
    expect(isDevnetStateError(error)).toBe(true);
    expect(error.code).toBe("DEVNET");
    expect(error.file).toBe(log);
    expect(error.message).toMatch(/holds 4 valid blocks, but state\.bin follows 5 blocks/);
    rmSync(log);
    expect(openError(dir).message).toMatch(/block log is missing/);
  });

  it("rejects a state file of the previous single-file format, saying to delete the directory", () => {
    const dir = tempDir();
    const old = new BinaryWriter().string("perpx-devnet-state").uvarint(1).string("local").finish();
    writeFileSync(join(dir, STATE_FILE), old);
    const error = openError(dir);
    expect(error.file).toBe(join(dir, STATE_FILE));
    expect(error.message).toMatch(/older devnet.*delete the state directory/);
    writeFileSync(join(dir, STATE_FILE), "hello");
    expect(openError(dir).message).toMatch(/not a perpx devnet state file/);
  });

  it("rejects a snapshot that fails its checksum", () => {
    const { dir } = persistedChain(1);
    const bytes = readFileSync(join(dir, STATE_FILE));
    bytes[bytes.length - 1]! ^= 1;
    writeFileSync(join(dir, STATE_FILE), bytes);
    expect(openError(dir).message).toMatch(/checksum/);
  });

  it("refuses to start a new chain over the blocks of a chain whose state.bin was deleted", () => {
    const { dir } = persistedChain(3);
    const logBefore = readFileSync(join(dir, BLOCK_LOG_FILE));
    rmSync(join(dir, STATE_FILE));
    const error = openError(dir);
    expect(isDevnetStateError(error)).toBe(true);
    expect(error.file).toBe(join(dir, STATE_FILE));
    expect(error.message).toContain(`${join(dir, STATE_FILE)}: it is missing`);
    expect(error.message).toContain(`${join(dir, BLOCK_LOG_FILE)} holds 4 blocks`);
    expect(error.message).toMatch(/restore .*state\.bin.*or delete .*blocks\.log/);
    // Nothing was cut, and the directory is not left locked.
    expect(readFileSync(join(dir, BLOCK_LOG_FILE))).toEqual(logBefore);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("removes the temp files of its own files a killed run left, and no file of the directory's own", () => {
    // `--state .` in a project: files that merely look like temps are not the devnet's to delete.
    const dir = tempDir();
    const own = ["notes.tmp-1", "build.tmp-2024", "state.bin.tmp-x", "state.bin.tmp-"];
    for (const name of own) writeFileSync(join(dir, name), "mine");
    for (const name of ["state.bin.tmp-4242", "blocks.log.tmp-7", "tls-key.pem.tmp-9"]) {
      writeFileSync(join(dir, name), "torn");
    }
    StateDirectory.open(dir).close();
    expect(readdirSync(dir).sort()).toEqual([BLOCK_LOG_FILE, ...own].sort());
  });

  it("names a state directory that is a file, or lies under one", () => {
    const file = join(tempDir(), "a-file");
    writeFileSync(file, "not a directory");
    for (const dir of [file, join(file, "state")]) {
      let refusal: unknown;
      try {
        StateDirectory.open(dir);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(DevnetStateError);
      expect((refusal as DevnetStateError).file).toBe(dir);
      expect((refusal as DevnetStateError).message).toContain("it is not a directory");
    }
  });

  it("starts a new chain over a log whose first snapshot was never written", () => {
    const dir = tempDir();
    writeFileSync(join(dir, BLOCK_LOG_FILE), "leftover");
    const store = StateDirectory.open(dir);
    expect(store.resumed).toBeUndefined();
    const app = createChainApp({ profile: "local", genesisTime: GENESIS_TIME });
    store.persist(app);
    store.close();
    expect(resume(dir).app.latestBlock()).toEqual(app.latestBlock());
  });
});

describe("startDevnet with a state directory", () => {
  it("keeps balances, sequences, blocks and old txs across a restart, and refuses another profile", async () => {
    const dir = tempDir();
    const first = await startDevnet({ ports: "free", blockTimeMs: 0, stateDir: dir });
    const before = bankBalance(first.app, BOB);
    const tx = await signTx({
      mnemonic: ALICE.mnemonic,
      chainId: first.chainId,
      accountNumber: 0n,
      sequence: 0n,
      msgs: [
        msg(
          cosmosBank.MsgSendSchema,
          create(cosmosBank.MsgSendSchema, {
            fromAddress: ALICE.address,
            toAddress: BOB,
            amount: [{ $typeName: "cosmos.base.v1beta1.Coin", denom: "uusdc", amount: "777" }],
          }),
        ),
      ],
    });
    expect(first.app.checkTx(tx).code).toBe(0);
    const [txBlock] = first.mine(1);
    expect(txBlock?.txResults[0]?.code).toBe(0);
    first.mine(3);
    // What a kill -9 right now would leave: the files as they are, while the devnet still runs.
    const killed = tempDir();
    cpSync(dir, killed, { recursive: true });
    // A killed devnet's lock names a pid that is gone.
    writeFileSync(
      join(killed, LOCK_FILE),
      JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: "x" }),
    );
    const latest = first.app.latestBlock();
    await first.stop();

    for (const from of [killed, dir]) {
      const second = await startDevnet({ ports: "free", blockTimeMs: 0, stateDir: from });
      try {
        expect(second.app.latestBlock()).toEqual(latest);
        expect(bankBalance(second.app, BOB)).toBe(before + 777n);
        expect(accountInfo(second.app, ALICE.address).sequence).toBe(1n);
        expect(second.app.block(txBlock!.height)?.hash).toEqual(txBlock!.hash);
        expect(second.app.tx(sha256(tx))?.height).toBe(txBlock!.height);
        expect(second.app.searchTxs(`message.sender='${ALICE.address}'`, "asc")).toHaveLength(1);
        expect(second.mine(1)[0]?.height).toBe(latest.height + 1n);
      } finally {
        await second.stop();
      }
    }

    const refused = await startDevnet({
      ports: "free",
      blockTimeMs: 0,
      stateDir: dir,
      profile: "testnet",
    }).then(
      (devnet) => devnet.stop().then(() => undefined),
      (error: unknown) => error,
    );
    expect(isDevnetStateError(refused)).toBe(true);
    expect((refused as DevnetStateError).message).toMatch(/profile "local", not "testnet"/);
  }, 60_000);
});
