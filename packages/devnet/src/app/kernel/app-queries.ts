/**
 * ABCI queries: a gRPC method path routed to its module's query handler over the committed state
 * at the latest height or one of the kept versions before it, or `/app/simulate`. Errors come back as codes, as the SDK answers them.
 */

import type { QueryResult, SimulateResult, TxResult } from "../contract.js";
import { utf8 } from "../lib/codec.js";
import { AbciError, abciError, sdkErrors, toAbciError } from "../lib/errors.js";
import { type ChainCore, queryContext } from "./chain-core.js";
import type { StateVersions } from "./state-versions.js";
import type { KvStore } from "./store.js";

const EMPTY = new Uint8Array(0);

/** `SimulationResponse` as the SDK's `/app/simulate` prints it (proto JSON). */
function simulationJson(gasWanted: bigint, gasUsed: bigint, result: TxResult): unknown {
  return {
    gas_info: { gas_wanted: gasWanted.toString(), gas_used: gasUsed.toString() },
    result: {
      data: Buffer.from(result.data).toString("base64"),
      log: result.log,
      events: result.events.map((e) => ({
        type: e.type,
        attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index })),
      })),
      msg_responses: [],
    },
  };
}

/** An error answer as the SDK's `QueryResult(err)` builds it: no height. */
function refusal(error: unknown): QueryResult {
  const e = toAbciError(error);
  return { code: e.abciCode, codespace: e.codespace, log: e.log, value: EMPTY, height: 0n };
}

/**
 * Answers an ABCI query (see {@link ChainApp.query}) over the state at `height` (the latest when 0
 * or absent), if that version is still kept (see {@link StateVersions}).
 *
 * Heights in the answer follow baseapp: a handler's answer, success or error, carries the height
 * asked (the latest for 0); a refusal before any handler runs (unknown path, a pruned or future
 * height, a failed simulation) carries 0. `/app/simulate` runs on the CheckTx state whatever the
 * height, as baseapp's `handleQueryApp` does.
 *
 * @param simulate simulates tx bytes, for `/app/simulate`.
 */
export function answerQuery(
  core: ChainCore,
  simulate: (tx: Uint8Array) => SimulateResult,
  path: string,
  data: Uint8Array,
  height?: bigint,
): QueryResult {
  const latest = core.blocks.latest().height;
  const at = height === undefined || height === 0n ? latest : height;
  if (path === "/app/simulate") {
    let sim: SimulateResult;
    try {
      sim = simulate(data);
    } catch (error) {
      return refusal(error);
    }
    if (!sim.ok) {
      const { code, codespace, log } = sim.result;
      return refusal(new AbciError({ code, codespace, description: "" }, `failed to simulate tx: ${log}`));
    }
    const value = utf8(JSON.stringify(simulationJson(sim.gasWanted, sim.gasUsed, sim.result)));
    return { code: 0, codespace: "", log: "", value, height: at };
  }
  const handler = core.set.router.query(path);
  if (handler === undefined) return refusal(abciError(sdkErrors.unknownRequest, "unknown query path"));
  let state: KvStore = core.root;
  let block = core.blocks.last();
  if (at !== latest) {
    if (at > latest) {
      return refusal(
        abciError(
          sdkErrors.invalidHeight,
          "cannot query with height in the future; please provide a valid height",
        ),
      );
    }
    block = core.blocks.at(at);
    const version = block === undefined ? undefined : core.versions.at(core.root, at);
    if (version === undefined) {
      return refusal(
        abciError(
          sdkErrors.invalidRequest,
          `failed to load state at height ${at}; version does not exist (latest height: ${latest})`,
        ),
      );
    }
    state = version;
  }
  try {
    return {
      code: 0,
      codespace: "",
      log: "",
      value: handler(queryContext(core, state, block), data),
      height: at,
    };
  } catch (error) {
    return { ...refusal(error), height: at };
  }
}
