/**
 * ABCI errors as the Cosmos SDK reports them: a codespace, a code and a log that reads
 * "<context>: <root description>". Modules throw {@link AbciError}; the application turns it into a
 * {@link TxResult} or {@link QueryResult}.
 */
import { PerpxError } from "@perpx/errors";

/** A registered root error: codespace, code and its short description. */
export interface ErrorKind {
  readonly codespace: string;
  readonly code: number;
  readonly description: string;
}

/** Registers an error kind (a plain value; the name mirrors `errorsmod.Register`). */
export function registerError(codespace: string, code: number, description: string): ErrorKind {
  return Object.freeze({ codespace, code, description });
}

/** The root errors of codespace `sdk` (cosmos-sdk `types/errors`), by their SDK names. */
export const sdkErrors = {
  txDecode: registerError("sdk", 2, "tx parse error"),
  invalidSequence: registerError("sdk", 3, "invalid sequence"),
  unauthorized: registerError("sdk", 4, "unauthorized"),
  insufficientFunds: registerError("sdk", 5, "insufficient funds"),
  unknownRequest: registerError("sdk", 6, "unknown request"),
  invalidAddress: registerError("sdk", 7, "invalid address"),
  invalidPubKey: registerError("sdk", 8, "invalid pubkey"),
  unknownAddress: registerError("sdk", 9, "unknown address"),
  invalidCoins: registerError("sdk", 10, "invalid coins"),
  outOfGas: registerError("sdk", 11, "out of gas"),
  memoTooLarge: registerError("sdk", 12, "memo too large"),
  insufficientFee: registerError("sdk", 13, "insufficient fee"),
  tooManySignatures: registerError("sdk", 14, "maximum number of signatures exceeded"),
  noSignatures: registerError("sdk", 15, "no signatures supplied"),
  invalidRequest: registerError("sdk", 18, "invalid request"),
  txInMempoolCache: registerError("sdk", 19, "tx already in mempool"),
  txTooLarge: registerError("sdk", 21, "tx too large"),
  keyNotFound: registerError("sdk", 22, "key not found"),
  invalidHeight: registerError("sdk", 26, "invalid height"),
  invalidChainId: registerError("sdk", 28, "invalid chain-id"),
  invalidType: registerError("sdk", 29, "invalid type"),
  txTimeoutHeight: registerError("sdk", 30, "tx timeout height"),
  unknownExtensionOptions: registerError("sdk", 31, "unknown extension options"),
  wrongSequence: registerError("sdk", 32, "incorrect account sequence"),
  logic: registerError("sdk", 35, "internal logic error"),
  notSupported: registerError("sdk", 37, "feature not supported"),
  notFound: registerError("sdk", 38, "not found"),
  invalidGasLimit: registerError("sdk", 41, "invalid gas limit"),
  panic: registerError("undefined", 111222, "panic"),
} as const;

/**
 * An error with an ABCI codespace and code. `log` is the full wrapped text
 * (`"<context>: <description>"`), exactly what the tx result or query result carries.
 */
export class AbciError extends PerpxError {
  override name = "AbciError";
  /** The module's codespace ("sdk", "bank", "clob", ...). */
  readonly codespace: string;
  /** The ABCI code within the codespace (a result's `code`). */
  readonly abciCode: number;
  /** The root description, without the wrapping context. */
  readonly description: string;
  /** The log text exactly as a result carries it (`message` is the same text, secrets redacted). */
  readonly log: string;

  /**
   * @param kind - the registered root error: codespace, code and description.
   * @param log - the whole wrapped text, `"<context>: <description>"`.
   */
  constructor(kind: ErrorKind, log: string) {
    super("DEVNET", log);
    this.codespace = kind.codespace;
    this.abciCode = kind.code;
    this.description = kind.description;
    this.log = log;
  }

  /** Wraps this error once more, like `errorsmod.Wrap`: "<context>: <previous log>". */
  wrap(context: string): AbciError {
    return new AbciError(
      { codespace: this.codespace, code: this.abciCode, description: this.description },
      `${context}: ${this.log}`,
    );
  }
}

/**
 * Builds an {@link AbciError} with the SDK's wrapping: `"<context>: <description>"`, or just the
 * description without context.
 *
 * @example
 * ```ts
 * abciError(sdkErrors.wrongSequence, "account sequence mismatch, expected 7, got 6").log;
 * // "account sequence mismatch, expected 7, got 6: incorrect account sequence"
 * ```
 */
export function abciError(kind: ErrorKind, context?: string): AbciError {
  return new AbciError(
    kind,
    context === undefined || context === "" ? kind.description : `${context}: ${kind.description}`,
  );
}

/** True for an {@link AbciError} (also across module copies, by name). */
export function isAbciError(error: unknown): error is AbciError {
  return error instanceof AbciError || (error instanceof Error && error.name === "AbciError");
}

/**
 * Turns anything thrown by a handler into an {@link AbciError}: ABCI errors pass through, anything
 * else becomes the SDK's panic recovery error (codespace "undefined", code 111222) with its message.
 */
export function toAbciError(error: unknown): AbciError {
  if (isAbciError(error)) return error;
  const text = error instanceof Error ? error.message : String(error);
  return abciError(sdkErrors.panic, `recovered: ${text}`);
}
