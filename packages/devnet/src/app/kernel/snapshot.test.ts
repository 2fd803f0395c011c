import { beforeAll, describe, expect, it } from "vitest";
import {
  ALICE,
  BOB,
  CARL,
  GENESIS_TIME,
  genesisSigners,
  newApp,
  type Signer,
  send,
} from "../../../test/support/app-harness.js";
import { bankBalance } from "../../../test/support/app-query.js";
import { chainState } from "../../../test/support/chain-state.js";
import { createChainApp } from "../app.js";
import type { PersistentChainApp } from "../contract.js";

let alice: Signer;

beforeAll(async () => {
  ({ alice } = await genesisSigners());
});

describe("state", () => {
  async function script(app: PersistentChainApp, from: bigint) {
    for (let sequence = from; sequence < from + 3n; sequence++) {
      app.checkTx(
        await alice.sign({ msgs: [send(ALICE, BOB, 100n + sequence)], sequence, accountNumber: 0n }),
      );
      app.produceBlock(new Date(GENESIS_TIME.getTime() + Number(sequence + 1n) * 1000));
    }
  }

  it("two apps fed the same calls produce the same blocks, app hashes and state bytes", async () => {
    const a = newApp();
    const b = newApp();
    await script(a, 0n);
    await script(b, 0n);
    expect(a.latestBlock().hash).toEqual(b.latestBlock().hash);
    expect(a.latestBlock().appHash).toEqual(b.latestBlock().appHash);
    expect(chainState(a)).toEqual(chainState(b));
    expect(a.latestBlock().appHash).not.toEqual(a.block(2n)?.appHash);
  });

  it("export/restore yields identical state and continues identically", async () => {
    const a = newApp();
    await script(a, 0n);
    a.control.fund(CARL, [{ denom: "aperpx", amount: 5n }]);
    a.control.advanceTime(60_000);
    const state = chainState(a);
    const b = createChainApp({ profile: "local", genesisTime: new Date(0), state });
    expect(chainState(b)).toEqual(state);
    expect(b.latestBlock()).toEqual(a.latestBlock());
    expect(b.genesisJson()).toEqual(a.genesisJson());
    expect(bankBalance(b, BOB)).toBe(bankBalance(a, BOB));
    expect(b.searchTxs(`message.sender='${ALICE}'`, "asc")).toHaveLength(3);
    await script(a, 3n);
    await script(b, 3n);
    expect(b.latestBlock().hash).toEqual(a.latestBlock().hash);
    expect(chainState(b)).toEqual(chainState(a));
    expect(() => createChainApp({ profile: "testnet", genesisTime: new Date(0), state })).toThrow(/profile/);
  });

  it("exports each block on its own, and a snapshot whose size does not grow with the chain", () => {
    const a = newApp();
    expect(a.exportBlock(0n)).toBeUndefined();
    expect(a.exportBlock(2n)).toBeUndefined();
    const first = a.exportSnapshot().length;
    for (let i = 1; i <= 50; i++) a.produceBlock(new Date(GENESIS_TIME.getTime() + i * 1000));
    // Empty blocks change a few fixed-size values (oracle prices, the clock), never add entries.
    expect(a.exportSnapshot().length).toBeLessThan(first + 200);
    expect(chainState(a).blocks).toHaveLength(51);
  });

  it("refuses a snapshot paired with the wrong blocks", async () => {
    const a = newApp();
    await script(a, 0n);
    const state = chainState(a);
    const resume = (blocks: Uint8Array[]) =>
      createChainApp({
        profile: "local",
        genesisTime: new Date(0),
        state: { snapshot: state.snapshot, blocks },
      });
    expect(() => resume(state.blocks.slice(0, -1))).toThrow(/follows 4 blocks, but 3/);
    expect(() => resume([state.blocks[0]!, state.blocks[2]!, state.blocks[1]!, state.blocks[3]!])).toThrow(
      /height 3, not 2/,
    );
    expect(() =>
      createChainApp({
        profile: "local",
        genesisTime: new Date(0),
        state: { snapshot: state.blocks[0]!, blocks: [] },
      }),
    ).toThrow(/not a perpx devnet snapshot/);
  });
});
