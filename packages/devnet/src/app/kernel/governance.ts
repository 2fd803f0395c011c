/**
 * Devnet governance: a control call queues messages signed by the gov module address as a
 * proposal; the next block runs them (after the begin-block hooks, before the txs), atomically, and
 * records the outcome. There is no voting: a devnet proposal passes as soon as its block runs.
 *
 * Store slice `gov/` (state, so it survives `--state` and is part of the app hash):
 * - `next_proposal_id`: u64;
 * - `queued/<id:20>`: the proposal's messages (`cosmos.tx.v1beta1.TxBody` bytes, messages only);
 * - `result/<id:20>`: JSON {@link ProposalResult}.
 */

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { cosmosTx } from "@perpx/proto";
import type { AbciEvent, ProposalResult } from "../contract.js";
import type { IndexerEvent } from "../indexer-output/indexer-events.js";
import { bech32Of, moduleAddress } from "../lib/addresses.js";
import { decodeU64, encodeU64, fromUtf8, utf8 } from "../lib/codec.js";
import { abciError, type ErrorKind, sdkErrors, toAbciError } from "../lib/errors.js";
import { EventManager } from "../lib/events.js";
import type { Context, Router } from "./module.js";
import { CacheStore, type KvStore } from "./store.js";
import { PrefixStore } from "./store-views.js";

/** The store slice of devnet governance. */
export const GOV = "gov";

/** The gov module's address (`perpx1...`), the authority of every governance message. */
export const GOV_AUTHORITY = bech32Of(moduleAddress(GOV));

function idKey(id: bigint): string {
  return id.toString().padStart(20, "0");
}

/**
 * Queues a proposal in `root` (the committed store) and returns its id.
 *
 * @throws {AbciError} sdk 18 when there is no message, sdk 6 for a message type with no handler.
 */
export function queueProposal(root: KvStore, router: Router, messages: readonly Any[]): bigint {
  if (messages.length === 0)
    throw abciError(sdkErrors.invalidRequest, "a proposal needs at least one message");
  for (const m of messages) {
    if (router.msg(m.typeUrl) === undefined) {
      throw abciError(
        sdkErrors.unknownRequest,
        `unrecognized message type: ${m.typeUrl}; no message handler found`,
      );
    }
  }
  const store = new PrefixStore(root, `${GOV}/`);
  const bytes = store.get("next_proposal_id");
  const id = bytes === undefined ? 1n : decodeU64(bytes);
  store.set("next_proposal_id", encodeU64(id + 1n));
  store.set(
    `queued/${idKey(id)}`,
    toBinary(cosmosTx.TxBodySchema, create(cosmosTx.TxBodySchema, { messages: [...messages] })),
  );
  return id;
}

/** The outcome of a proposal, or undefined when it has not run (or does not exist). */
export function proposalResult(root: KvStore, id: bigint): ProposalResult | undefined {
  const bytes = new PrefixStore(root, `${GOV}/`).get(`result/${idKey(id)}`);
  return bytes === undefined ? undefined : (JSON.parse(fromUtf8(bytes)) as ProposalResult);
}

/**
 * Runs every queued proposal in `branch` (the block's store): each message's signers must be the
 * gov authority; a failing message rolls back its whole proposal. Events go to the context's sink.
 *
 * @param makeContext - builds a context over a store (the proposal's own branch) and an event sink.
 * @returns the events of the proposals that passed, and one `proposal_executed` event per proposal.
 */
export function runProposals(
  branch: KvStore,
  router: Router,
  makeContext: (kv: KvStore, events: EventManager) => Context,
  height: bigint,
  indexerEvents: IndexerEvent[] = [],
): AbciEvent[] {
  const out: AbciEvent[] = [];
  const gov = new PrefixStore(branch, `${GOV}/`);
  for (const [key, bytes] of [...gov.entries("queued/")]) {
    const id = BigInt(key.slice("queued/".length));
    const body = fromBinary(cosmosTx.TxBodySchema, bytes);
    const proposalBranch = new CacheStore(branch);
    const events = new EventManager();
    const ctx = makeContext(proposalBranch, events);
    let result: ProposalResult;
    try {
      body.messages.forEach((any, i) => {
        const handler = router.msg(any.typeUrl);
        if (handler === undefined)
          throw abciError(sdkErrors.unknownRequest, `no message handler for ${any.typeUrl}`);
        const msg = fromBinary(handler.schema, any.value);
        handler.validate?.(msg);
        const signers = handler.signers(msg);
        if (signers.length !== 1 || signers[0] !== GOV_AUTHORITY) {
          throw abciError(
            sdkErrors.unauthorized,
            `message ${i} (${any.typeUrl}) must be signed by the gov authority ${GOV_AUTHORITY}, not ${signers.join(",")}`,
          );
        }
        handler.execute(ctx, msg);
      });
      proposalBranch.write();
      result = {
        id: id.toString(),
        status: "passed",
        height: height.toString(),
        code: 0,
        codespace: "",
        log: "",
      };
      out.push(...events.events);
      indexerEvents.push(...events.indexerEvents);
    } catch (error) {
      const e = toAbciError(error);
      result = {
        id: id.toString(),
        status: "failed",
        height: height.toString(),
        code: e.abciCode,
        codespace: e.codespace,
        log: e.log,
      };
    }
    const summary = new EventManager();
    summary.emitEvent("proposal_executed", [
      ["proposal_id", id.toString()],
      ["result", result.status],
    ]);
    out.push(...summary.events);
    gov.delete(key);
    gov.set(`result/${idKey(id)}`, utf8(JSON.stringify(result)));
  }
  return out;
}

/**
 * Checks a governance message's authority.
 *
 * @throws {AbciError} of `kind` ("invalid authority; expected <gov>, got <authority>") otherwise.
 */
export function requireGovAuthority(authority: string, kind: ErrorKind): void {
  if (authority !== GOV_AUTHORITY) {
    throw abciError(kind, `invalid authority; expected ${GOV_AUTHORITY}, got ${authority}`);
  }
}
