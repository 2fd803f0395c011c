/** The committed state's kept versions: a query at a recent height reads the state that block left. */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { cosmosBank } from "@perpx/proto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ALICE,
  BOB,
  GENESIS_TIME,
  genesisSigners,
  nextBlock,
  run,
  type Signer,
  send,
} from "../../../test/support/app-harness.js";
import { bankBalance } from "../../../test/support/app-query.js";
import { createChainApp } from "../app.js";
import type { QueryResult } from "../contract.js";
import { StateVersions } from "./state-versions.js";
import { type KvStore, RootStore } from "./store.js";

const bytes = (n: number) => new Uint8Array([n & 0xff, (n >> 8) & 0xff]);
const number = (v: Uint8Array) => (v[0] as number) | ((v[1] as number) << 8);
const contents = (store: KvStore) => [...store.entries("")].map(([k, v]) => [k, number(v)] as const);

type Op = { key: string; value: number | null };
const opArb: fc.Arbitrary<Op> = fc.record({
  key: fc.stringMatching(/^[a-c]{1,2}$/),
  value: fc.option(fc.integer({ min: 0, max: 65535 })),
});

describe("state versions", () => {
  it("property: every kept version reads and iterates as the state its commit left, amended by control", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ block: fc.array(opArb, { maxLength: 6 }), control: fc.array(opArb, { maxLength: 3 }) }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 8 }),
        (blocks, keep, compactFrom) => {
          const versions = new StateVersions(keep, compactFrom);
          const root = new RootStore((key) => key === "vol");
          root.track(versions);
          const write = (ops: readonly Op[]) => {
            for (const { key, value } of ops) value === null ? root.delete(key) : root.set(key, bytes(value));
          };
          const seen: [string, number][][] = [];
          blocks.forEach(({ block, control }, i) => {
            versions.amendLatest();
            write(block);
            root.set("vol", bytes(i));
            versions.commit(BigInt(i + 1));
            // Control operations between blocks amend the latest version.
            write(control);
            seen.push(contents(root).filter(([k]) => k !== "vol") as [string, number][]);
          });
          const latest = blocks.length;
          const oldest = keep === 0 ? 1 : Math.max(1, latest - keep + 1);
          expect(versions.oldest()).toBe(BigInt(oldest));
          for (let height = 1; height <= latest; height++) {
            const view = versions.at(root, BigInt(height));
            if (height < oldest) {
              expect(view).toBeUndefined();
              continue;
            }
            expect(view).toBeDefined();
            const state = view as KvStore;
            // Volatile keys are a node's memory: the current value at every version.
            expect(state.get("vol")).toEqual(bytes(latest - 1));
            expect(contents(state).filter(([k]) => k !== "vol")).toEqual(seen[height - 1]);
            for (const [key, value] of seen[height - 1] as [string, number][]) {
              expect(state.get(key)).toEqual(bytes(value));
            }
            expect([...state.entries("", { reverse: true })].map(([k]) => k)).toEqual(
              contents(state)
                .map(([k]) => k)
                .reverse(),
            );
          }
          expect(versions.at(root, BigInt(latest + 1))).toBeUndefined();
        },
      ),
    );
  });

  it("a cached view follows a write made after it was built", () => {
    const versions = new StateVersions(10);
    const root = new RootStore();
    root.track(versions);
    root.set("k", bytes(1));
    versions.commit(1n);
    versions.amendLatest();
    root.set("k", bytes(2));
    versions.commit(2n);
    expect(versions.at(root, 2n)?.get("k")).toEqual(bytes(2));
    root.set("k", bytes(3));
    expect(versions.at(root, 2n)?.get("k")).toEqual(bytes(3));
    expect(versions.at(root, 1n)?.get("k")).toEqual(bytes(1));
    versions.reset(2n);
    expect(versions.at(root, 1n)).toBeUndefined();
    expect(versions.at(root, 2n)?.get("k")).toEqual(bytes(3));
  });
});

describe("queries at a height", () => {
  let alice: Signer;
  beforeAll(async () => {
    ({ alice } = await genesisSigners());
  });

  it("answer from the state a kept block left, name a pruned or future height, and carry heights as the SDK does", async () => {
    const app = createChainApp({ profile: "local", genesisTime: GENESIS_TIME, pruning: { keepRecent: 3 } });
    const before = bankBalance(app, BOB);
    const sent = await alice.sign({ msgs: [send(ALICE, BOB, 1_000n)], sequence: 0n, accountNumber: 0n });
    expect(run(app, sent).deliver?.code).toBe(0);
    const request = toBinary(
      cosmosBank.QueryBalanceRequestSchema,
      create(cosmosBank.QueryBalanceRequestSchema, { address: BOB, denom: "uusdc" }),
    );
    const balanceAt = (height: bigint) => app.query("/cosmos.bank.v1beta1.Query/Balance", request, height);
    const amount = (answer: QueryResult) =>
      BigInt(fromBinary(cosmosBank.QueryBalanceResponseSchema, answer.value).balance?.amount ?? "0");
    expect(app.latestBlock().height).toBe(2n);
    const atGenesis = balanceAt(1n);
    expect(atGenesis.code).toBe(0);
    expect(atGenesis.height).toBe(1n);
    expect(amount(atGenesis)).toBe(before);
    expect(amount(balanceAt(2n))).toBe(before + 1_000n);
    expect(amount(balanceAt(0n))).toBe(before + 1_000n);
    // A control operation (the faucet) amends the latest version, before and after the next block.
    app.control.fund(BOB, [{ denom: "uusdc", amount: 5n }]);
    expect(amount(balanceAt(2n))).toBe(before + 1_005n);
    nextBlock(app);
    nextBlock(app);
    // keepRecent 3: heights 2, 3 and 4 are kept; 1 is pruned.
    expect(amount(balanceAt(2n))).toBe(before + 1_005n);
    const pruned = balanceAt(1n);
    expect(pruned.code).toBe(18);
    expect(pruned.codespace).toBe("sdk");
    expect(pruned.log).toBe(
      "failed to load state at height 1; version does not exist (latest height: 4): invalid request",
    );
    const future = balanceAt(5n);
    expect(future.code).toBe(26);
    expect(future.log).toBe(
      "cannot query with height in the future; please provide a valid height: invalid height",
    );
    // Heights as baseapp answers them: a refusal before any handler ran carries none (0); a
    // handler's own error carries the height asked, or the latest when none was.
    expect([pruned.height, future.height]).toEqual([0n, 0n]);
    expect(app.query("/cosmos.bank.v1beta1.Query/Nope", request, 2n)).toMatchObject({ code: 6, height: 0n });
    const badAddress = toBinary(
      cosmosBank.QueryBalanceRequestSchema,
      create(cosmosBank.QueryBalanceRequestSchema, { address: "nope", denom: "uusdc" }),
    );
    const handlerError = app.query("/cosmos.bank.v1beta1.Query/Balance", badAddress, 3n);
    expect(handlerError.code).not.toBe(0);
    expect(handlerError.height).toBe(3n);
    expect(app.query("/cosmos.bank.v1beta1.Query/Balance", badAddress).height).toBe(4n);
  });
});
