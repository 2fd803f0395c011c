/** The block reuses CheckTx's decoding of the short-term txs its proposed operations carry. */
import { describe, expect, it } from "vitest";
import { CHAIN_ID, GENESIS_TIME } from "../../../test/support/app-harness.js";
import { fundedSigner, signOrderTx } from "../../../test/support/fast-order.js";
import { ChainApplication } from "../app.js";
import { GENESIS_ACCOUNTS } from "../genesis/genesis-accounts.js";
import type { ChainCore } from "./chain-core.js";
import { TxPipeline } from "./tx-pipeline.js";

describe("decodeCarried", () => {
  it("answers CheckTx's decoding of an accepted short-term tx until the next block, then decodes afresh", () => {
    const app = ChainApplication.create({
      profile: "local",
      genesisTime: GENESIS_TIME,
      fundedSubaccounts: 1,
    });
    // The pipeline over the app's chain core (a second pipeline: the app's own is not exposed).
    const pipeline = new TxPipeline((app as unknown as { core: ChainCore }).core);
    const maker = fundedSigner(0, GENESIS_ACCOUNTS.length);
    const goodTilBlock = Number(app.latestBlock().height) + 10;
    const order = { quantums: 1_000_000n, subticks: 6_500_000_000n, goodTilBlock };
    const tx = signOrderTx(maker, CHAIN_ID, { ...order, owner: maker.address, clientId: 1, side: "sell" });
    expect(pipeline.checkTx(tx).code).toBe(0);
    // The same bytes in another buffer, as a block's operations carry them.
    const carried = pipeline.decodeCarried(tx.slice());
    expect(pipeline.decodeCarried(tx.slice())).toBe(carried);
    expect(carried.bytes).toEqual(tx);
    expect(carried.msgs.map((m) => m.typeUrl)).toEqual(["/perpx.clob.v1.MsgPlaceOrder"]);
    const other = signOrderTx(maker, CHAIN_ID, { ...order, owner: maker.address, clientId: 2, side: "sell" });
    const unchecked = pipeline.decodeCarried(other);
    expect(unchecked.bytes).toEqual(other);
    expect(pipeline.decodeCarried(other)).not.toBe(unchecked);
    pipeline.committed([]);
    const after = pipeline.decodeCarried(tx);
    expect(after).not.toBe(carried);
    expect(after.hash).toEqual(carried.hash);
  });
});
