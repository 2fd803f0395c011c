/**
 * `@perpx/fork`: fork a live perpx network into a local devnet and trade its real prices on paper.
 * {@link startFork} reads the live network at one height through its public APIs (node and
 * indexer), starts a devnet from that state, and shadows the live oracle, book and trades onto it;
 * the `perpx-fork` CLI does the same from a shell.
 *
 * @packageDocumentation
 */
export { type ReadForkStateOptions, readForkState } from "./reader.js";
export {
  type Shadow,
  type ShadowEvent,
  type ShadowOptions,
  type ShadowState,
  type ShadowStatus,
  startShadow,
} from "./shadow.js";
export { type Fork, type StartForkOptions, startFork } from "./start.js";
export { FORK_STATE_FILE } from "./state-file.js";
