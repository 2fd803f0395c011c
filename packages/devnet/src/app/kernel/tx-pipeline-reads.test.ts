/** The pending state's reads ahead of CheckTx see what a CheckTx context sees. */
import { describe, expect, it } from "vitest";
import { ALICE, BOB, genesisSigners, newApp, send } from "../../../test/support/app-harness.js";
import { accAddressBytes } from "../lib/addresses.js";
import type { ChainCore } from "./chain-core.js";
import { TxPipeline } from "./tx-pipeline.js";

describe("pendingReads", () => {
  it("reads the pending state as checkContext does, through CheckTx's writes and a commit", async () => {
    const { alice } = await genesisSigners();
    const app = newApp();
    // A second pipeline over the app's chain core (the app's own is not exposed).
    const core = (app as unknown as { core: ChainCore }).core;
    const pipeline = new TxPipeline(core);
    const { auth } = core.set.keepers;
    const address = accAddressBytes(ALICE);
    const both = () => [
      auth.getAccount(pipeline.pendingReads(), address),
      auth.getAccount(pipeline.checkContext(), address),
    ];
    const [before, beforeInContext] = both();
    expect(before).toEqual(beforeInContext);
    expect(before?.sequence).toBe(0n);
    const tx = await alice.sign({ msgs: [send(ALICE, BOB, 1000n)], sequence: 0n, accountNumber: 0n });
    expect(pipeline.checkTx(tx).code).toBe(0);
    const [checked, checkedInContext] = both();
    expect(checked).toEqual(checkedInContext);
    expect(checked?.sequence).toBe(1n);
    pipeline.committed([]);
    const [fresh, freshInContext] = both();
    expect(fresh).toEqual(freshInContext);
    expect(fresh?.sequence).toBe(0n);
  });
});
