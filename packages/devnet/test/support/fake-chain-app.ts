/**
 * TEST DOUBLE. A tiny hand-written `PersistentChainApp` for unit-testing the servers before (and
 * independently of) the real chain application. It is not a chain: "txs" are arbitrary bytes, a tx
 * whose first byte is 0xff fails CheckTx with code 4, and one whose first byte is 0xfe fails in the
 * block with code 5. Never shipped (lives under test/).
 */
import { createHash } from "node:crypto";
import type {
  AbciEvent,
  BlockListener,
  BlockRecord,
  ChainInfo,
  ChainState,
  IndexedTx,
  PersistentChainApp,
  QueryResult,
  SimulateResult,
  TxResult,
} from "../../src/app/contract.js";

const sha256 = (...parts: Array<Uint8Array | string>): Uint8Array => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

function ok(events: AbciEvent[] = []): TxResult {
  return {
    code: 0,
    codespace: "",
    log: "",
    info: "",
    data: new Uint8Array([1, 2]),
    gasWanted: 200000n,
    gasUsed: 50000n,
    events,
  };
}

function fail(code: number, log: string): TxResult {
  return {
    code,
    codespace: "sdk",
    log,
    info: "",
    data: new Uint8Array(),
    gasWanted: 200000n,
    gasUsed: 1000n,
    events: [],
  };
}

export interface FakeChainApp extends PersistentChainApp {
  readonly funded: Array<{ address: string; coins: Array<{ denom: string; amount: bigint }> }>;
  /** Every `fundSubaccount` call. */
  readonly fundedSubaccounts: Array<{ owner: string; number: number; quantums: bigint }>;
  readonly queries: Array<{ path: string; data: Uint8Array; height: bigint | undefined }>;
  advancedMs: number;
  /** Answers of `query` by path (defaults to code 6 unknown path). */
  readonly answers: Map<string, (data: Uint8Array) => QueryResult>;
}

export function createFakeChainApp(options: { genesisTime?: Date; state?: ChainState } = {}): FakeChainApp {
  const info: ChainInfo = {
    chainId: "perpx-local-1",
    evmChainId: 31337,
    appVersion: "v0.0.0-fake",
    cometVersion: "0.38.17",
    nodeId: sha256("node").subarray(0, 20),
    moniker: "fake",
    upgrades: new Map([["v1.0", 1n]]),
    initialHeight: 1n,
    minimumGasPrices: "0.025uusdc,25000000000aperpx",
    validator: {
      address: sha256("val").subarray(0, 20),
      pubKey: sha256("valpk"),
      votingPower: 10n,
      operatorAddress: "perpxvaloper1fake",
      moniker: "fake",
    },
  };
  const blocks: BlockRecord[] = [];
  const txIndex = new Map<string, IndexedTx>();
  let pending: Uint8Array[] = [];
  const listeners = new Set<BlockListener>();
  const funded: FakeChainApp["funded"] = [];
  const fundedSubaccounts: FakeChainApp["fundedSubaccounts"] = [];
  const queries: FakeChainApp["queries"] = [];
  const balances = new Map<string, bigint>();

  const makeBlock = (time: Date, txs: Uint8Array[]): BlockRecord => {
    const height = BigInt(blocks.length + 1);
    const last = blocks.at(-1);
    const txResults = txs.map((tx) =>
      tx[0] === 0xfe
        ? fail(5, "insufficient funds")
        : ok([
            { type: "message", attributes: [{ key: "sender", value: "perpx1sender", index: true }] },
            { type: "transfer", attributes: [{ key: "amount", value: `${tx.length}uusdc`, index: true }] },
          ]),
    );
    const block: BlockRecord = {
      height,
      time,
      timeNanos: (time.getTime() % 1000) * 1_000_000 + 123,
      hash: sha256("block", String(height), time.toISOString()),
      lastBlockHash: last?.hash ?? new Uint8Array(),
      appHash: sha256("app", String(height)),
      dataHash: sha256("data", ...txs),
      lastResultsHash: sha256("results"),
      validatorsHash: sha256("validators"),
      proposerAddress: info.validator.address,
      txs,
      txResults,
      finalizeBlockEvents: [
        { type: "coin_spent", attributes: [{ key: "spender", value: "perpx1fee", index: true }] },
      ],
    };
    blocks.push(block);
    txs.forEach((tx, index) => {
      const hash = sha256(tx);
      txIndex.set(hex(hash), { hash, height, index, tx, result: txResults[index]! });
    });
    return block;
  };

  const fromJson = <T>(bytes: Uint8Array): T => JSON.parse(Buffer.from(bytes).toString("utf8")) as T;
  const toJson = (value: unknown): Uint8Array => new Uint8Array(Buffer.from(JSON.stringify(value)));
  if (options.state !== undefined) {
    for (const chunk of options.state.blocks) {
      const b = fromJson<{ time: string; txs: string[] }>(chunk);
      makeBlock(
        new Date(b.time),
        b.txs.map((t) => new Uint8Array(Buffer.from(t, "base64"))),
      );
    }
    for (const [k, v] of fromJson<Array<[string, string]>>(options.state.snapshot))
      balances.set(k, BigInt(v));
  } else {
    makeBlock(options.genesisTime ?? new Date("2026-01-01T00:00:00Z"), []);
  }

  const app: FakeChainApp = {
    info,
    funded,
    fundedSubaccounts,
    queries,
    advancedMs: 0,
    answers: new Map(),
    genesisJson: () => ({
      genesis_time: "2026-01-01T00:00:00Z",
      chain_id: info.chainId,
      initial_height: "1",
      consensus_params: {
        block: { max_bytes: "22020096", max_gas: "-1" },
        evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
      },
      validators: [
        {
          address: hex(info.validator.address),
          pub_key: {
            type: "tendermint/PubKeyEd25519",
            value: Buffer.from(info.validator.pubKey).toString("base64"),
          },
          power: "10",
          name: "fake",
        },
      ],
      app_hash: "",
      app_state: {},
    }),
    latestBlock: () => blocks.at(-1)!,
    block: (height) => blocks[Number(height) - 1],
    baseHeight: () => 1n,
    tx: (hash) => txIndex.get(hex(hash)),
    searchTxs: (query, order) => {
      let list = [...txIndex.values()];
      const byHash = /tx\.hash\s*=\s*'([0-9A-Fa-f]+)'/.exec(query);
      const byHeight = /tx\.height\s*=\s*(\d+)/.exec(query);
      if (byHash) list = list.filter((t) => hex(t.hash) === byHash[1]!.toUpperCase());
      if (byHeight) list = list.filter((t) => t.height === BigInt(byHeight[1]!));
      if (!byHash && !byHeight && !/message\.sender/.test(query))
        throw new Error(`unsupported query ${query}`);
      list.sort((a, b) => Number(a.height - b.height) || a.index - b.index);
      return order === "desc" ? list.reverse() : list;
    },
    checkTx: (tx) => {
      if (tx.length === 0) return fail(2, "tx parse error");
      if (tx[0] === 0xff) return fail(4, "signature verification failed: unauthorized");
      pending.push(tx);
      return ok();
    },
    pendingTxCount: () => pending.length,
    query: (path, data, height) => {
      queries.push({ path, data, height });
      const answer = app.answers.get(path);
      const latest = blocks.at(-1)!.height;
      if (answer !== undefined) return { ...answer(data), height: height ?? latest };
      return {
        code: 6,
        codespace: "sdk",
        log: `unknown query path ${path}: unknown request`,
        value: new Uint8Array(),
        height: 0n,
      };
    },
    simulate: (tx): SimulateResult => {
      if (tx.length === 0) return { ok: false, result: fail(2, "tx parse error") };
      return { ok: true, gasWanted: 0n, gasUsed: 60000n, result: ok() };
    },
    produceBlock: (time) => {
      const txs = pending;
      pending = [];
      // As the contract asks: shifted by advanced time, and always after the latest block.
      const wanted = time.getTime() + app.advancedMs;
      const floor = blocks.at(-1)!.time.getTime() + 1;
      const block = makeBlock(new Date(Math.max(wanted, floor)), txs);
      const committedAt = performance.timeOrigin + performance.now();
      for (const l of listeners) l(block, committedAt);
      return block;
    },
    onBlock: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // The fake has no order book, so its order stream never speaks.
    onOrderStream: () => () => undefined,
    control: {
      fund: (address, coins) => {
        funded.push({ address, coins: coins.map((c) => ({ ...c })) });
        for (const c of coins)
          balances.set(`${address}/${c.denom}`, (balances.get(`${address}/${c.denom}`) ?? 0n) + c.amount);
      },
      advanceTime: (ms) => {
        app.advancedMs += ms;
      },
      advanceTimeTo: () => {
        throw new Error("the fake chain has no block clock to move to a time");
      },
      submitProposal: () => {
        throw new Error("the fake chain has no governance");
      },
      proposal: () => undefined,
      moduleControl: (module, operation) => {
        throw new Error(`the fake chain has no control operation ${module}/${operation}`);
      },
      setOraclePrice: () => {
        throw new Error("the fake chain has no oracle");
      },
      setOracleWalk: () => {
        throw new Error("the fake chain has no oracle");
      },
      fundSubaccount: (owner, number, quantums) => {
        fundedSubaccounts.push({ owner, number, quantums });
      },
    },
    exportSnapshot: () => toJson([...balances].map(([k, v]) => [k, v.toString()])),
    exportBlock: (height) => {
      const b = blocks[Number(height) - 1];
      if (b === undefined) return undefined;
      return toJson({ time: b.time.toISOString(), txs: b.txs.map((t) => Buffer.from(t).toString("base64")) });
    },
  };
  return app;
}
