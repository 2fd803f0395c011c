/**
 * Blocks by height over RPC against the devnet: the header and decoded txs of `block`, the codes of
 * `block_results` (a failed tx shows its codespace and log), and the headers of `blockchain`.
 */
import { isInvalidArgumentError } from "@perpx/errors";
import { describe, expect, it, vi } from "vitest";
import { createNodeClient, isQueryError } from "../src/index.js";
import { queryActions } from "../src/queries.js";
import { useDevnet } from "./support.js";

const net = useDevnet();

describe("blocks over RPC", () => {
  it("reads a block with its txs, their results and hashes that getTx takes", async () => {
    const [alice, bob] = net.wallets;
    const sent = await net.client.bankSend({
      signer: alice!,
      from: alice!.address,
      to: bob!.address,
      amount: [{ denom: "uusdc", amount: 7n }],
    });
    const height = sent.height!;
    const block = await net.client.getBlock({ height });
    expect(block.header.height).toBe(height);
    expect(block.header.chainId).toBe("perpx-local-1");
    expect(block.header.hash).toMatch(/^[0-9A-F]{64}$/);
    expect(block.header.txCount).toBe(block.txs.length);
    const index = block.txs.findIndex((t) => t.hash === sent.hash);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(block.txs[index]!.tx?.body?.messages[0]?.typeUrl).toBe("/cosmos.bank.v1beta1.MsgSend");
    const results = await net.client.getBlockResults({ height });
    expect(results).toHaveLength(block.txs.length);
    const viaTx = await net.client.getTx({ hash: sent.hash, transport: "rpc" });
    expect(results[index]).toMatchObject({ code: 0, gasUsed: viaTx!.gasUsed, gasWanted: viaTx!.gasWanted });
    expect(results[index]!.events.map((e) => e.type)).toEqual(viaTx!.events.map((e) => e.type));
    const previous = await net.client.getBlock({ height: height - 1n });
    expect(block.header.lastBlockHash).toBe(previous.header.hash);
  });

  it("lists the latest headers newest first, and the latest block without a height", async () => {
    const latest = await net.client.getBlock();
    await vi.waitFor(async () => {
      expect((await net.client.getLatestBlock()).height).toBeGreaterThan(latest.header.height + 3n);
    });
    const headers = await net.client.getBlockHeaders({ maxHeight: latest.header.height, count: 3 });
    expect(headers.map((h) => h.height)).toEqual([
      latest.header.height,
      latest.header.height - 1n,
      latest.header.height - 2n,
    ]);
    expect(headers[0]).toEqual(latest.header);
    expect((await net.client.getBlockHeaders({ count: 1 }))[0]!.height).toBeGreaterThan(latest.header.height);
  });

  it("refuses bad heights before sending, and a future height is a query error", async () => {
    for (const height of [0, -1, 1.5]) {
      const error = await net.client.getBlock({ height }).catch((e: unknown) => e);
      expect(isInvalidArgumentError(error)).toBe(true);
    }
    expect(
      isInvalidArgumentError(await net.client.getBlockHeaders({ count: 21 }).catch((e: unknown) => e)),
    ).toBe(true);
    const future = await net.client.getBlock({ height: 10n ** 12n }).catch((e: unknown) => e);
    expect(isQueryError(future)).toBe(true);
    const noRpc = createNodeClient({ nodeRest: net.devnet.endpoints.nodeRest }).extend(queryActions);
    await expect(noRpc.getBlock()).rejects.toThrow(/rpc/i);
    noRpc.close();
  });
});
