/** Test support: the whole exported state of a chain application, as `createChainApp` takes it back. */
import type { ChainState, PersistentChainApp } from "../../src/app/contract.js";

/** The snapshot of `app` and every block it follows. */
export function chainState(app: PersistentChainApp): ChainState {
  const blocks: Uint8Array[] = [];
  for (let height = app.info.initialHeight; height <= app.latestBlock().height; height++) {
    const block = app.exportBlock(height);
    if (block === undefined) throw new Error(`no block at height ${height}`);
    blocks.push(block);
  }
  return { snapshot: app.exportSnapshot(), blocks };
}
