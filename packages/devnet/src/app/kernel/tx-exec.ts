/**
 * Running one tx: decoding its bytes, the ante step (fees, sequence, signatures) in a tx branch,
 * then its messages in a message branch that is dropped when one fails (fees and sequence stick,
 * nothing else does), and its {@link TxResult}.
 */
import type { Any } from "@bufbuild/protobuf/wkt";
import type { AbciEvent, TxResult } from "../contract.js";
import type { IndexerEvent } from "../indexer-output/indexer-events.js";
import { abciError, type ErrorKind, sdkErrors, toAbciError } from "../lib/errors.js";
import { DISCARDED_EVENTS, EventManager, event, moduleNameOfTypeUrl, withAttribute } from "../lib/events.js";
import { type AnteDeps, runAnte } from "./ante.js";
import type { ChainCore } from "./chain-core.js";
import { createGasMeter, OutOfGasError } from "./gas.js";
import { type BlockInfo, createContext, type ExecMode, type TxPolicy } from "./module.js";
import { CacheStore, type KvStore } from "./store.js";
import { GasStore } from "./store-views.js";
import { type DecodedTx, decodeTx } from "./tx.js";
import { txMsgDataBytes } from "./tx-msg-data.js";

/** Largest tx accepted by CheckTx (CometBFT's default `max_tx_bytes`). */
export const MAX_TX_BYTES = 1_048_576;

const EMPTY = new Uint8Array(0);

/** The result of a tx that failed with `error` (any thrown value) after using `gasUsed`. */
export function txFailure(
  error: unknown,
  gasWanted: bigint,
  gasUsed: bigint,
  events: readonly AbciEvent[],
): TxResult {
  const e = toAbciError(error);
  const log =
    error instanceof OutOfGasError
      ? `${error.message}; gasWanted: ${gasWanted}, gasUsed: ${gasUsed}: out of gas`
      : e.log;
  return {
    code: e.abciCode,
    codespace: e.codespace,
    log,
    info: "",
    data: EMPTY,
    gasWanted,
    gasUsed,
    events: [...events],
  };
}

/**
 * The answer for a tx CometBFT's mempool refuses before CheckTx: `text` is CometBFT's error (what
 * its RPC answers as a JSON-RPC error), and the code is the SDK's for it (`CheckCometError`), with
 * an empty log, no gas and no events, as the SDK's `BroadcastTx` answers.
 */
export function mempoolRefusal(kind: ErrorKind, text: string): TxResult {
  return {
    code: kind.code,
    codespace: kind.codespace,
    log: "",
    info: "",
    data: EMPTY,
    gasWanted: 0n,
    gasUsed: 0n,
    events: [],
    mempoolError: text,
  };
}

/** Decodes tx bytes against the chain's message router, or the failure CheckTx answers. */
export function decodeTxBytes(core: ChainCore, bytes: Uint8Array): DecodedTx | TxResult {
  if (bytes.length > MAX_TX_BYTES) {
    return txFailure(
      abciError(sdkErrors.txTooLarge, `tx size ${bytes.length} > ${MAX_TX_BYTES}`),
      0n,
      0n,
      [],
    );
  }
  try {
    return decodeTx(bytes, core.set.router);
  } catch (error) {
    return txFailure(error, 0n, 0n, []);
  }
}

/** The policies worked out for decoded txs (a policy depends on the messages only). */
const policies = new WeakMap<DecodedTx, TxPolicy>();

/**
 * The ante policy of a tx: the defaults, with its modules' relaxations (see `Module.txPolicy`).
 * Worked out once per decoded tx: CheckTx, its queueing and its delivery ask for it again.
 */
export function txPolicyOf(core: ChainCore, tx: DecodedTx): TxPolicy {
  let policy = policies.get(tx);
  if (policy === undefined) {
    policy = core.set.router.txPolicy(
      tx.msgs.map((m) => m.typeUrl),
      tx.msgs.map((m) => m.msg),
    );
    policies.set(tx, policy);
  }
  return policy;
}

/** The ante deps built for a memo of verified signatures, with what they were built from. */
interface CachedDeps {
  readonly set: ChainCore["set"];
  readonly minGasPrices: ChainCore["config"]["minGasPrices"];
  readonly deps: AnteDeps;
}

const anteDeps = new WeakMap<Set<string>, CachedDeps>();

/**
 * The ante step's deps: the chain's keepers, its minimum gas prices, the memo of `verified`
 * signatures and the modules' signer hook. Built once per memo (rebuilt when the modules or the
 * prices are replaced) instead of once per tx: the object spreads every keeper.
 */
export function anteDepsOf(core: ChainCore, verified: Set<string>): AnteDeps {
  const { set } = core;
  const { minGasPrices } = core.config;
  const cached = anteDeps.get(verified);
  if (cached !== undefined && cached.set === set && cached.minGasPrices === minGasPrices) return cached.deps;
  const { router } = set;
  const deps: AnteDeps = {
    ...set.keepers,
    minGasPrices,
    verified,
    authenticateSigner: (ctx, signer) => router.authenticateSigner(ctx, signer),
  };
  anteDeps.set(verified, { set, minGasPrices, deps });
  return deps;
}

/**
 * Runs a decoded tx over `base` in `mode`. CheckTx runs the ante step only and writes it to
 * `base`, unless the tx's policy has CheckTx run its messages too (clob orders: they are then
 * written to `base` as well, and only the ante step's events are reported); simulation and
 * delivery run the messages, and delivery writes to `base`.
 *
 * @param verified signatures already verified by CheckTx (see `AnteDeps.verified`).
 * @param recheck true when CheckTx runs a queued tx again (the SDK's ReCheckTx).
 */
export function runTx(
  core: ChainCore,
  mode: ExecMode,
  tx: DecodedTx,
  base: KvStore,
  block: BlockInfo,
  verified: Set<string>,
  recheck = false,
): TxResult {
  const { router } = core.set;
  const policy = txPolicyOf(core, tx);
  const meter = createGasMeter(mode === "simulate" || !policy.meterGas ? undefined : tx.gasLimit);
  const gasWanted = tx.gasLimit;
  const txBranch = new CacheStore(base);
  const anteEvents = new EventManager();
  try {
    for (const m of tx.msgs) m.handler.validate?.(m.msg);
    const anteCtx = createContext({
      mode,
      block,
      gasMeter: meter,
      gasConfig: core.gasConfig,
      events: anteEvents,
      kv: txBranch,
      recheck,
    });
    runAnte(anteCtx, tx, policy, anteDepsOf(core, verified));
    router.afterAnte(anteCtx, tx);
  } catch (error) {
    return txFailure(error, gasWanted, meter.consumed, []);
  }
  if (mode === "check" && !policy.checkRunsMessages) {
    txBranch.write();
    return {
      code: 0,
      codespace: "",
      log: "",
      info: "",
      data: EMPTY,
      gasWanted,
      gasUsed: meter.consumed,
      events: [...anteEvents.events],
    };
  }
  // Only delivery keeps the ante step's writes when a message fails, so only delivery needs the
  // messages in a branch of their own; CheckTx and simulation keep or drop the tx branch whole.
  const msgBranch = mode === "deliver" ? new CacheStore(txBranch) : txBranch;
  const metered = new GasStore(msgBranch, meter, core.gasConfig);
  const events: AbciEvent[] = [...anteEvents.events];
  const indexerEvents: IndexerEvent[] = [];
  const responses: Any[] = [];
  try {
    tx.msgs.forEach((m, i) => {
      const msgEvents = mode === "check" ? DISCARDED_EVENTS : new EventManager();
      const ctx = createContext({
        mode,
        block,
        gasMeter: meter,
        gasConfig: core.gasConfig,
        events: msgEvents,
        kv: metered,
        txBytes: tx.bytes,
      });
      let response: Any;
      try {
        response = m.handler.execute(ctx, m.msg);
      } catch (error) {
        if (error instanceof OutOfGasError) throw error;
        // CheckTx runs messages only for clob txs, standing in for the reference chain's clob ante
        // decorator, whose errors the SDK reports as they are (no message index: it is no message).
        if (mode === "check") throw toAbciError(error);
        throw toAbciError(error).wrap(`failed to execute message; message index: ${i}`);
      }
      responses.push(response);
      if (!msgEvents.recording) return;
      const attributes: [string, string][] = [["action", m.typeUrl]];
      const signer = m.signers[0];
      if (signer !== undefined) attributes.push(["sender", signer]);
      attributes.push(["module", moduleNameOfTypeUrl(m.typeUrl)]);
      events.push(
        ...withAttribute([event("message", attributes), ...msgEvents.events], "msg_index", String(i)),
      );
      indexerEvents.push(...msgEvents.indexerEvents);
    });
  } catch (error) {
    if (mode === "deliver") txBranch.write();
    return txFailure(error, gasWanted, meter.consumed, anteEvents.events);
  }
  if (msgBranch !== txBranch) msgBranch.write();
  if (mode !== "simulate") txBranch.write();
  const data = txMsgDataBytes(responses);
  // CheckTx reports the ante step's events only, as the SDK does.
  const reported = mode === "check" ? [...anteEvents.events] : events;
  return {
    code: 0,
    codespace: "",
    log: "",
    info: "",
    data,
    gasWanted,
    gasUsed: meter.consumed,
    events: reported,
    ...(mode === "deliver" && indexerEvents.length > 0 ? { indexerEvents } : {}),
  };
}
