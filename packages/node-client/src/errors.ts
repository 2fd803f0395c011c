import { errorGuard, isPerpxError, PerpxError, type PerpxErrorOptions, redactSecrets } from "@perpx/errors";
import { chainErrorOfLog } from "./chainErrors.js";

/**
 * Why the chain refused a transaction, as far as the client can tell from the ABCI code and codespace.
 *
 * - `sequence-mismatch`: sdk 32, wrong account sequence (or a timestamp nonce out of bounds);
 *   see {@link SequenceMismatchError}.
 * - `insufficient-funds`: sdk 5. - `insufficient-fee`: sdk 13. - `out-of-gas`: sdk 11.
 * - `unauthorized`: sdk 4 (bad signature, wrong account number or chain id), or an authenticator
 *   that refused (`dydxaccountplus` codespace, or `accountplus`).
 * - `tx-in-mempool`: sdk 19, the very same tx is already waiting.
 * - `clob`: any error of the `clob` codespace; `clobError` names it.
 * - `other`: anything else; read `codespace`, `abciCode` and `log`.
 *
 * @example
 * ```ts
 * if (error.reason === "insufficient-fee") retryWithHigherPrice();
 * ```
 */
export type BroadcastFailureReason =
  | "sequence-mismatch"
  | "insufficient-funds"
  | "insufficient-fee"
  | "out-of-gas"
  | "unauthorized"
  | "tx-in-mempool"
  | "clob"
  | "other";

/**
 * Names of the clob errors (codespace `clob`) a trader meets, by ABCI code (chain-protocol 1.10).
 *
 * @example
 * ```ts
 * CLOB_ERRORS[3006]; // "stateful-order-does-not-exist"
 * ```
 */
export const CLOB_ERRORS = {
  2: "order-does-not-exist",
  7: "order-is-canceled",
  8: "invalid-clob-pair",
  9: "cancel-already-exists",
  10: "good-til-block-too-low",
  11: "good-til-block-beyond-window",
  12: "invalid-place-order",
  20: "invalid-replacement",
  24: "order-fully-filled",
  34: "conflicts-with-pair-status",
  46: "batch-cancel-failed",
  47: "clob-not-initialized",
  48: "deprecated-field",
  50: "invalid-builder-code",
  2001: "reduce-only-would-increase-position",
  2002: "reduce-only-would-change-side",
  2003: "post-only-would-cross",
  2004: "immediate-or-cancel-already-filled",
  3000: "invalid-order-flags",
  3001: "invalid-good-til-block-time",
  3002: "stateful-order-cannot-be-ioc",
  3003: "good-til-block-time-too-low",
  3004: "good-til-block-time-beyond-window",
  3005: "stateful-order-already-exists",
  3006: "stateful-order-does-not-exist",
  3007: "collateralization-check-failed",
  5001: "block-rate-limit-exceeded",
  6000: "invalid-condition-type",
  6001: "invalid-conditional-trigger",
  9003: "reduce-only-requires-ioc",
  10001: "equity-tier-limit",
} as const satisfies Record<number, string>;

/**
 * The clob codes by name: the inverse of {@link CLOB_ERRORS}, for branching on a code by its name.
 *
 * @example
 * ```ts
 * if (error.codespace === "clob" && error.abciCode === CLOB_CODES["post-only-would-cross"]) repriceAsTaker();
 * ```
 */
export const CLOB_CODES: { readonly [Name in ClobErrorName]: number } = Object.freeze(
  Object.fromEntries(Object.entries(CLOB_ERRORS).map(([code, name]) => [name, Number(code)])) as {
    [Name in ClobErrorName]: number;
  },
);

/**
 * A clob error name from {@link CLOB_ERRORS}.
 *
 * @example
 * ```ts
 * const name: ClobErrorName = "post-only-would-cross";
 * ```
 */
export type ClobErrorName = (typeof CLOB_ERRORS)[keyof typeof CLOB_ERRORS];

/**
 * What the chain said about a refused transaction.
 *
 * @example
 * ```ts
 * new BroadcastTxError({ abciCode: 5, codespace: "sdk", log, txHash, phase: "checkTx" });
 * ```
 */
export interface BroadcastTxErrorParameters {
  /** The ABCI code (non-zero). */
  abciCode: number;
  /** The codespace (`sdk`, `clob`, ...). */
  codespace: string;
  /** The chain's log text. */
  log: string;
  /** Uppercase hex tx hash. */
  txHash: string;
  /**
   * `simulate`: the simulation before signing refused it (nothing was sent); `checkTx`: CheckTx
   * refused it (never in a block); `deliverTx`: it failed in a block (fee charged, sequence used).
   * The same refusal carries the same codespace and code in every phase.
   */
  phase: "simulate" | "checkTx" | "deliverTx";
  /** The block height, for `deliverTx` failures. */
  height?: bigint | undefined;
  /** Gas wanted and used, when reported. */
  gasWanted?: bigint | undefined;
  gasUsed?: bigint | undefined;
}

/** The codespaces an account's authenticators refuse in. */
const AUTHENTICATOR_CODESPACES: ReadonlySet<string> = new Set(["dydxaccountplus", "accountplus"]);

/**
 * Classifies an ABCI failure.
 *
 * @example
 * ```ts
 * broadcastFailureReason(32, "sdk"); // "sequence-mismatch"
 * ```
 */
export function broadcastFailureReason(abciCode: number, codespace: string): BroadcastFailureReason {
  if (codespace === "sdk" || codespace === "") {
    switch (abciCode) {
      case 3:
      case 32:
        return "sequence-mismatch";
      case 4:
        return "unauthorized";
      case 5:
        return "insufficient-funds";
      case 11:
        return "out-of-gas";
      case 13:
        return "insufficient-fee";
      case 19:
        return "tx-in-mempool";
      default:
        return "other";
    }
  }
  if (codespace === "clob") return "clob";
  if (AUTHENTICATOR_CODESPACES.has(codespace)) return "unauthorized";
  return "other";
}

/**
 * The chain refused a transaction (CheckTx) or executed it with a non-zero code. `code` is the
 * perpx error code `BROADCAST_TX`; the chain's own numeric code is `abciCode`, with `codespace`,
 * `log`, `txHash` and a classified `reason`.
 *
 * @example
 * ```ts
 * try {
 *   await sendTx(client, { signer, messages });
 * } catch (error) {
 *   if (isBroadcastTxError(error) && error.reason === "insufficient-funds") topUp();
 * }
 * ```
 */
export class BroadcastTxError extends PerpxError {
  override name = "BroadcastTxError";
  /** The ABCI code (non-zero). */
  readonly abciCode: number;
  /** The codespace (`sdk`, `clob`, ...). */
  readonly codespace: string;
  /** The chain's log text. */
  readonly log: string;
  /** Uppercase hex tx hash; look it up with `getTx` for `deliverTx` failures. */
  readonly txHash: string;
  /** `simulate` (nothing sent), `checkTx` (never in a block) or `deliverTx` (in a block: fee charged, sequence used). */
  readonly phase: "simulate" | "checkTx" | "deliverTx";
  /** The block height, for `deliverTx` failures. */
  readonly height: bigint | undefined;
  /** Gas wanted, when reported. */
  readonly gasWanted: bigint | undefined;
  /** Gas used, when reported. */
  readonly gasUsed: bigint | undefined;
  /** The classified reason. */
  readonly reason: BroadcastFailureReason;
  /** For `reason === "clob"`: the clob error's name, when known. */
  readonly clobError: ClobErrorName | undefined;

  /**
   * @param parameters - what the chain said.
   * @param options - cause and details; `summary` is appended to the one-line message.
   */
  constructor(
    parameters: BroadcastTxErrorParameters,
    options: PerpxErrorOptions & { summary?: string } = {},
  ) {
    const reason = broadcastFailureReason(parameters.abciCode, parameters.codespace);
    const clobError =
      reason === "clob" ? (CLOB_ERRORS as Record<number, ClobErrorName>)[parameters.abciCode] : undefined;
    const { summary, ...rest } = options;
    super(
      "BROADCAST_TX",
      `Transaction ${parameters.phase === "checkTx" ? "refused" : parameters.phase === "simulate" ? "simulation failed" : "failed"} (${parameters.codespace || "sdk"} ${parameters.abciCode}${clobError ? ` ${clobError}` : reason === "other" || reason === "clob" ? "" : ` ${reason}`})${summary ? `: ${summary}` : ""}`,
      {
        metaMessages: [
          `tx hash: ${parameters.txHash}`,
          ...(parameters.height === undefined ? [] : [`height: ${parameters.height}`]),
          `log: ${parameters.log}`,
        ],
        ...rest,
      },
    );
    this.abciCode = parameters.abciCode;
    this.codespace = parameters.codespace;
    this.log = parameters.log;
    this.txHash = parameters.txHash;
    this.phase = parameters.phase;
    this.height = parameters.height;
    this.gasWanted = parameters.gasWanted;
    this.gasUsed = parameters.gasUsed;
    this.reason = reason;
    this.clobError = clobError;
  }
}

/**
 * A sequence mismatch (sdk 32): the chain expected another account sequence. `expected` and `got`
 * are parsed from the log (`account sequence mismatch, expected 7, got 6`) when it has them.
 *
 * @example
 * ```ts
 * if (isSequenceMismatchError(error)) console.log(error.expected, error.got);
 * ```
 */
export class SequenceMismatchError extends BroadcastTxError {
  override name = "SequenceMismatchError";
  /** The sequence the chain expected, when the log says. */
  readonly expected: bigint | undefined;
  /** The sequence the tx carried, when the log says. */
  readonly got: bigint | undefined;

  /** @param parameters - what the chain said. */
  constructor(parameters: BroadcastTxErrorParameters, options: PerpxErrorOptions = {}) {
    super(parameters, options);
    const parsed = parseSequenceMismatch(parameters.log);
    this.expected = parsed?.expected;
    this.got = parsed?.got;
  }
}

/**
 * Parses `expected N, got M` out of a sequence-mismatch log.
 *
 * @example
 * ```ts
 * parseSequenceMismatch("account sequence mismatch, expected 7, got 6: incorrect account sequence"); // { expected: 7n, got: 6n }
 * ```
 */
export function parseSequenceMismatch(log: string): { expected: bigint; got: bigint } | undefined {
  const match = /expected (\d+), got (\d+)/.exec(log);
  return match ? { expected: BigInt(match[1]!), got: BigInt(match[2]!) } : undefined;
}

/**
 * Which check of an account's authenticator refused a transaction.
 *
 * @example
 * ```ts
 * if (error.check === "message-type") console.error("a trading key may only place and cancel orders");
 * ```
 */
export type AuthenticatorCheck =
  | "signature"
  | "message-type"
  | "clob-pair"
  | "subaccount"
  | "not-found"
  | "inactive"
  | "other";

const AUTHENTICATOR_LEAVES: ReadonlyArray<[string, AuthenticatorCheck]> = [
  ["signature verification failed", "signature"],
  ["message type verification failed", "message-type"],
  ["clob pair id verification failed", "clob-pair"],
  ["subaccount verification failed", "subaccount"],
  ["authenticator not found", "not-found"],
  ["smart account is not active", "inactive"],
];
const LEAF = new RegExp(
  `(?:^|: |; )([^:;]+): (${AUTHENTICATOR_LEAVES.map(([description]) => description).join("|")})`,
  "g",
);

/**
 * What an authenticator's log says: the check that refused and the reasons of its failing leaves.
 *
 * @example
 * ```ts
 * parseAuthenticatorRefusal("sub-authenticator failed to authenticate: subaccount number 1 not in allowed list 0: subaccount verification failed: AllOf verification failed");
 * // { check: "subaccount", reason: "subaccount number 1 not in allowed list 0" }
 * ```
 */
export function parseAuthenticatorRefusal(log: string): { check: AuthenticatorCheck; reason: string } {
  const leaves = [...log.matchAll(LEAF)];
  if (leaves.length === 0) return { check: "other", reason: log };
  const check = AUTHENTICATOR_LEAVES.find(([description]) => description === leaves[0]![2])![1];
  return { check, reason: [...new Set(leaves.map((leaf) => leaf[1]!.trim()))].join("; ") };
}

/**
 * The account's authenticator refused a transaction (codespace `dydxaccountplus`): a trading key
 * used outside its scope (a message type, a subaccount or a market it may not touch), a wrong
 * signature, or an authenticator id that does not exist. `check` says which check refused and
 * `authenticatorReason` what it said, whichever phase found it (simulation, CheckTx, DeliverTx).
 *
 * @example
 * ```ts
 * if (isAuthenticatorRefusedError(error)) console.error(error.check, error.authenticatorReason);
 * ```
 */
export class AuthenticatorRefusedError extends BroadcastTxError {
  override name = "AuthenticatorRefusedError";
  /** Which check refused. */
  readonly check: AuthenticatorCheck;
  /** What the failing checks said, e.g. `message types do not match. Got /cosmos.bank.v1beta1.MsgSend, ...`. */
  readonly authenticatorReason: string;

  /** @param parameters - what the chain said. */
  constructor(parameters: BroadcastTxErrorParameters, options: PerpxErrorOptions = {}) {
    const { check, reason } = parseAuthenticatorRefusal(parameters.log);
    super(parameters, { ...options, summary: `the authenticator refused it (${check}): ${reason}` });
    this.check = check;
    this.authenticatorReason = reason;
  }
}

/**
 * True for an {@link AuthenticatorRefusedError}.
 *
 * @example
 * ```ts
 * if (isAuthenticatorRefusedError(error) && error.check === "message-type") useTheOwnerKey();
 * ```
 */
export const isAuthenticatorRefusedError = errorGuard<AuthenticatorRefusedError>("AuthenticatorRefusedError");

/**
 * Builds the right error class for a failure: {@link SequenceMismatchError} for sdk 32,
 * {@link AuthenticatorRefusedError} for the authenticator's codespace, else {@link BroadcastTxError}.
 *
 * @example
 * ```ts
 * throw broadcastTxError({ abciCode: 5, codespace: "sdk", log, txHash, phase: "checkTx" });
 * ```
 */
export function broadcastTxError(
  parameters: BroadcastTxErrorParameters,
  options: PerpxErrorOptions = {},
): BroadcastTxError {
  if (broadcastFailureReason(parameters.abciCode, parameters.codespace) === "sequence-mismatch") {
    return new SequenceMismatchError(parameters, options);
  }
  if (AUTHENTICATOR_CODESPACES.has(parameters.codespace))
    return new AuthenticatorRefusedError(parameters, options);
  return new BroadcastTxError(parameters, options);
}

/**
 * The sdk root error a log ends with (`...: insufficient funds` -> 5), for failures reported
 * without a code (gRPC status messages); a simulation envelope (`... With gas wanted: ...`) is
 * ignored. See {@link chainErrorOfLog} for every codespace.
 *
 * @example
 * ```ts
 * sdkCodeFromLog("spendable balance 0uusdc is smaller than 5uusdc: insufficient funds"); // 5
 * ```
 */
export function sdkCodeFromLog(log: string): number | undefined {
  const known = chainErrorOfLog(log.split(" With gas wanted:")[0]!.trim(), ["sdk"]);
  return known?.codespace === "sdk" ? known.code : undefined;
}

/**
 * True for a {@link BroadcastTxError} or any subclass (by perpx code, across package copies).
 *
 * @example
 * ```ts
 * if (isBroadcastTxError(error)) console.log(error.txHash);
 * ```
 */
export function isBroadcastTxError(value: unknown): value is BroadcastTxError {
  return isPerpxError(value) && value.code === "BROADCAST_TX";
}

/**
 * True for a {@link SequenceMismatchError}.
 *
 * @example
 * ```ts
 * if (isSequenceMismatchError(error)) console.log(error.expected);
 * ```
 */
export const isSequenceMismatchError = errorGuard<SequenceMismatchError>("SequenceMismatchError");

/**
 * What a node said about a failed query.
 *
 * @example
 * ```ts
 * new QueryError({ path: "/cosmos.bank.v1beta1.Query/Balance", transport: "grpc", grpcCode: 5, log: "not found" });
 * ```
 */
export interface QueryErrorParameters {
  /** The method or path queried, e.g. `/cosmos.auth.v1beta1.Query/Account`. */
  path: string;
  /** Which transport carried it. */
  transport: "grpc" | "rpc" | "rest";
  /** The ABCI code, when known (`abci_query`); gRPC status codes are mapped as the SDK maps them. */
  abciCode?: number | undefined;
  /** The codespace, when known. */
  codespace?: string | undefined;
  /** The node's message. */
  log: string;
  /** HTTP status, for REST. */
  httpStatus?: number | undefined;
  /** gRPC status code (connect `Code`), for gRPC. */
  grpcCode?: number | undefined;
}

/**
 * A node answered a query with an error. `notFound` is true for "key not found" answers, told by
 * their codes only (sdk 22, gRPC NotFound, HTTP 404), never by the log's wording.
 *
 * @example
 * ```ts
 * try { await getAccount(client, { address }); } catch (e) { if (isQueryError(e) && e.notFound) ... }
 * ```
 */
export class QueryError extends PerpxError {
  override name = "QueryError";
  /** The method or path queried. */
  readonly path: string;
  /** Which transport carried it. */
  readonly transport: "grpc" | "rpc" | "rest";
  /** The ABCI code, when known. */
  readonly abciCode: number | undefined;
  /** The codespace, when known. */
  readonly codespace: string | undefined;
  /** The node's message. */
  readonly log: string;
  /** HTTP status, for REST. */
  readonly httpStatus: number | undefined;
  /** gRPC status code, for gRPC. */
  readonly grpcCode: number | undefined;
  /** True when the node said the thing does not exist. */
  readonly notFound: boolean;

  /** @param parameters - what the node said. */
  constructor(parameters: QueryErrorParameters, options: PerpxErrorOptions = {}) {
    super("QUERY", `Query ${parameters.path} failed over ${parameters.transport}`, {
      metaMessages: [
        ...(parameters.abciCode === undefined
          ? []
          : [`code: ${parameters.codespace ?? "sdk"} ${parameters.abciCode}`]),
        ...(parameters.httpStatus === undefined ? [] : [`HTTP status: ${parameters.httpStatus}`]),
        `log: ${parameters.log}`,
      ],
      ...options,
    });
    this.path = parameters.path;
    this.transport = parameters.transport;
    this.abciCode = parameters.abciCode;
    this.codespace = parameters.codespace;
    this.log = parameters.log;
    this.httpStatus = parameters.httpStatus;
    this.grpcCode = parameters.grpcCode;
    this.notFound =
      ((parameters.codespace ?? "sdk") === "sdk" && parameters.abciCode === 22) ||
      parameters.grpcCode === 5 ||
      parameters.httpStatus === 404;
  }
}

/**
 * True for a {@link QueryError}.
 *
 * @example
 * ```ts
 * if (isQueryError(error) && error.notFound) return undefined;
 * ```
 */
export const isQueryError = errorGuard<QueryError>("QueryError");

/**
 * A network-level failure reaching a node (refused, reset, DNS, TLS, a non-JSON answer).
 *
 * @example
 * ```ts
 * if (isTransportError(error)) retryLater();
 * ```
 */
export class TransportError extends PerpxError {
  override name = "TransportError";
  /** Which transport failed. */
  readonly transport: "grpc" | "rpc" | "rest";
  /** The endpoint, when known. */
  readonly url: string | undefined;

  /**
   * @param transport - which transport failed.
   * @param problem - what happened.
   * @param options - `url` and the cause.
   */
  constructor(
    transport: "grpc" | "rpc" | "rest",
    problem: string,
    options: PerpxErrorOptions & { url?: string } = {},
  ) {
    const { url, ...rest } = options;
    super("TRANSPORT", `${transport.toUpperCase()} request failed: ${problem}`, {
      ...(url ? { metaMessages: [`url: ${url}`] } : {}),
      ...rest,
    });
    this.transport = transport;
    this.url = url === undefined ? undefined : redactSecrets(url);
  }
}

/**
 * True for a {@link TransportError}.
 *
 * @example
 * ```ts
 * if (isTransportError(error)) console.log(error.url);
 * ```
 */
export const isTransportError = errorGuard<TransportError>("TransportError");
