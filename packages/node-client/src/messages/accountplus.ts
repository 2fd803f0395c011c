import { create } from "@bufbuild/protobuf";
import { type IntegerInput, InvalidArgumentError } from "@perpx/core";
import { accountplus, clob, typeUrlOf } from "@perpx/proto";
import { toBase64 } from "../bytes.js";
import type { TxMessage } from "../tx/encode.js";
import { bech32Address, checkParams, uint64 } from "./validate.js";

/**
 * The authenticator types the chain knows.
 *
 * @example
 * ```ts
 * const type: AuthenticatorType = "SubaccountFilter";
 * ```
 */
export type AuthenticatorType =
  | "SignatureVerification"
  | "MessageFilter"
  | "SubaccountFilter"
  | "ClobPairIdFilter"
  | "AllOf"
  | "AnyOf";

/**
 * The largest authenticator config the chain accepts, in bytes.
 *
 * @example
 * ```ts
 * const config = encodeAuthenticatorConfig(tradingKeyAuthenticator(LocalWallet.generate().publicKey));
 * config.length <= MAX_AUTHENTICATOR_DATA_BYTES; // true
 * ```
 */
export const MAX_AUTHENTICATOR_DATA_BYTES = 1024;

/**
 * An authenticator tree, as a value: leaves carry their config, `AllOf` / `AnyOf` their children.
 *
 * @example
 * ```ts
 * const node: AuthenticatorNode = { type: "SubaccountFilter", config: "0" };
 * ```
 */
export type AuthenticatorNode =
  | { type: "SignatureVerification"; publicKey: Uint8Array }
  | { type: "MessageFilter"; typeUrls: readonly string[] }
  | { type: "SubaccountFilter"; config: string }
  | { type: "ClobPairIdFilter"; config: string }
  | { type: "AllOf" | "AnyOf"; children: readonly AuthenticatorNode[] };

const utf8 = new TextEncoder();

/**
 * The config bytes of an authenticator node: the raw 33-byte key, comma-separated type URLs or
 * numbers (UTF-8), or for `AllOf`/`AnyOf` UTF-8 JSON `[{"type","config": base64}]`.
 *
 * @param node - one node of an authenticator tree (a signature key, a message or subaccount filter,
 *   or an `AllOf`/`AnyOf` of nodes).
 * @returns the bytes the chain stores as that node's config; for `AllOf`/`AnyOf`, the JSON list of
 *   its children's type and config.
 * @throws {InvalidArgumentError} for a composite with fewer than two children or a key that is not 33 bytes.
 *
 * @example
 * ```ts
 * encodeAuthenticatorConfig({ type: "SubaccountFilter", config: "0" }); // bytes of "0"
 * ```
 */
export function encodeAuthenticatorConfig(node: AuthenticatorNode): Uint8Array {
  switch (node.type) {
    case "SignatureVerification":
      if (!(node.publicKey instanceof Uint8Array) || node.publicKey.length !== 33) {
        throw new InvalidArgumentError(
          "publicKey",
          "SignatureVerification needs a 33-byte compressed secp256k1 key",
        );
      }
      return node.publicKey;
    case "MessageFilter":
      return utf8.encode(node.typeUrls.join(","));
    case "SubaccountFilter":
    case "ClobPairIdFilter":
      return utf8.encode(node.config);
    case "AllOf":
    case "AnyOf": {
      if (node.children.length < 2) throw new InvalidArgumentError(node.type, "needs at least two children");
      const json = node.children.map((child) => ({
        type: child.type,
        config: toBase64(encodeAuthenticatorConfig(child)),
      }));
      return utf8.encode(JSON.stringify(json));
    }
    default:
      throw new InvalidArgumentError(
        "type",
        `unknown authenticator type ${JSON.stringify((node as { type: unknown }).type)}`,
      );
  }
}

/**
 * The authenticator of a trading key with the specification's scope: it may place, cancel and
 * batch-cancel orders on subaccount 0 only, signed by `publicKey`:
 * `AllOf[SignatureVerification(key), AnyOf[MessageFilter(place), MessageFilter(cancel), MessageFilter(batch cancel)], SubaccountFilter("0")]`.
 *
 * @param publicKey - the trading key's 33-byte compressed secp256k1 public key.
 * @returns the `AllOf` tree (signature key, place/cancel/batch-cancel message filter, subaccount 0
 *   filter) to pass to `addAuthenticatorMsg`.
 * @example
 * ```ts
 * const key = LocalWallet.generate();
 * const tree = tradingKeyAuthenticator(key.publicKey);
 * tree.type; // "AllOf"
 * ```
 */
export function tradingKeyAuthenticator(publicKey: Uint8Array): AuthenticatorNode {
  return {
    type: "AllOf",
    children: [
      { type: "SignatureVerification", publicKey },
      {
        type: "AnyOf",
        children: [
          { type: "MessageFilter", typeUrls: [typeUrlOf(clob.MsgPlaceOrderSchema)] },
          { type: "MessageFilter", typeUrls: [typeUrlOf(clob.MsgCancelOrderSchema)] },
          { type: "MessageFilter", typeUrls: [typeUrlOf(clob.MsgBatchCancelSchema)] },
        ],
      },
      { type: "SubaccountFilter", config: "0" },
    ],
  };
}

/**
 * Parameters of {@link addAuthenticatorMsg}.
 *
 * @example
 * ```ts
 * const key = LocalWallet.generate();
 * const params: AddAuthenticatorParams = { sender: wallet.address, authenticator: tradingKeyAuthenticator(key.publicKey) };
 * ```
 */
export interface AddAuthenticatorParams {
  /** The account that adds the authenticator (either address form); it signs. */
  sender: string;
  /** The authenticator tree. */
  authenticator: AuthenticatorNode;
}

/**
 * Builds a `MsgAddAuthenticator` from an authenticator tree.
 *
 * @param params - the message's fields in chain units (`AddAuthenticatorParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} (config longer than 1024 bytes, malformed tree) before anything is signed.
 *
 * @example
 * ```ts
 * const key = LocalWallet.generate();
 * const msg = addAuthenticatorMsg({ sender: wallet.address, authenticator: tradingKeyAuthenticator(key.publicKey) });
 * msg.typeUrl; // "/perpx.accountplus.v1.MsgAddAuthenticator"
 * ```
 */
export function addAuthenticatorMsg(
  params: AddAuthenticatorParams,
): TxMessage<typeof accountplus.MsgAddAuthenticatorSchema> {
  checkParams(params, "addAuthenticatorMsg");
  const data = encodeAuthenticatorConfig(params.authenticator);
  if (data.length > MAX_AUTHENTICATOR_DATA_BYTES) {
    throw new InvalidArgumentError(
      "authenticator",
      `config is ${data.length} bytes; at most ${MAX_AUTHENTICATOR_DATA_BYTES}`,
    );
  }
  return {
    typeUrl: typeUrlOf(accountplus.MsgAddAuthenticatorSchema),
    value: create(accountplus.MsgAddAuthenticatorSchema, {
      sender: bech32Address(params.sender),
      authenticatorType: params.authenticator.type,
      data,
    }),
  };
}

/**
 * Parameters of {@link removeAuthenticatorMsg}.
 *
 * @example
 * ```ts
 * const params: RemoveAuthenticatorParams = { sender: wallet.address, id: 3n };
 * ```
 */
export interface RemoveAuthenticatorParams {
  /** The account that owns the authenticator (either address form); it signs. */
  sender: string;
  /** The authenticator id. */
  id: IntegerInput;
}

/**
 * Builds a `MsgRemoveAuthenticator`.
 *
 * @param params - the message's fields in chain units (`RemoveAuthenticatorParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const msg = removeAuthenticatorMsg({ sender: wallet.address, id: 3n });
 * msg.value.id; // 3n
 * ```
 */
export function removeAuthenticatorMsg(
  params: RemoveAuthenticatorParams,
): TxMessage<typeof accountplus.MsgRemoveAuthenticatorSchema> {
  checkParams(params, "removeAuthenticatorMsg");
  return {
    typeUrl: typeUrlOf(accountplus.MsgRemoveAuthenticatorSchema),
    value: create(accountplus.MsgRemoveAuthenticatorSchema, {
      sender: bech32Address(params.sender),
      id: uint64(params.id, "id"),
    }),
  };
}
