/**
 * x/bridge: deposits from the EVM source chains and withdrawals back to them.
 *
 * Deposits (devnet control `deposit`) follow the fixed lifecycle of the specification, driven by the
 * begin-block hook, one step per block at least:
 * OBSERVED (the simulated daemon saw the log) -> FINALIZED after `finalityBlocks` blocks (recognized
 * by this node) -> ACKNOWLEDGED in the next block (in consensus, `MsgCompleteBridge` scheduled
 * `safety_params.delay_blocks` later) -> COMPLETED when the scheduled message runs (the coin is
 * minted to the bridge module account and sent to the depositor's main account).
 *
 * Withdrawals (`MsgInitiateWithdrawal`) pass the ratelimit module's controls (daily limit, fee,
 * timelock), escrow the coin in the bridge module account, and gather one signature per block from
 * the simulated validators (end-block hook); they are ready for relay once `requiredSignatures`
 * signed and the timelock (`ready_at_block`) passed.
 *
 * Store slice `bridge/` (genesis keys as in `records.ts`, plus):
 * - `event/<chain:20>/<id:10>`: `BridgeEventRecord`; `next_log_id/<chain:20>`: u64;
 * - `final_at/<chain:20>/<id:10>`: u64 height at which an observed event is final;
 * - `finalized/<chain:20>/<id:10>`: u64 height it was finalized at (until acknowledged);
 * - `recognized/<chain:20>`, `acknowledged/<chain:20>`: `BridgeEventInfo`;
 * - `delayed/<height:20>/<chain:20>/<id:10>`: `MsgCompleteBridge`;
 * - `withdrawal/<id:20>`: `AggregatedWithdrawal`; `next_withdrawal_id`: u64.
 */
import { create, fromBinary, type Message, toBinary } from "@bufbuild/protobuf";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { addressBytesToBech32, addressBytesToHex, VALOPER_PREFIX } from "@perpx/address";
import { bridge, cosmosBase } from "@perpx/proto";
import type { Context, QueryContext } from "../../kernel/module.js";
import { accAddressBytes, bech32Of } from "../../lib/addresses.js";
import { concatBytes, decodeU64, encodeU64, utf8 } from "../../lib/codec.js";
import { coinsToString, parseAmount } from "../../lib/coins.js";
import { abciError, registerError } from "../../lib/errors.js";
import { type WireMessage, wireCreate, wireDecode, wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { AuthKeeper, StoreAccess } from "../auth/auth.js";
import type { BankKeeper } from "../bank/bank.js";
import type { RatelimitKeeper } from "../ratelimit/ratelimit.js";
import { padKey, readRecords } from "../records.js";

/** The module's name, store prefix, module account and codespace. */
export const BRIDGE = "bridge";

/** The devnet's bridge simulation parameters (documented in the devnet README). */
export const BRIDGE_DEVNET_PARAMS = Object.freeze({
  /** Blocks between a deposit's observation and its finality on the source chain. */
  finalityBlocks: 3,
  /** Simulated validators signing withdrawals (one new signature per block). */
  validators: 3,
  /** Signatures the bridge contract requires. */
  requiredSignatures: 2,
});

/** Errors of codespace `bridge`. */
export const bridgeErrors = {
  invalidAuthority: registerError(BRIDGE, 1, "invalid authority"),
  invalidEventParams: registerError(BRIDGE, 2, "invalid event params"),
  bridgingDisabled: registerError(BRIDGE, 3, "bridging is disabled"),
  invalidBridgeEvent: registerError(BRIDGE, 4, "invalid bridge event"),
  unknownChain: registerError(BRIDGE, 5, "unknown source chain"),
  invalidWithdrawal: registerError(BRIDGE, 6, "invalid withdrawal"),
  notAllowed: registerError(BRIDGE, 7, "message is injected by the chain"),
} as const;

/** The delaymsg module's account: the authority of the delayed `MsgCompleteBridge`. */
export const DELAYMSG_AUTHORITY = (auth: AuthKeeper) => bech32Of(auth.moduleAddress("delaymsg"));

/** The store key suffix of a bridge event: `<chain:20>/<id:10>`. */
export function eventKey(chain: bigint, id: number): string {
  return `${padKey(chain, 20)}/${padKey(id, 10)}`;
}

function readU64(ctx: StoreAccess, key: string): bigint | undefined {
  const bytes = ctx.store(BRIDGE).get(key);
  return bytes === undefined ? undefined : decodeU64(bytes);
}

interface SimValidator {
  readonly operator: string;
  readonly ethSigner: string;
  readonly secret: Uint8Array;
}

/** Derived once per profile: a pure function of the profile's name, so caching changes no result. */
const simValidatorCache = new Map<string, readonly SimValidator[]>();

/** The simulated bridge validators: deterministic keys from labels. */
function simValidators(profile: string): readonly SimValidator[] {
  let validators = simValidatorCache.get(profile);
  if (validators === undefined) {
    validators = deriveSimValidators(profile);
    simValidatorCache.set(profile, validators);
  }
  return validators;
}

function deriveSimValidators(profile: string): SimValidator[] {
  return Array.from({ length: BRIDGE_DEVNET_PARAMS.validators }, (_, i) => {
    const secret = sha256(utf8(`perpx ${profile} bridge validator ${i}`));
    const uncompressed = secp256k1.getPublicKey(secret, false);
    return {
      operator: addressBytesToBech32(
        sha256(utf8(`perpx ${profile} bridge operator ${i}`)).subarray(0, 20),
        VALOPER_PREFIX,
      ),
      ethSigner: addressBytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12)),
      secret,
    };
  });
}

/** The digest a validator signs for a withdrawal (the devnet's stand-in for the contract's). */
export function withdrawalDigest(w: bridge.Withdrawal): Uint8Array {
  return keccak_256(
    concatBytes(
      encodeU64(w.id),
      encodeU64(w.ethChainId),
      utf8(w.recipient.toLowerCase()),
      utf8(w.tokenAddress.toLowerCase()),
      utf8(w.coin?.amount ?? "0"),
    ),
  );
}

/**
 * A parameters record of the module's slice, decoded with its wire table (every block reads the
 * safety and propose parameters: no descriptor built); zero when absent.
 */
function readParams<T extends Message>(ctx: StoreAccess, key: string, table: WireMessage<T>): T {
  const bytes = ctx.store(BRIDGE).get(key);
  return bytes === undefined ? wireCreate(table) : wireDecode(table, bytes);
}

/** The bridge module's state operations. */
export class BridgeKeeper {
  constructor(
    private readonly auth: AuthKeeper,
    private readonly bank: BankKeeper,
    private readonly ratelimit: RatelimitKeeper,
  ) {}

  /** Every source chain's EventParams, by chain id. */
  eventParams(ctx: StoreAccess): bridge.EventParams[] {
    return [...ctx.store(BRIDGE).entries("event_params/")].map(([, bytes]) =>
      wireDecode(wire.perpx_bridge_v1_EventParams, bytes),
    );
  }

  /** The SafetyParams. */
  safety(ctx: StoreAccess): bridge.SafetyParams {
    return readParams(ctx, "safety_params", wire.perpx_bridge_v1_SafetyParams);
  }

  /** The ProposeParams. */
  propose(ctx: StoreAccess): bridge.ProposeParams {
    return readParams(ctx, "propose_params", wire.perpx_bridge_v1_ProposeParams);
  }

  /** Progress info (`recognized` or `acknowledged`) of a chain. */
  info(ctx: StoreAccess, kind: "recognized" | "acknowledged", chain: bigint): bridge.BridgeEventInfo {
    const table = wire.perpx_bridge_v1_BridgeEventInfo;
    const bytes = ctx.store(BRIDGE).get(`${kind}/${padKey(chain, 20)}`);
    return bytes === undefined
      ? wireCreate(table, { nextId: 0, ethBlockHeight: 0n, ethChainId: chain })
      : wireDecode(table, bytes);
  }

  private setInfo(ctx: Context, kind: "recognized" | "acknowledged", info: bridge.BridgeEventInfo): void {
    ctx
      .store(BRIDGE)
      .set(`${kind}/${padKey(info.ethChainId, 20)}`, wireEncode(wire.perpx_bridge_v1_BridgeEventInfo, info));
  }

  /** A deposit's record; its schema is read only for a record there is (not at every block's lookup). */
  private record(ctx: StoreAccess, key: string): bridge.BridgeEventRecord | undefined {
    const bytes = ctx.store(BRIDGE).get(`event/${key}`);
    return bytes === undefined ? undefined : fromBinary(bridge.BridgeEventRecordSchema, bytes);
  }

  private setRecord(ctx: Context, r: bridge.BridgeEventRecord): void {
    const e = r.event as bridge.BridgeEvent;
    ctx
      .store(BRIDGE)
      .set(`event/${eventKey(e.ethChainId, e.id)}`, toBinary(bridge.BridgeEventRecordSchema, r));
  }

  private emit(
    ctx: Context,
    type: string,
    r: bridge.BridgeEventRecord,
    extra: [string, string][] = [],
  ): void {
    const e = r.event as bridge.BridgeEvent;
    ctx.events.emitEvent(type, [
      ["eth_chain_id", e.ethChainId.toString()],
      ["id", String(e.id)],
      ["address", e.address],
      ["amount", coinsToString([{ denom: e.coin?.denom ?? "", amount: BigInt(e.coin?.amount ?? "0") }])],
      ["status", bridge.BridgeEventStatus[r.status]],
      ...extra,
    ]);
  }

  /** Records a deposit the simulated daemon observed on a source chain; returns the record. */
  observe(
    ctx: Context,
    d: {
      ethChainId: bigint;
      bridgeAddress: string;
      tokenAddress: string;
      sender: string;
      address: string;
      amount: bigint;
      sourceBlock: bigint;
      txHash: string;
    },
    /** `source`: final when the bridge daemon says the source chain finalized it ({@link markSourceFinal}). */
    finality: "blocks" | "source" = "blocks",
  ): bridge.BridgeEventRecord {
    const params = this.eventParams(ctx).find((p) => p.ethChainId === d.ethChainId);
    if (params === undefined) {
      const known = this.eventParams(ctx).map((p) => p.ethChainId.toString());
      throw abciError(
        bridgeErrors.unknownChain,
        `eth chain ${d.ethChainId}; source chains: ${known.join(", ")}`,
      );
    }
    if (d.bridgeAddress.toLowerCase() !== params.ethAddress.toLowerCase()) {
      throw abciError(
        bridgeErrors.invalidBridgeEvent,
        `bridge contract ${d.bridgeAddress} is not the bridge of chain ${d.ethChainId} (${params.ethAddress})`,
      );
    }
    if (d.tokenAddress.toLowerCase() !== params.tokenAddress.toLowerCase()) {
      throw abciError(
        bridgeErrors.invalidBridgeEvent,
        `token ${d.tokenAddress} is not the bridged token of chain ${d.ethChainId} (${params.tokenAddress})`,
      );
    }
    if (d.amount <= 0n)
      throw abciError(bridgeErrors.invalidBridgeEvent, `amount ${d.amount} must be positive`);
    accAddressBytes(d.address, "invalid recipient address");
    const chainKey = padKey(d.ethChainId, 20);
    const id = Number(readU64(ctx, `next_log_id/${chainKey}`) ?? 0n);
    ctx.store(BRIDGE).set(`next_log_id/${chainKey}`, encodeU64(BigInt(id + 1)));
    const r = create(bridge.BridgeEventRecordSchema, {
      event: create(bridge.BridgeEventSchema, {
        id,
        coin: create(cosmosBase.CoinSchema, { denom: params.denom, amount: d.amount.toString() }),
        address: d.address,
        ethBlockHeight: d.sourceBlock,
        ethChainId: d.ethChainId,
        tokenAddress: params.tokenAddress,
        ethTxHash: d.txHash,
      }),
      status: bridge.BridgeEventStatus.OBSERVED,
    });
    this.setRecord(ctx, r);
    if (finality === "blocks") {
      ctx
        .store(BRIDGE)
        .set(
          `final_at/${eventKey(d.ethChainId, id)}`,
          encodeU64(ctx.block.height + BigInt(BRIDGE_DEVNET_PARAMS.finalityBlocks)),
        );
    }
    this.emit(ctx, "bridge_event_observed", r, [["sender", d.sender]]);
    return r;
  }

  /**
   * Marks an observed deposit final on its source chain (the bridge daemon saw its block reach the
   * finality depth): the next block finalizes it.
   */
  markSourceFinal(ctx: Context, ethChainId: bigint, id: number): void {
    const key = eventKey(ethChainId, id);
    const r = this.record(ctx, key);
    if (r === undefined)
      throw abciError(bridgeErrors.invalidBridgeEvent, `no deposit ${id} of eth chain ${ethChainId}`);
    if (r.status !== bridge.BridgeEventStatus.OBSERVED) return;
    ctx.store(BRIDGE).set(`final_at/${key}`, encodeU64(ctx.block.height));
  }

  /** Runs the deposit lifecycle for this block: complete, acknowledge, then finalize. */
  advanceDeposits(ctx: Context): void {
    const height = ctx.block.height;
    const store = ctx.store(BRIDGE);
    const safety = this.safety(ctx);
    // Completion of scheduled MsgCompleteBridge.
    if (!safety.isDisabled) {
      for (const [key, bytes] of [...store.entries("delayed/")]) {
        const due = BigInt(key.split("/")[1] as string);
        if (due > height) break;
        const msg = fromBinary(bridge.MsgCompleteBridgeSchema, bytes);
        this.complete(ctx, msg);
        store.delete(key);
      }
    }
    // Acknowledgement of events finalized in an earlier block, in id order per chain.
    if (!safety.isDisabled) {
      const max = this.propose(ctx).maxBridgesPerBlock || Number.MAX_SAFE_INTEGER;
      for (const params of this.eventParams(ctx)) {
        const chain = params.ethChainId;
        const acked = this.info(ctx, "acknowledged", chain);
        let count = 0;
        while (count < max) {
          const key = eventKey(chain, acked.nextId);
          const finalizedAt = readU64(ctx, `finalized/${key}`);
          const r = this.record(ctx, key);
          if (r === undefined || finalizedAt === undefined || finalizedAt >= height) break;
          r.status = bridge.BridgeEventStatus.ACKNOWLEDGED;
          r.acknowledgedAtBlock = height;
          r.completeAtBlock = height + BigInt(safety.delayBlocks);
          this.setRecord(ctx, r);
          store.delete(`finalized/${key}`);
          store.set(
            `delayed/${padKey(r.completeAtBlock, 20)}/${key}`,
            toBinary(
              bridge.MsgCompleteBridgeSchema,
              create(bridge.MsgCompleteBridgeSchema, {
                authority: DELAYMSG_AUTHORITY(this.auth),
                event: r.event,
              }),
            ),
          );
          acked.nextId += 1;
          acked.ethBlockHeight = r.event?.ethBlockHeight ?? 0n;
          acked.ethChainId = chain;
          this.emit(ctx, "bridge_event_acknowledged", r, [
            ["complete_at_block", r.completeAtBlock.toString()],
          ]);
          count++;
        }
        if (count > 0) this.setInfo(ctx, "acknowledged", acked);
      }
    }
    // Finality of observed events.
    for (const [key, bytes] of [...store.entries("final_at/")]) {
      if (decodeU64(bytes) > height) continue;
      const rest = key.slice("final_at/".length);
      const r = this.record(ctx, rest);
      store.delete(key);
      if (r === undefined) continue;
      r.status = bridge.BridgeEventStatus.FINALIZED;
      this.setRecord(ctx, r);
      store.set(`finalized/${rest}`, encodeU64(height));
      const e = r.event as bridge.BridgeEvent;
      const recognized = this.info(ctx, "recognized", e.ethChainId);
      if (e.id + 1 > recognized.nextId) {
        recognized.nextId = e.id + 1;
        recognized.ethBlockHeight = e.ethBlockHeight;
        recognized.ethChainId = e.ethChainId;
        this.setInfo(ctx, "recognized", recognized);
      }
      this.emit(ctx, "bridge_event_finalized", r);
    }
  }

  /** Credits a deposit (MsgCompleteBridge): mints to the bridge module account, sends to the address. */
  complete(ctx: Context, msg: bridge.MsgCompleteBridge): void {
    const e = msg.event;
    if (e === undefined || e.coin === undefined)
      throw abciError(bridgeErrors.invalidBridgeEvent, "event is required");
    const coins = [{ denom: e.coin.denom, amount: BigInt(e.coin.amount) }];
    this.bank.mintCoins(ctx, BRIDGE, coins);
    this.bank.sendCoinsFromModuleToAccount(ctx, BRIDGE, accAddressBytes(e.address), coins);
    const key = eventKey(e.ethChainId, e.id);
    const r = this.record(ctx, key);
    if (r !== undefined) {
      r.status = bridge.BridgeEventStatus.COMPLETED;
      this.setRecord(ctx, r);
      this.emit(ctx, "bridge_event_completed", r);
    }
  }

  /** Every deposit with its state, by chain then id. */
  records(ctx: QueryContext): bridge.BridgeEventRecord[] {
    return readRecords(ctx, BRIDGE, "event/", bridge.BridgeEventRecordSchema).map((r) => r.value);
  }

  /** Creates a withdrawal after the rate-limit controls; returns its id. */
  initiateWithdrawal(ctx: Context, msg: bridge.MsgInitiateWithdrawal): bigint {
    const sender = accAddressBytes(msg.sender, "invalid sender address");
    const params = this.eventParams(ctx).find((p) => p.ethChainId === msg.ethChainId);
    if (params === undefined) throw abciError(bridgeErrors.unknownChain, `eth chain ${msg.ethChainId}`);
    const denom = msg.coin?.denom ?? "";
    if (denom !== params.denom) {
      throw abciError(
        bridgeErrors.invalidWithdrawal,
        `denom ${denom} is not bridged to chain ${msg.ethChainId} (${params.denom})`,
      );
    }
    const amount = parseAmount(msg.coin?.amount ?? "") ?? 0n;
    const terms = this.ratelimit.applyBridgeWithdrawal(ctx, msg.ethChainId, denom, amount);
    if (terms.fee.length > 0) this.bank.sendCoinsFromAccountToModule(ctx, sender, "fee_collector", terms.fee);
    this.bank.sendCoinsFromAccountToModule(ctx, sender, BRIDGE, [{ denom, amount }]);
    const store = ctx.store(BRIDGE);
    const id = readU64(ctx, "next_withdrawal_id") ?? 1n;
    store.set("next_withdrawal_id", encodeU64(id + 1n));
    const readyAt = ctx.block.height + terms.timelockBlocks;
    const withdrawal = create(bridge.WithdrawalSchema, {
      id,
      sender: msg.sender,
      recipient: msg.recipient,
      coin: create(cosmosBase.CoinSchema, { denom, amount: amount.toString() }),
      ethChainId: msg.ethChainId,
      tokenAddress: params.tokenAddress,
      createdAtBlock: ctx.block.height,
    });
    const aggregated = create(bridge.AggregatedWithdrawalSchema, {
      withdrawal,
      signatures: [],
      signatureCount: 0n,
      requiredSignatures: BigInt(BRIDGE_DEVNET_PARAMS.requiredSignatures),
      readyForRelay: false,
      readyAtBlock: readyAt,
      assignedRelayer: "",
    });
    store.set(`withdrawal/${padKey(id, 20)}`, toBinary(bridge.AggregatedWithdrawalSchema, aggregated));
    ctx.events.emitEvent("bridge_withdrawal_initiated", [
      ["withdrawal_id", id.toString()],
      ["sender", msg.sender],
      ["recipient", msg.recipient],
      ["amount", `${amount}${denom}`],
      ["eth_chain_id", msg.ethChainId.toString()],
      ["fee", coinsToString(terms.fee)],
      ["ready_at_block", readyAt.toString()],
    ]);
    return id;
  }

  /** Adds one simulated validator signature per pending withdrawal and marks ready ones. */
  signWithdrawals(ctx: Context, profile: string): void {
    const store = ctx.store(BRIDGE);
    for (const [key, bytes] of [...store.entries("withdrawal/")]) {
      const validators = simValidators(profile);
      const w = fromBinary(bridge.AggregatedWithdrawalSchema, bytes);
      const inner = w.withdrawal as bridge.Withdrawal;
      let changed = false;
      const next = validators[w.signatures.length];
      if (next !== undefined && ctx.block.height > inner.createdAtBlock) {
        const sig = secp256k1.sign(withdrawalDigest(inner), next.secret, {
          prehash: false,
          format: "recovered",
        });
        const rsv = concatBytes(sig.subarray(1), new Uint8Array([27 + (sig[0] as number)]));
        w.signatures.push(
          create(bridge.WithdrawalSignatureSchema, {
            validatorAddress: next.operator,
            ethSigner: next.ethSigner,
            signature: rsv,
            signedAtBlock: ctx.block.height,
          }),
        );
        w.signatureCount = BigInt(w.signatures.length);
        changed = true;
        ctx.events.emitEvent("bridge_withdrawal_signed", [
          ["withdrawal_id", inner.id.toString()],
          ["validator", next.operator],
          ["signature_count", w.signatureCount.toString()],
        ]);
      }
      const ready = w.signatureCount >= w.requiredSignatures && ctx.block.height >= w.readyAtBlock;
      if (ready && !w.readyForRelay) {
        w.readyForRelay = true;
        w.assignedRelayer = validators[Number(inner.id % BigInt(validators.length))]?.ethSigner ?? "";
        changed = true;
        ctx.events.emitEvent("bridge_withdrawal_ready", [
          ["withdrawal_id", inner.id.toString()],
          ["assigned_relayer", w.assignedRelayer],
        ]);
      }
      if (changed) store.set(key, toBinary(bridge.AggregatedWithdrawalSchema, w));
    }
  }
}
