/**
 * Genesis: running every module's genesis over the empty store, and the genesis document the node
 * prints at `/genesis` (consensus parameters, the validator, every module's exported state).
 */

import { MONIKER } from "../genesis/genesis.js";
import { genesisIndexerEvents } from "../indexer-output/indexer-genesis.js";
import { toHex } from "../lib/codec.js";
import { EventManager } from "../lib/events.js";
import { blockInfo, type ChainCore, queryContext, unmeteredContext } from "./chain-core.js";
import type { QueryContext } from "./module.js";
import { CacheStore, type KvStore } from "./store.js";

/** RFC 3339 as CometBFT prints times: UTC, fractional seconds without trailing zeros. */
function formatTime(time: Date, nanos?: number): string {
  const iso = time.toISOString();
  const base = iso.slice(0, 19);
  const fraction = (nanos ?? (time.getTime() % 1000) * 1_000_000)
    .toString()
    .padStart(9, "0")
    .replace(/0+$/, "");
  return fraction === "" ? `${base}Z` : `${base}.${fraction}Z`;
}

/**
 * Runs every module's genesis over the committed store (before the first block) and records the
 * app hash and the genesis document: built on its first read (a start that nobody asks for it
 * skips every module's export), from the state as genesis left it (a frozen view).
 */
export function initGenesis(core: ChainCore): void {
  const branch = new CacheStore(core.root);
  const block = blockInfo(core.config, core.config.initialHeight - 1n, core.config.genesisTime);
  const ctx = unmeteredContext(core, block, new EventManager(), branch);
  for (const module of core.set.modules) module.initGenesis?.(ctx);
  core.pendingIndexerEvents.push(...genesisIndexerEvents(ctx, core.set.keepers));
  branch.write();
  core.lastAppHash = core.root.hash();
  // Held until the document is built, then dropped.
  let state: KvStore | undefined = core.root.frozen();
  const at = { height: block.height, time: block.time };
  let text = "";
  core.genesisDoc = () => {
    if (state !== undefined) {
      text = JSON.stringify(genesisDocument(core, queryContext(core, state, at)));
      state = undefined;
    }
    return text;
  };
}

/** The genesis document of the state `ctx` reads (see the module comment). */
function genesisDocument(core: ChainCore, ctx: QueryContext): unknown {
  const appState: Record<string, unknown> = {};
  for (const module of core.set.modules) {
    if (module.exportGenesis !== undefined) appState[module.name] = module.exportGenesis(ctx);
  }
  const { config } = core;
  const v = config.validator;
  return {
    genesis_time: formatTime(config.genesisTime),
    chain_id: config.chainId,
    initial_height: config.initialHeight.toString(),
    consensus_params: {
      block: { max_bytes: "22020096", max_gas: "-1" },
      evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
      validator: { pub_key_types: ["ed25519"] },
      version: { app: "0" },
      abci: { vote_extensions_enable_height: "0" },
    },
    validators: [
      {
        address: toHex(v.address).toUpperCase(),
        pub_key: { type: "tendermint/PubKeyEd25519", value: Buffer.from(v.publicKey).toString("base64") },
        power: config.validatorPower.toString(),
        name: MONIKER,
      },
    ],
    app_hash: "",
    app_state: appState,
  };
}
