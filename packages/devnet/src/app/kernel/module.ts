/**
 * The module interface. A module owns a slice of the store (keys under `"<name>/"`), message
 * handlers by type URL, query handlers by gRPC method path, genesis, and begin/end-block hooks.
 * The {@link Router} dispatches to them; nothing else knows a module's internals. Modules call each
 * other only through the keepers their factories return (e.g. the bank keeper).
 */

import {
  create,
  type DescMessage,
  fromBinary,
  type JsonValue,
  type Message,
  type MessageShape,
  toBinary,
} from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { toCosmosJson } from "@perpx/proto";
import { DevnetError } from "../../devnet-error.js";
import { type AbciError, abciError, sdkErrors } from "../lib/errors.js";
import type { EventManager } from "../lib/events.js";
import { type WireMessage, wireEncode } from "../lib/wire-codec.js";
import type { Account } from "../modules/auth/auth.js";
import type { GasConfig, GasMeter } from "./gas.js";
import type { KvStore } from "./store.js";
import { moduleSlices } from "./store-views.js";
import type { DecodedTx } from "./tx.js";

/** How a tx is being run: CheckTx (ante only), simulation, or delivery in a block. */
export type ExecMode = "check" | "simulate" | "deliver";

/** The block a context runs in (in CheckTx: the latest committed block, as the SDK does). */
export interface BlockInfo {
  readonly chainId: string;
  readonly height: bigint;
  readonly time: Date;
  /** Block time in unix milliseconds. */
  readonly timeMs: bigint;
}

/** What a handler sees: the block, the metered store branch, the gas meter and an event sink. */
export interface Context {
  readonly mode: ExecMode;
  readonly block: BlockInfo;
  readonly gasMeter: GasMeter;
  readonly gasConfig: GasConfig;
  readonly events: EventManager;
  /** The store slice of module `name` (gas-metered, inside the current branch). */
  store(name: string): KvStore;
  /** The bytes of the tx being run (undefined in block hooks). */
  readonly txBytes?: Uint8Array;
  /**
   * Decodes a signed tx and verifies its signatures against the current state (for a message that
   * carries other txs, as the clob's proposed operations carry short-term placements).
   */
  readonly verifyTx?: (bytes: Uint8Array) => DecodedTx;
  /** True when CheckTx runs a queued tx again on a new pending state (the SDK's ReCheckTx). */
  readonly recheck?: boolean;
}

/** What a query handler sees: the committed state (unmetered) at the latest height. */
export interface QueryContext {
  readonly block: BlockInfo;
  /** The store slice of module `name` (read it only). */
  store(name: string): KvStore;
}

/** A context over a store, with its own gas meter and events. */
export function createContext(fields: {
  mode: ExecMode;
  block: BlockInfo;
  gasMeter: GasMeter;
  gasConfig: GasConfig;
  events: EventManager;
  kv: KvStore;
  txBytes?: Uint8Array;
  verifyTx?: (bytes: Uint8Array) => DecodedTx;
  recheck?: boolean;
}): Context {
  return new StoreContext(fields);
}

/**
 * The {@link Context} of {@link createContext}: one class, so that every context has the same
 * shape (a literal with optional fields spread in had a shape per combination), and module slices
 * made on first use.
 */
class StoreContext implements Context {
  readonly mode: ExecMode;
  readonly block: BlockInfo;
  readonly gasMeter: GasMeter;
  readonly gasConfig: GasConfig;
  readonly events: EventManager;
  declare readonly txBytes?: Uint8Array;
  declare readonly verifyTx?: (bytes: Uint8Array) => DecodedTx;
  declare readonly recheck?: boolean;
  private readonly kv: KvStore;
  /** The module slices of `kv`, made at the first read. */
  private slices: ((name: string) => KvStore) | undefined;

  constructor(fields: Parameters<typeof createContext>[0]) {
    // Absent optional fields stay absent (not undefined), as the literal had them.
    if (fields.txBytes !== undefined) (this as { txBytes?: Uint8Array }).txBytes = fields.txBytes;
    if (fields.verifyTx !== undefined) {
      (this as { verifyTx?: (bytes: Uint8Array) => DecodedTx }).verifyTx = fields.verifyTx;
    }
    if (fields.recheck === true) (this as { recheck?: boolean }).recheck = true;
    this.mode = fields.mode;
    this.block = fields.block;
    this.gasMeter = fields.gasMeter;
    this.gasConfig = fields.gasConfig;
    this.events = fields.events;
    this.kv = fields.kv;
  }

  store(name: string): KvStore {
    this.slices ??= moduleSlices(this.kv);
    return this.slices(name);
  }
}

/** A handler of one message type. `M` is the decoded message. */
export interface MsgHandler<Desc extends DescMessage = DescMessage> {
  /** The message's type URL, `/` + the schema's full name (routing needs no schema). */
  readonly typeUrl: string;
  /** The message schema (read on the first message of the type, see {@link msgHandler}). */
  readonly schema: Desc;
  /** The signers (bech32) that must sign a tx carrying the message, in order. */
  signers(msg: MessageShape<Desc>): string[];
  /** Stateless checks (the SDK's `ValidateBasic`); throws {@link AbciError}. Run in CheckTx. */
  validate?(msg: MessageShape<Desc>): void;
  /** Executes the message; returns its response packed as `Any` (the tx's `msg_responses`). */
  execute(ctx: Context, msg: MessageShape<Desc>): Any;
}

/** A {@link MsgHandler} as a module writes it: the schema as a function that reads it. */
export type MsgHandlerSpec<Desc extends DescMessage> = Omit<MsgHandler<Desc>, "schema"> & {
  readonly schema: () => Desc;
};

/**
 * Defines a typed {@link MsgHandler} (keeps `M` tied to the schema). Reading a schema builds the
 * descriptors of its file and of the files it imports, so the handler reads it on the first message
 * of its type (once), not when its module is created: a start builds only the files it uses.
 */
export function msgHandler<Desc extends DescMessage>(spec: MsgHandlerSpec<Desc>): MsgHandler {
  let schema: Desc | undefined;
  const handler = {
    ...spec,
    get schema(): Desc {
      schema ??= spec.schema();
      return schema;
    },
  };
  return handler as unknown as MsgHandler;
}

/** A query handler: request bytes in, response bytes out; throws {@link AbciError} (22 not found...). */
export type QueryHandler = (ctx: QueryContext, request: Uint8Array) => Uint8Array;

/**
 * Defines a typed query handler over request and response schemas, each given as is or as a
 * function that reads it: reading a schema builds the descriptors of its file (and of the files it
 * imports), so a module reads its query schemas on the first query, not when it is created.
 */
export function queryHandler<Req extends DescMessage, Res extends DescMessage>(
  request: Req | (() => Req),
  response: Res | (() => Res),
  handle: (ctx: QueryContext, req: MessageShape<Req>) => MessageShape<Res>,
): QueryHandler {
  let schemas: readonly [Req, Res] | undefined;
  return (ctx, bytes) => {
    schemas ??= [
      typeof request === "function" ? request() : request,
      typeof response === "function" ? response() : response,
    ];
    const [requestSchema, responseSchema] = schemas;
    let req: MessageShape<Req>;
    try {
      req = fromBinary(requestSchema, bytes);
    } catch (error) {
      throw invalidArgument(error instanceof Error ? error.message : String(error));
    }
    return toBinary(responseSchema, handle(ctx, req));
  };
}

/** Packs a message as `Any` with the Cosmos type URL. */
export function packAny<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): Any {
  return {
    $typeName: "google.protobuf.Any",
    typeUrl: `/${schema.typeName}`,
    value: toBinary(schema, message),
  };
}

/** {@link packAny} of a message written with its type's wire table (no descriptor built). */
export function packWire<T extends Message>(table: WireMessage<T>, message: T): Any {
  return {
    $typeName: "google.protobuf.Any",
    typeUrl: `/${table.typeName}`,
    value: wireEncode(table, message),
  };
}

/**
 * A message as the genesis document writes it: proto field names, fields at their default left
 * out, 64-bit integers and SerializableInts as decimal strings, `Any` with `@type`.
 */
export function genesisJson<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): JsonValue {
  return toCosmosJson(schema, message, { emitDefaults: false });
}

/** An empty response `Any` of a schema (most Msg responses have no fields). */
export function emptyResponse(schema: DescMessage): Any {
  return packAny(schema, create(schema));
}

/** How the ante step treats a tx; modules may relax it for their messages (clob's free orders). */
export interface TxPolicy {
  /** Check the minimum gas prices and deduct the fee. */
  readonly chargeFees: boolean;
  /** Check and bump signer sequences (timestamp nonces are always checked). */
  readonly checkSequence: boolean;
  /** Meter gas against the tx's limit (false: an infinite meter, as for short-term orders). */
  readonly meterGas: boolean;
  /** CheckTx runs the messages too (on the pending state), not only the ante step (clob orders). */
  readonly checkRunsMessages: boolean;
  /**
   * A tx CheckTx accepts is queued for the next block (false: CheckTx's answer is all there is, as
   * for short-term orders, which live in the memclob and never enter a block).
   */
  readonly enterBlock: boolean;
}

/** What {@link Module.authenticateSigner} is asked about: one signer of a tx. */
export interface SignerCheck {
  readonly tx: DecodedTx;
  /** The signer's index in `tx.signers` and in the auth info's signer infos and signatures. */
  readonly index: number;
  /** The signer's account as stored (its key may be unset). */
  readonly account: Account;
  /** True in simulation (signatures are empty then; check everything else). */
  readonly simulate: boolean;
}

/**
 * A chain module. Every part is optional except the name. All of its state lives under its store
 * slice, so exporting and restoring the store exports and restores the module.
 */
export interface Module {
  /** The module name: its store prefix, its codespace by convention, and its `app_state` key. */
  readonly name: string;
  /** Message handlers (each by its schema's type URL). */
  readonly msgs?: readonly MsgHandler[];
  /** Query handlers by gRPC method path (`/cosmos.bank.v1beta1.Query/Balance`). */
  readonly queries?: Readonly<Record<string, QueryHandler>>;
  /** Writes the module's genesis state (runs once, before the first block, in delivery mode). */
  initGenesis?(ctx: Context): void;
  /** The module's `app_state` entry of the genesis document (JSON), from the state at genesis. */
  exportGenesis?(ctx: QueryContext): unknown;
  /**
   * Runs before each block starts, read-only, over the committed state as it stands then (control
   * operations since the last block included): the work of a process beside the node that reads
   * the last committed block (clob: the liquidation daemon).
   */
  beforeBlock?(ctx: QueryContext): void;
  /** Runs at the start of every block. */
  beginBlock?(ctx: Context): void;
  /** Runs at the end of every block, after the txs. */
  endBlock?(ctx: Context): void;
  /**
   * Relaxes the ante policy for a tx, given the type URLs of all its messages: return the fields to
   * relax when the tx qualifies (e.g. clob: a tx with an order message pays no fee and meters no
   * gas; one of only short-term order messages also skips the sequence), undefined otherwise.
   * `msgs` are the decoded messages, in order (a clob place order is short-term or not by its order
   * flags). Relaxations of several modules are merged.
   */
  txPolicy?(typeUrls: readonly string[], msgs: readonly unknown[]): Partial<TxPolicy> | undefined;
  /**
   * Authenticates a signer in place of the default check (the signer info's key must derive the
   * signer's address and sign the SignDoc). Return true when the module took responsibility (it
   * verified the signature, e.g. with a registered authenticator selected by a `TxExtension`);
   * false to leave the signer to the default check; throw an {@link AbciError} to refuse the tx.
   * Sequence or timestamp-nonce checks and fees still apply.
   */
  authenticateSigner?(ctx: Context, signer: SignerCheck): boolean;
  /**
   * Runs after the ante step's signature and sequence checks, in the ante context, before the
   * messages (the real chain's clob rate-limit and clob decorators); throw an {@link AbciError} to
   * refuse the tx.
   */
  afterAnte?(ctx: Context, tx: DecodedTx): void;
  /** Rebuilds in-memory caches after the state was restored from bytes (state itself is in the store). */
  afterRestore?(ctx: QueryContext): void;
  /**
   * Messages the block proposer injects at the head of every block, one unsigned tx of them (clob:
   * its `MsgProposedOperations`), built in the block's delivery context (the module empties what
   * it proposes there). Such messages are refused in user txs.
   */
  proposeMessages?(ctx: Context): readonly Any[];
  /** Runs after every block commits, on the fresh CheckTx state (clob: stateful orders enter the book). */
  afterCommit?(ctx: Context): void;
  /**
   * True for the keys of the module's slice (given without the `"<name>/"` prefix) that a real node
   * keeps in memory only (clob: short-term orders). The root store keeps them beside the committed
   * state: txs read, write and roll them back as any key, and gas is charged alike, but they are
   * not in the app hash nor in the exported state, so a restart drops them. The answer for a key
   * must never change.
   */
  volatileKey?(key: string): boolean;
  /**
   * Devnet control operations by name (`ChainControl.moduleControl`): each runs at once in a
   * delivery context over the committed state and returns a JSON-serialisable answer; a throw
   * changes nothing.
   */
  readonly control?: Readonly<
    Record<string, (ctx: Context, request: Readonly<Record<string, unknown>>) => unknown>
  >;
}

/** Dispatches messages and queries to modules; rejects duplicate routes at construction. */
export class Router {
  private readonly msgRoutes = new Map<string, MsgHandler>();
  private readonly queryRoutes = new Map<string, QueryHandler>();

  constructor(readonly modules: readonly Module[]) {
    const names = new Set<string>();
    for (const module of modules) {
      if (names.has(module.name)) throw new DevnetError("duplicate-route", `duplicate module ${module.name}`);
      names.add(module.name);
      for (const handler of module.msgs ?? []) {
        const typeUrl = handler.typeUrl;
        if (this.msgRoutes.has(typeUrl))
          throw new DevnetError("duplicate-route", `duplicate message route ${typeUrl}`);
        this.msgRoutes.set(typeUrl, handler);
      }
      for (const [path, handler] of Object.entries(module.queries ?? {})) {
        if (this.queryRoutes.has(path))
          throw new DevnetError("duplicate-route", `duplicate query route ${path}`);
        this.queryRoutes.set(path, handler);
      }
    }
  }

  /** The handler of a message type URL, or undefined. */
  msg(typeUrl: string): MsgHandler | undefined {
    return this.msgRoutes.get(typeUrl);
  }

  /** The handler of a query path, or undefined. */
  query(path: string): QueryHandler | undefined {
    return this.queryRoutes.get(path);
  }

  /**
   * Asks every module, in order, whether it authenticates this signer (see
   * {@link Module.authenticateSigner}); every module is asked, so one authenticating the signer
   * never skips another's checks (the clob's message rules run for smart-account txs too).
   */
  authenticateSigner(ctx: Context, signer: SignerCheck): boolean {
    let authenticated = false;
    for (const module of this.modules) {
      if (module.authenticateSigner?.(ctx, signer) === true) authenticated = true;
    }
    return authenticated;
  }

  /** Runs every module's {@link Module.afterAnte}, in module order. */
  afterAnte(ctx: Context, tx: DecodedTx): void {
    for (const module of this.modules) module.afterAnte?.(ctx, tx);
  }

  /** Adds a query route served outside modules (the app's own tx/tendermint services). */
  addQuery(path: string, handler: QueryHandler): void {
    if (this.queryRoutes.has(path)) throw new DevnetError("duplicate-route", `duplicate query route ${path}`);
    this.queryRoutes.set(path, handler);
  }

  /** Every query path, sorted. */
  queryPaths(): string[] {
    return [...this.queryRoutes.keys()].sort();
  }

  /** The policy for a tx's messages: the defaults, with every module's relaxation merged in. */
  txPolicy(typeUrls: readonly string[], msgs: readonly unknown[] = []): TxPolicy {
    let policy: TxPolicy = {
      chargeFees: true,
      checkSequence: true,
      meterGas: true,
      checkRunsMessages: false,
      enterBlock: true,
    };
    for (const module of this.modules) {
      const relaxed = module.txPolicy?.(typeUrls, msgs);
      if (relaxed !== undefined) policy = { ...policy, ...relaxed };
    }
    return policy;
  }
}

/** A query error as the SDK's gRPC bridge reports it: `rpc error: code = NotFound desc = <d>: key not found` (sdk 22). */
export function notFound(description: string): AbciError {
  return abciError(sdkErrors.keyNotFound, `rpc error: code = NotFound desc = ${description}`);
}

/** An invalid-argument query error (sdk 18). */
export function invalidArgument(description: string): AbciError {
  return abciError(sdkErrors.invalidRequest, `rpc error: code = InvalidArgument desc = ${description}`);
}
