import { errorGuard, PerpxError, type PerpxErrorOptions } from "@perpx/errors";

/**
 * A type URL that no perpx registry knows (neither a perpx module message nor one of the Cosmos,
 * CometBFT and IBC messages `@perpx/proto` ships). Code `UNKNOWN_TYPE_URL`.
 *
 * @example
 * ```ts
 * import { isUnknownTypeUrlError, schemaOf } from "@perpx/proto";
 * try {
 *   schemaOf("/perpx.clob.v1.MsgDoesNotExist");
 * } catch (error) {
 *   if (isUnknownTypeUrlError(error)) console.error(error.typeUrl);
 * }
 * ```
 */
export class UnknownTypeUrlError extends PerpxError {
  override name = "UnknownTypeUrlError";
  /** The type URL that was looked up. */
  readonly typeUrl: string;

  /**
   * @param typeUrl - the type URL that was not found.
   * @param options - cause, details and meta lines.
   */
  constructor(typeUrl: string, options: PerpxErrorOptions = {}) {
    super("UNKNOWN_TYPE_URL", `Unknown protobuf type URL "${typeUrl}"`, {
      metaMessages: ['Type URLs look like "/perpx.clob.v1.MsgPlaceOrder".'],
      ...options,
    });
    this.typeUrl = typeUrl;
  }
}

/**
 * True when `value` is an {@link UnknownTypeUrlError}, across duplicated package copies.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * import { schemaOf } from "@perpx/proto";
 * try {
 *   schemaOf("/perpx.nope.v1.MsgNothing");
 * } catch (error) {
 *   isUnknownTypeUrlError(error) && error.typeUrl; // "/perpx.nope.v1.MsgNothing"
 * }
 * ```
 */
export const isUnknownTypeUrlError = errorGuard<UnknownTypeUrlError>("UnknownTypeUrlError");

/**
 * Bytes that do not decode as the expected protobuf message, or an `Any` whose type URL is not
 * the one expected. Code `DECODE`; the protobuf-es error, when there is one, is the `cause`.
 *
 * @example
 * ```ts
 * import { create } from "@bufbuild/protobuf";
 * import { cosmosBank, cosmosTx, isProtoDecodeError, packAny, unpackAny } from "@perpx/proto";
 *
 * const any = packAny(cosmosBank.MsgSendSchema, create(cosmosBank.MsgSendSchema));
 * try {
 *   unpackAny(any, cosmosTx.TxBodySchema);
 * } catch (error) {
 *   isProtoDecodeError(error) && error.typeName; // "cosmos.tx.v1beta1.TxBody"
 * }
 * ```
 */
export class ProtoDecodeError extends PerpxError {
  override name = "ProtoDecodeError";
  /** The fully qualified name of the message that was being decoded, e.g. `cosmos.tx.v1beta1.TxRaw`. */
  readonly typeName: string;

  /**
   * @param typeName - the message being decoded.
   * @param problem - what went wrong.
   * @param options - cause, details and meta lines.
   */
  constructor(typeName: string, problem: string, options: PerpxErrorOptions = {}) {
    super("DECODE", `Cannot decode ${typeName}: ${problem}`, options);
    this.typeName = typeName;
  }
}

/**
 * True when `value` is a {@link ProtoDecodeError}, across duplicated package copies.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * import { cosmosBank, decodeMessage } from "@perpx/proto";
 * try {
 *   decodeMessage(cosmosBank.MsgSendSchema, Uint8Array.of(0x0a, 0x05));
 * } catch (error) {
 *   isProtoDecodeError(error) && error.typeName; // "cosmos.bank.v1beta1.MsgSend"
 * }
 * ```
 */
export const isProtoDecodeError = errorGuard<ProtoDecodeError>("ProtoDecodeError");
