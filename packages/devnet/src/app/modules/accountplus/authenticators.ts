/**
 * Authenticators of accountplus (permissioned keys), pure: the seven types, their config encodings
 * (chain-protocol.md 4.2), the safety rule, and the check of one message against a tree.
 *
 * | type | config bytes |
 * |---|---|
 * | `SignatureVerification` | 33-byte compressed secp256k1 key; verifies ECDSA over SHA-256 of the sign bytes |
 * | `EthAddressSignatureVerification` | the **raw 20 address bytes** of an EVM key (not `0x` text); verifies an eth_secp256k1-style signature (ECDSA over Keccak-256 of the sign bytes, 65 bytes `r‖s‖v` or 64 bytes `r‖s`) recovering to that address |
 * | `MessageFilter` | UTF-8 type URLs, comma-separated; the message's type URL must be one of them |
 * | `SubaccountFilter` | UTF-8 decimal subaccount numbers (uint32), comma-separated |
 * | `ClobPairIdFilter` | UTF-8 decimal clob pair ids (uint32), comma-separated |
 * | `AllOf` / `AnyOf` | UTF-8 JSON array of `{"type", "config": base64}`, at least 2 entries, nested at most {@link MAX_DEPTH} levels |
 *
 * Numbers are canonical decimals (no sign, no leading zeros, no spaces), so every config that parses
 * re-encodes to the same bytes.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import type { clob } from "@perpx/proto";
import { verifyEthSignature } from "../../../lib/evm/eip712.js";
import { fromBase64, toBase64, utf8 } from "../../lib/codec.js";
import { isValidCompressedKey, verifySignature } from "../../lib/crypto.js";
import { AbciError, abciError, type ErrorKind, registerError } from "../../lib/errors.js";
import { BATCH_CANCEL_URL, CANCEL_ORDER_URL, PLACE_ORDER_URL } from "../msg-type-urls.js";

/** The codespace of accountplus errors (the module is `accountplus`, the codespace is not). */
export const ACCOUNTPLUS_CODESPACE = "dydxaccountplus";

/** accountplus errors (chain-protocol.md 4.2). */
export const accountPlusErrors = {
  authenticatorNotFound: registerError(ACCOUNTPLUS_CODESPACE, 1, "Authenticator is not found"),
  invalidAccountAddress: registerError(ACCOUNTPLUS_CODESPACE, 2, "Invalid account address"),
  dataTooLong: registerError(ACCOUNTPLUS_CODESPACE, 3, "Authenticator data exceeds maximum length"),
  notActive: registerError(ACCOUNTPLUS_CODESPACE, 4, "Smart account is not active"),
  initializing: registerError(ACCOUNTPLUS_CODESPACE, 5, "Error initializing authenticator"),
  multipleSigners: registerError(ACCOUNTPLUS_CODESPACE, 6, "The transaction has multiple signers"),
  signature: registerError(ACCOUNTPLUS_CODESPACE, 100, "signature verification failed"),
  messageType: registerError(ACCOUNTPLUS_CODESPACE, 101, "message type verification failed"),
  clobPair: registerError(ACCOUNTPLUS_CODESPACE, 102, "clob pair id verification failed"),
  subaccount: registerError(ACCOUNTPLUS_CODESPACE, 103, "subaccount verification failed"),
  allOf: registerError(ACCOUNTPLUS_CODESPACE, 104, "AllOf verification failed"),
  anyOf: registerError(ACCOUNTPLUS_CODESPACE, 105, "AnyOf verification failed"),
} as const satisfies Record<string, ErrorKind>;

/** Largest `MsgAddAuthenticator.data`. */
export const MAX_AUTHENTICATOR_DATA_LENGTH = 1024;
/** Deepest AllOf/AnyOf nesting accepted (the top level is depth 1). */
export const MAX_DEPTH = 5;

/** The seven authenticator type strings. */
export const AUTHENTICATOR_TYPES = [
  "SignatureVerification",
  "EthAddressSignatureVerification",
  "MessageFilter",
  "SubaccountFilter",
  "ClobPairIdFilter",
  "AllOf",
  "AnyOf",
] as const;

/** An authenticator type string. */
export type AuthenticatorType = (typeof AUTHENTICATOR_TYPES)[number];

/** A parsed authenticator (tree). */
export type Authenticator =
  | { readonly type: "SignatureVerification"; readonly publicKey: Uint8Array }
  | { readonly type: "EthAddressSignatureVerification"; readonly address: Uint8Array }
  | { readonly type: "MessageFilter"; readonly typeUrls: readonly string[] }
  | { readonly type: "SubaccountFilter"; readonly numbers: readonly number[] }
  | { readonly type: "ClobPairIdFilter"; readonly ids: readonly number[] }
  | { readonly type: "AllOf" | "AnyOf"; readonly children: readonly Authenticator[] };

/** Type URLs of the messages the trading-key filters look at. */
export { BATCH_CANCEL_URL, CANCEL_ORDER_URL, PLACE_ORDER_URL };

function isAuthenticatorType(type: string): type is AuthenticatorType {
  return (AUTHENTICATOR_TYPES as readonly string[]).includes(type);
}

/**
 * What the real chain answers for a plain Go error (no registered code): codespace `undefined`,
 * code 1, the error's own text. Its authenticators refuse a bad config, an unknown type and an
 * unsafe tree this way.
 */
const PLAIN_ERROR: ErrorKind = { codespace: "undefined", code: 1, description: "internal" };

function invalid(context: string): never {
  throw new AbciError(PLAIN_ERROR, context);
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function text(config: Uint8Array, type: string): string {
  try {
    return decoder.decode(config);
  } catch {
    return invalid(`${type} config is not valid UTF-8`);
  }
}

function numberList(config: Uint8Array, type: string): number[] {
  const parts = text(config, type).split(",");
  return parts.map((part) => {
    if (!/^(0|[1-9][0-9]{0,9})$/.test(part) || Number(part) > 0xffff_ffff) {
      invalid(`${type} config: ${JSON.stringify(part)} is not a uint32 in canonical decimal`);
    }
    return Number(part);
  });
}

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Parses an authenticator's config for its type (the type string is case-sensitive).
 *
 * @throws {AbciError} dydxaccountplus 5 for an unknown type or a config that does not parse.
 *
 * @example
 * ```ts
 * parseAuthenticator("SubaccountFilter", utf8("0,1")); // { type: "SubaccountFilter", numbers: [0, 1] }
 * ```
 */
export function parseAuthenticator(type: string, config: Uint8Array, depth = 1): Authenticator {
  if (!isAuthenticatorType(type)) invalid(`authenticator type ${type} is not registered`);
  switch (type) {
    case "SignatureVerification":
      if (!isValidCompressedKey(config)) {
        invalid("SignatureVerification config must be a 33-byte compressed secp256k1 public key");
      }
      return { type, publicKey: config.slice() };
    case "EthAddressSignatureVerification":
      if (config.length !== 20)
        invalid("EthAddressSignatureVerification config must be the 20 address bytes");
      return { type, address: config.slice() };
    case "MessageFilter": {
      const typeUrls = text(config, type).split(",");
      for (const url of typeUrls) {
        if (!/^\/[A-Za-z0-9_.]+$/.test(url))
          invalid(`MessageFilter config: ${JSON.stringify(url)} is not a type URL`);
      }
      return { type, typeUrls };
    }
    case "SubaccountFilter":
      return { type, numbers: numberList(config, type) };
    case "ClobPairIdFilter":
      return { type, ids: numberList(config, type) };
    case "AllOf":
    case "AnyOf": {
      if (depth > MAX_DEPTH) invalid(`${type} nested deeper than ${MAX_DEPTH} levels`);
      let entries: unknown;
      try {
        entries = JSON.parse(text(config, type));
      } catch (error) {
        if (error instanceof SyntaxError) invalid(`${type} config is not JSON`);
        throw error;
      }
      if (!Array.isArray(entries) || entries.length < 2) {
        invalid(`${type} config must be a JSON array of at least 2 sub-authenticators`);
      }
      const children = entries.map((entry: unknown, i) => {
        const e = entry as { type?: unknown; config?: unknown };
        if (
          typeof e !== "object" ||
          e === null ||
          Array.isArray(e) ||
          Object.keys(e).some((k) => k !== "type" && k !== "config") ||
          typeof e.type !== "string" ||
          typeof e.config !== "string" ||
          !STANDARD_BASE64.test(e.config)
        ) {
          return invalid(`${type} entry ${i} must be {"type": string, "config": base64}`);
        }
        return parseAuthenticator(e.type, fromBase64(e.config), depth + 1);
      });
      return { type, children };
    }
  }
}

/**
 * Encodes an authenticator as its type string and config bytes (the inverse of
 * {@link parseAuthenticator}).
 *
 * @example
 * ```ts
 * encodeAuthenticator({ type: "MessageFilter", typeUrls: [PLACE_ORDER_URL] }).config; // utf8("/perpx.clob.v1.MsgPlaceOrder")
 * ```
 */
export function encodeAuthenticator(authenticator: Authenticator): {
  type: AuthenticatorType;
  config: Uint8Array;
} {
  switch (authenticator.type) {
    case "SignatureVerification":
      return { type: authenticator.type, config: authenticator.publicKey.slice() };
    case "EthAddressSignatureVerification":
      return { type: authenticator.type, config: authenticator.address.slice() };
    case "MessageFilter":
      return { type: authenticator.type, config: utf8(authenticator.typeUrls.join(",")) };
    case "SubaccountFilter":
      return { type: authenticator.type, config: utf8(authenticator.numbers.join(",")) };
    case "ClobPairIdFilter":
      return { type: authenticator.type, config: utf8(authenticator.ids.join(",")) };
    case "AllOf":
    case "AnyOf": {
      const entries = authenticator.children.map((child) => {
        const encoded = encodeAuthenticator(child);
        return { type: encoded.type, config: toBase64(encoded.config) };
      });
      return { type: authenticator.type, config: utf8(JSON.stringify(entries)) };
    }
  }
}

/**
 * The safety rule: every path through the tree requires a signature (AllOf: at least one child
 * does; AnyOf: every child does; a filter never does).
 *
 * @example
 * ```ts
 * requiresSignature({ type: "SubaccountFilter", numbers: [0] }); // false
 * ```
 */
export function requiresSignature(authenticator: Authenticator): boolean {
  switch (authenticator.type) {
    case "SignatureVerification":
    case "EthAddressSignatureVerification":
      return true;
    case "AllOf":
      return authenticator.children.some(requiresSignature);
    case "AnyOf":
      return authenticator.children.every(requiresSignature);
    default:
      return false;
  }
}

/**
 * Parses and checks an authenticator about to be added: data length, config, safety rule.
 *
 * @throws {AbciError} dydxaccountplus 3 (too long); a bad config, an unknown type or an unsafe
 * tree as the real chain's plain errors (codespace `undefined`, code 1).
 *
 * @example
 * ```ts
 * const utf8 = (text: string) => new TextEncoder().encode(text);
 * checkNewAuthenticator("SubaccountFilter", utf8("0")); // throws AbciError: a filter alone never checks a signature
 * ```
 */
export function checkNewAuthenticator(type: string, data: Uint8Array): Authenticator {
  if (data.length > MAX_AUTHENTICATOR_DATA_LENGTH) {
    throw abciError(
      accountPlusErrors.dataTooLong,
      `data length ${data.length} exceeds ${MAX_AUTHENTICATOR_DATA_LENGTH} bytes`,
    );
  }
  const parsed = parseAuthenticator(type, data);
  if (!requiresSignature(parsed)) {
    invalid(
      `unsafe: authenticator tree does not require signature verification all possible paths, type = ${type}, config = [${[...data].join(" ")}]`,
    );
  }
  return parsed;
}

/** One message to authenticate. */
export interface AuthenticationRequest {
  /** The message's type URL. */
  readonly typeUrl: string;
  /** The decoded message (its schema is the router's). */
  readonly msg: unknown;
  /** The bytes the signer signed (SIGN_MODE_DIRECT SignDoc with the owner's account number). */
  readonly signBytes: Uint8Array;
  /** The signer's signature. */
  readonly signature: Uint8Array;
  /** Simulation: signatures are not checked (they are empty), everything else is. */
  readonly simulate: boolean;
}

/** Subaccount numbers and clob pair ids a clob message touches; undefined for other messages. */
export function clobScope(
  typeUrl: string,
  msg: unknown,
): { subaccounts: number[]; clobPairs: number[] } | undefined {
  if (typeUrl === PLACE_ORDER_URL) {
    const id = (msg as clob.MsgPlaceOrder).order?.orderId;
    return { subaccounts: [id?.subaccountId?.number ?? 0], clobPairs: [id?.clobPairId ?? 0] };
  }
  if (typeUrl === CANCEL_ORDER_URL) {
    const id = (msg as clob.MsgCancelOrder).orderId;
    return { subaccounts: [id?.subaccountId?.number ?? 0], clobPairs: [id?.clobPairId ?? 0] };
  }
  if (typeUrl === BATCH_CANCEL_URL) {
    const batch = msg as clob.MsgBatchCancel;
    return {
      subaccounts: [batch.subaccountId?.number ?? 0],
      clobPairs: batch.shortTermCancels.map((b) => b.clobPairId),
    };
  }
  return undefined;
}

/**
 * Checks one message against an authenticator tree.
 *
 * @throws {AbciError} dydxaccountplus 100 (signature), 101 (message type), 102 (clob pair),
 * 103 (subaccount), 104 (AllOf: the first failing child's log inside), 105 (AnyOf: every child failed).
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 *
 * const secret = secp256k1.utils.randomSecretKey();
 * // A trading key: its signature, on place orders only.
 * const tree: Authenticator = {
 *   type: "AllOf",
 *   children: [
 *     { type: "SignatureVerification", publicKey: secp256k1.getPublicKey(secret, true) },
 *     { type: "MessageFilter", typeUrls: [PLACE_ORDER_URL] },
 *   ],
 * };
 * const signBytes = new TextEncoder().encode("the tx's sign doc");
 * const signature = secp256k1.sign(signBytes, secret); // ECDSA over SHA-256, compact
 * const request = { typeUrl: PLACE_ORDER_URL, msg: {}, signBytes, signature, simulate: false };
 * authenticate(tree, request); // undefined: allowed
 * authenticate(tree, { ...request, typeUrl: "/cosmos.bank.v1beta1.MsgSend" }); // throws AbciError: dydxaccountplus 104 (101 inside)
 * authenticate(tree, { ...request, signature: new Uint8Array(64) }); // throws AbciError: 104 (100 inside)
 * ```
 */
export function authenticate(authenticator: Authenticator, request: AuthenticationRequest): void {
  switch (authenticator.type) {
    case "SignatureVerification":
      if (request.simulate) return;
      if (!verifySignature("secp256k1", authenticator.publicKey, request.signBytes, request.signature)) {
        throw abciError(
          accountPlusErrors.signature,
          "signature does not verify with the authenticator's public key",
        );
      }
      return;
    case "EthAddressSignatureVerification":
      if (request.simulate) return;
      if (!verifyEthSignature(keccak_256(request.signBytes), request.signature, authenticator.address)) {
        throw abciError(
          accountPlusErrors.signature,
          "signature does not recover to the authenticator's EVM address",
        );
      }
      return;
    case "MessageFilter":
      if (!authenticator.typeUrls.includes(request.typeUrl)) {
        throw abciError(
          accountPlusErrors.messageType,
          `message types do not match. Got ${request.typeUrl}, Expected ${authenticator.typeUrls.join(",")}`,
        );
      }
      return;
    case "SubaccountFilter": {
      const scope = clobScope(request.typeUrl, request.msg);
      for (const n of scope?.subaccounts ?? []) {
        if (!authenticator.numbers.includes(n)) {
          throw abciError(
            accountPlusErrors.subaccount,
            `subaccount number ${n} not in allowed list ${authenticator.numbers.join(",")}`,
          );
        }
      }
      return;
    }
    case "ClobPairIdFilter": {
      const scope = clobScope(request.typeUrl, request.msg);
      for (const id of scope?.clobPairs ?? []) {
        if (!authenticator.ids.includes(id)) {
          throw abciError(
            accountPlusErrors.clobPair,
            `order clob pair id ${id} not in allowed list ${authenticator.ids.join(",")}`,
          );
        }
      }
      return;
    }
    case "AllOf":
      for (const child of authenticator.children) {
        try {
          authenticate(child, request);
        } catch (error) {
          throw abciError(
            accountPlusErrors.allOf,
            `sub-authenticator failed to authenticate: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      return;
    case "AnyOf": {
      const failures: string[] = [];
      for (const child of authenticator.children) {
        try {
          authenticate(child, request);
          return;
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
      throw abciError(accountPlusErrors.anyOf, `all sub-authenticators failed: ${failures.join("; ")}`);
    }
  }
}

/**
 * The trading key of the specification: AllOf[SignatureVerification(key), AnyOf[MessageFilter(place),
 * MessageFilter(cancel), MessageFilter(batch cancel)], SubaccountFilter(0)].
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 *
 * const agentPublicKey = secp256k1.getPublicKey(new Uint8Array(32).fill(2));
 * const { type, config } = encodeAuthenticator(tradingKeyAuthenticator(agentPublicKey));
 * type; // "AllOf"
 * checkNewAuthenticator(type, config).type; // "AllOf"
 * ```
 */
export function tradingKeyAuthenticator(publicKey: Uint8Array): Authenticator {
  return {
    type: "AllOf",
    children: [
      { type: "SignatureVerification", publicKey },
      {
        type: "AnyOf",
        children: [
          { type: "MessageFilter", typeUrls: [PLACE_ORDER_URL] },
          { type: "MessageFilter", typeUrls: [CANCEL_ORDER_URL] },
          { type: "MessageFilter", typeUrls: [BATCH_CANCEL_URL] },
        ],
      },
      { type: "SubaccountFilter", numbers: [0] },
    ],
  };
}
