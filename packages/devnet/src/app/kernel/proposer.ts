/**
 * The block proposer's own tx at the head of every block (CometBFT's PrepareProposal, as the real
 * chain does it): the messages the modules propose (`Module.proposeMessages`: the clob's
 * `MsgProposedOperations`) in one unsigned tx, delivered without an ante step. Signed txs those
 * messages carry (short-term order placements) are verified again on the block's state.
 */
import { type DescMessage, fromBinary, type MessageShape } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import type { AbciEvent, TxResult } from "../contract.js";
import type { IndexerEvent } from "../indexer-output/indexer-events.js";
import { abciError, sdkErrors } from "../lib/errors.js";
import { DISCARDED_EVENTS, EventManager, event, moduleNameOfTypeUrl, withAttribute } from "../lib/events.js";
import { ProtoWriter } from "../lib/proto-writer.js";
import { sha256 } from "../lib/sha256.js";
import { PROPOSED_OPERATIONS_URL } from "../modules/msg-type-urls.js";
import { runAnte } from "./ante.js";
import type { ChainCore } from "./chain-core.js";
import { createGasMeter } from "./gas.js";
import { type BlockInfo, type Context, createContext, type MsgHandler } from "./module.js";
import { readProposedOperations } from "./operations-wire.js";
import { CacheStore, type KvStore } from "./store.js";
import type { DecodedTx } from "./tx.js";
import { anteDepsOf, txFailure, txPolicyOf } from "./tx-exec.js";
import { txMsgDataBytes } from "./tx-msg-data.js";

/** The proposer's tx of a block: its bytes, hash and delivery result. */
export interface ProposedTx {
  readonly bytes: Uint8Array;
  readonly hash: Uint8Array;
  readonly result: TxResult;
}

/**
 * `AuthInfo { fee = 2 }` with an empty `Fee` (no signer infos, a gas limit of 0): the field's tag
 * and a zero length, as `toBinary` writes it.
 */
const PROPOSED_AUTH_INFO = new Uint8Array([0x12, 0x00]);

/**
 * The bytes of the proposer's tx: its messages in a body, no signer, no fee. Written directly, the
 * bytes `toBinary` writes: `TxRaw { body_bytes = 1; auth_info_bytes = 2 }` (no signatures), the body
 * `TxBody { repeated Any messages = 1 }`, each `Any { type_url = 1; value = 2 }` with empty fields
 * left out. The body is written in place as field 1's bytes (empty, and left out, with no message).
 */
export function proposedTxBytes(messages: readonly Any[]): Uint8Array {
  return ProtoWriter.encode((w) => {
    if (messages.length > 0) {
      w.message(1, (body) => {
        for (const any of messages) body.any(1, any);
      });
    }
    w.bytes(2, PROPOSED_AUTH_INFO);
  });
}

/**
 * A proposed message from its bytes: the clob's operations directly (no schema read: a block's
 * operations decode without protobuf-es's descriptors), else by protobuf-es.
 */
function decodeProposed(handler: MsgHandler, bytes: Uint8Array): MessageShape<DescMessage> {
  const direct = handler.typeUrl === PROPOSED_OPERATIONS_URL ? readProposedOperations(bytes) : undefined;
  return direct ?? fromBinary(handler.schema, bytes);
}

/** Decodes a signed tx a proposed message carries (with `decode`) and verifies its signatures on `base`. */
function verifyCarried(
  core: ChainCore,
  bytes: Uint8Array,
  base: KvStore,
  block: BlockInfo,
  verified: Set<string>,
  decode: (bytes: Uint8Array) => DecodedTx,
): DecodedTx {
  const tx = decode(bytes);
  const ctx = createContext({
    mode: "deliver",
    block,
    gasMeter: createGasMeter(undefined),
    gasConfig: core.gasConfig,
    // The ante's events and writes are dropped: only its verdict counts.
    events: DISCARDED_EVENTS,
    kv: new CacheStore(base),
  });
  runAnte(
    ctx,
    tx,
    { ...txPolicyOf(core, tx), chargeFees: false, checkSequence: false, meterGas: false },
    anteDepsOf(core, verified),
  );
  return tx;
}

/**
 * Builds the proposer's tx of the block in `branch` (the modules empty what they propose there)
 * and delivers it; undefined when no module proposes anything.
 */
export function proposeAndDeliver(
  core: ChainCore,
  branch: CacheStore,
  block: BlockInfo,
  verified: Set<string>,
  decode: (bytes: Uint8Array) => DecodedTx,
): ProposedTx | undefined {
  const context = (kv: KvStore, events: EventManager): Context =>
    createContext({
      mode: "deliver",
      block,
      gasMeter: createGasMeter(undefined),
      gasConfig: core.gasConfig,
      events,
      kv,
      verifyTx: (bytes) => verifyCarried(core, bytes, branch, block, verified, decode),
    });
  const messages: Any[] = [];
  for (const module of core.set.modules) {
    if (module.proposeMessages !== undefined) {
      messages.push(...module.proposeMessages(context(branch, new EventManager())));
    }
  }
  if (messages.length === 0) return undefined;
  const bytes = proposedTxBytes(messages);
  const msgBranch = new CacheStore(branch);
  const events: AbciEvent[] = [];
  const indexerEvents: IndexerEvent[] = [];
  const responses: Any[] = [];
  let result: TxResult;
  try {
    messages.forEach((any, i) => {
      const handler = core.set.router.msg(any.typeUrl);
      if (handler === undefined) throw abciError(sdkErrors.unknownRequest, `no handler for ${any.typeUrl}`);
      const msgEvents = new EventManager();
      responses.push(handler.execute(context(msgBranch, msgEvents), decodeProposed(handler, any.value)));
      const attributes: [string, string][] = [
        ["action", any.typeUrl],
        ["module", moduleNameOfTypeUrl(any.typeUrl)],
      ];
      events.push(
        ...withAttribute([event("message", attributes), ...msgEvents.events], "msg_index", String(i)),
      );
      indexerEvents.push(...msgEvents.indexerEvents);
    });
    msgBranch.write();
    const data = txMsgDataBytes(responses);
    result = { code: 0, codespace: "", log: "", info: "", data, gasWanted: 0n, gasUsed: 0n, events };
    if (indexerEvents.length > 0) result.indexerEvents = indexerEvents;
  } catch (error) {
    result = txFailure(error, 0n, 0n, []);
  }
  return { bytes, hash: sha256(bytes), result };
}

/** The modules' after-commit work (`Module.afterCommit`), each in `ctx` (the fresh CheckTx state). */
export function runAfterCommit(core: ChainCore, ctx: () => Context): void {
  for (const module of core.set.modules) module.afterCommit?.(ctx());
}
