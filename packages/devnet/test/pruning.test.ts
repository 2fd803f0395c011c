/**
 * Pruning: the devnet keeps its latest `keepRecent` blocks (and their txs) in memory. Without a
 * state directory older heights answer as a pruned CometBFT node; with one, they are read back from
 * the block log (also after a restart).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { sha256 } from "@noble/hashes/sha2.js";
import { cosmosBank } from "@perpx/proto";
import { afterAll, describe, expect, it } from "vitest";
import { GENESIS_ACCOUNTS } from "../src/app/genesis/genesis-accounts.js";
import { startDevnet } from "../src/devnet.js";
import type { Devnet } from "../src/devnet-options.js";
import { toHexUpper } from "../src/servers/encoding.js";
import type { Loose } from "./support/loose.js";
import { msg, signTx } from "./support/sign-tx.js";

const ALICE = GENESIS_ACCOUNTS[0]!;
const BOB = GENESIS_ACCOUNTS[1]!.address;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function sendTx(devnet: Devnet, sequence: bigint, amount: string): Promise<Uint8Array> {
  return signTx({
    mnemonic: ALICE.mnemonic,
    chainId: devnet.chainId,
    accountNumber: 0n,
    sequence,
    msgs: [
      msg(
        cosmosBank.MsgSendSchema,
        create(cosmosBank.MsgSendSchema, {
          fromAddress: ALICE.address,
          toAddress: BOB,
          amount: [{ $typeName: "cosmos.base.v1beta1.Coin", denom: "uusdc", amount }],
        }),
      ),
    ],
  });
}

/** Mines `blocks` blocks, each with one transfer of a distinct amount; returns the txs' hashes by height. */
async function transfers(devnet: Devnet, blocks: number): Promise<Map<bigint, Uint8Array>> {
  const hashes = new Map<bigint, Uint8Array>();
  for (let i = 0; i < blocks; i++) {
    const tx = await sendTx(devnet, BigInt(i), String(1000 + i));
    expect(devnet.app.checkTx(tx).code).toBe(0);
    const [block] = devnet.mine(1);
    hashes.set(block!.height, sha256(tx));
  }
  return hashes;
}

async function rpc(devnet: Devnet, method: string, params: Record<string, unknown>) {
  const res = await fetch(devnet.endpoints.nodeRpc, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await res.json()) as {
    result?: Loose;
    error?: { code: number; message: string; data: string };
  };
}

describe("pruning", () => {
  it("without a state directory: old heights answer as a pruned CometBFT node, their txs are gone", async () => {
    const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, pruning: { keepRecent: 4 } });
    try {
      const hashes = await transfers(devnet, 9); // heights 2..10
      expect(devnet.app.latestBlock().height).toBe(10n);
      expect(devnet.app.baseHeight()).toBe(7n);

      expect(await rpc(devnet, "block", { height: "3" })).toMatchObject({
        error: {
          code: -32603,
          message: "Internal error",
          data: "height 3 is not available, lowest height is 7",
        },
      });
      expect(await rpc(devnet, "block_results", { height: "6" })).toMatchObject({
        error: { data: "height 6 is not available, lowest height is 7" },
      });
      const kept = await rpc(devnet, "block", { height: "7" });
      expect(kept.result?.block.header.height).toBe("7");
      const status = await rpc(devnet, "status", {});
      expect(status.result?.sync_info.earliest_block_height).toBe("7");
      const chain = await rpc(devnet, "blockchain", { minHeight: "1", maxHeight: "10" });
      expect(chain.result?.block_metas.map((m: { header: { height: string } }) => m.header.height)).toEqual([
        "10",
        "9",
        "8",
        "7",
      ]);

      // Txs of kept blocks are found by hash and search; those of pruned blocks are not.
      expect(devnet.app.tx(hashes.get(8n)!)?.height).toBe(8n);
      expect(devnet.app.tx(hashes.get(5n)!)).toBeUndefined();
      const found = await rpc(devnet, "tx_search", {
        query: `message.sender='${ALICE.address}'`,
        per_page: "100",
      });
      expect(found.result?.txs.map((t: { height: string }) => t.height)).toEqual(["7", "8", "9", "10"]);
      expect(devnet.app.searchTxs("transfer.amount='1003uusdc'", "asc")).toEqual([]);
      expect(devnet.app.searchTxs("transfer.amount='1006uusdc'", "asc")).toHaveLength(1);
      expect(
        (await rpc(devnet, "tx", { hash: Buffer.from(hashes.get(9n)!).toString("base64") })).result?.height,
      ).toBe("9");
    } finally {
      await devnet.stop();
    }
  }, 30_000);

  it("with a state directory: pruned blocks are read back from the block log, also after a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "perpx-devnet-pruning-"));
    dirs.push(dir);
    const first = await startDevnet({
      ports: "free",
      blockTimeMs: 0,
      stateDir: dir,
      pruning: { keepRecent: 3 },
    });
    const blocks = new Map<bigint, string>();
    const unsubscribe = first.app.onBlock((b) => blocks.set(b.height, toHexUpper(b.hash)));
    await transfers(first, 8); // heights 2..9
    unsubscribe();
    expect(first.app.baseHeight()).toBe(1n);
    for (const [height, hash] of blocks) expect(toHexUpper(first.app.block(height)!.hash)).toBe(hash);
    const old = await rpc(first, "block_results", { height: "3" });
    // The proposed-operations tx at the head of the block, then the transfer.
    expect(old.result?.txs_results).toHaveLength(2);
    await first.stop();

    const second = await startDevnet({
      ports: "free",
      blockTimeMs: 0,
      stateDir: dir,
      pruning: { keepRecent: 3 },
    });
    try {
      expect(second.app.latestBlock().height).toBe(9n);
      for (const [height, hash] of blocks) expect(toHexUpper(second.app.block(height)!.hash)).toBe(hash);
      const block = await rpc(second, "block", { height: "2" });
      expect(block.result?.block_id.hash).toBe(blocks.get(2n));
      expect(second.mine(1)[0]?.height).toBe(10n);
      expect(toHexUpper(second.app.block(4n)!.hash)).toBe(blocks.get(4n));
    } finally {
      await second.stop();
    }
  }, 30_000);
});
