/** A refused transaction: its parameters, its classified reason and {@link BroadcastTxError}. */
import { isPerpxError, PerpxError, type PerpxErrorOptions } from "@perpx/errors";
import { CLOB_ERRORS, type ClobErrorName } from "./clob.js";

/**
 * Why the chain refused a transaction, as far as the client can tell from the ABCI code and codespace.
 *
 * - `sequence-mismatch`: sdk 32, wrong account sequence (or a timestamp nonce out of bounds);
 *   see {@link SequenceMismatchError}.
 * - `insufficient-funds`: sdk 5. - `insufficient-fee`: sdk 13. - `out-of-gas`: sdk 11.
 * - `unauthorized`: sdk 4 (bad signature, wrong account number or chain id), or an authenticator
 *   that refused (`dydxaccountplus` codespace, or `accountplus`).
 * - `tx-in-mempool`: sdk 19, the node saw the very same tx bytes already (CometBFT's mempool cache:
 *   waiting, or in a block already; over RPC the JSON-RPC error "tx already exists in cache").
 * - `clob`: any error of the `clob` codespace; `clobError` names it.
 * - `other`: anything else; read `codespace`, `abciCode` and `log`.
 *
 * @example
 * ```ts
 * const error = new BroadcastTxError({ abciCode: 13, codespace: "sdk", log: "insufficient fee", txHash: "AB12", phase: "checkTx" });
 * error.reason; // "insufficient-fee"
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
 * What the chain said about a refused transaction.
 *
 * @example
 * ```ts
 * const parameters: BroadcastTxErrorParameters = {
 *   abciCode: 5, codespace: "sdk", log: "insufficient funds", txHash: "AB12", phase: "checkTx",
 * };
 * new BroadcastTxError(parameters).message; // "Transaction refused (sdk 5 insufficient-funds)\n\ntx hash: AB12\nlog: insufficient funds"
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
export const AUTHENTICATOR_CODESPACES: ReadonlySet<string> = new Set(["dydxaccountplus", "accountplus"]);

/**
 * Classifies an ABCI failure.
 *
 * @param abciCode - the ABCI code of the failed CheckTx or DeliverTx (0 never fails).
 * @param codespace - the module that reported it (`sdk`, `clob`, ...).
 * @returns a closed reason (`insufficient-funds`, `sequence-mismatch`, `out-of-gas`...) to branch
 *   on, or `other`; never derived from the log's wording.
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
 * const tooMuch = bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 10n ** 30n }] });
 * const error = await client.sendTx({ signer: wallet, messages: [tooMuch] }).catch((e: unknown) => e);
 * isBroadcastTxError(error) && [error.reason, error.phase]; // ["insufficient-funds", "simulate"]
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
 * True for a {@link BroadcastTxError} or any subclass (by perpx code, across package copies).
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by error name,
 *   so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * const error = broadcastTxError({ abciCode: 32, codespace: "sdk", log: "", txHash: "AB12", phase: "checkTx" });
 * isBroadcastTxError(error); // true: a SequenceMismatchError is one too
 * isBroadcastTxError(new Error("no")); // false
 * ```
 */
export function isBroadcastTxError(value: unknown): value is BroadcastTxError {
  return isPerpxError(value) && value.code === "BROADCAST_TX";
}
