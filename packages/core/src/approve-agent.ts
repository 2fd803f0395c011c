/**
 * The perpx `ServiceTransaction:ApproveAgent` message by which an EVM wallet authorizes a trading
 * key: its domain, types and message builder. Hashing it and checking a signature over it
 * (`hashTypedData(approveAgentTypedData(params))`, `verifyApproveAgent`) are `@perpx/core/evm`'s
 * and `@perpx/core/evm-verify`'s (EIP-712 of the `ox` library), so the root entry carries neither `ox` nor secp256k1.
 *
 * ## `ServiceTransaction:ApproveAgent`
 *
 * ```
 * domain      { name: "perpx", version: "1", chainId: <EVM chain id of the network> }
 *             EIP712Domain(string name,string version,uint256 chainId)
 * primaryType "ServiceTransaction:ApproveAgent"
 * message     ServiceTransaction:ApproveAgent(address masterAddress,address agentAddress,
 *                                             bytes agentPublicKey,uint64 nonce,uint64 expiry)
 * ```
 *
 * - `masterAddress`: the 0x form of the account that authorizes (it must be the signer).
 * - `agentAddress`: the 0x form of the trading key's own account, RIPEMD-160(SHA-256(agentPublicKey));
 *   a verifier checks that it matches `agentPublicKey` (it is there so wallets show something readable).
 * - `agentPublicKey`: the trading key's 33-byte compressed secp256k1 public key, the config of the
 *   `SignatureVerification` part of the authenticator the chain registers.
 * - `nonce`: unix milliseconds when the approval was made; a verifier refuses a nonce it has seen.
 * - `expiry`: unix seconds after which the approval is void; `0` means it never expires.
 *
 * Mainnet 111984 and testnet 202006 are the EVM chain ids; the local devnet uses 31337.
 * The signature is the usual 65 bytes `r || s || v` with `v` = 27 or 28 over
 * `keccak256(0x1901 || domainSeparator || hashStruct(message))`.
 *
 * @module
 */

import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { addressBytes, addressBytesToHex } from "@perpx/address";
import { InvalidArgumentError } from "@perpx/errors";
import type { TypedData, TypedDataField } from "./typed-data.js";

function agentKeyBytes(key: Uint8Array | string): Uint8Array | undefined {
  if (typeof key !== "string") return key;
  return /^0x([0-9a-fA-F]{2})*$/.test(key) ? hexToBytes(key.slice(2)) : undefined;
}

/**
 * The primary type name of the trading-key approval.
 *
 * @example
 * ```ts
 * APPROVE_AGENT_PRIMARY_TYPE; // "ServiceTransaction:ApproveAgent"
 * ```
 */
export const APPROVE_AGENT_PRIMARY_TYPE = "ServiceTransaction:ApproveAgent";
/**
 * `domain.name` of the approval.
 *
 * @example
 * ```ts
 * APPROVE_AGENT_DOMAIN_NAME; // "perpx"
 * ```
 */
export const APPROVE_AGENT_DOMAIN_NAME = "perpx";
/**
 * `domain.version` of the approval.
 *
 * @example
 * ```ts
 * APPROVE_AGENT_DOMAIN_VERSION; // "1"
 * ```
 */
export const APPROVE_AGENT_DOMAIN_VERSION = "1";

/**
 * The struct types of the approval, `EIP712Domain` included.
 *
 * @example
 * ```ts
 * APPROVE_AGENT_TYPES["ServiceTransaction:ApproveAgent"].map((f) => f.name);
 * ```
 */
export const APPROVE_AGENT_TYPES = {
  EIP712Domain: [
    { name: "name", type: "string" },
    { name: "version", type: "string" },
    { name: "chainId", type: "uint256" },
  ],
  [APPROVE_AGENT_PRIMARY_TYPE]: [
    { name: "masterAddress", type: "address" },
    { name: "agentAddress", type: "address" },
    { name: "agentPublicKey", type: "bytes" },
    { name: "nonce", type: "uint64" },
    { name: "expiry", type: "uint64" },
  ],
} as const satisfies Record<string, readonly TypedDataField[]>;

/**
 * Parameters of {@link approveAgentTypedData}.
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 *
 * const params: ApproveAgentParams = {
 *   evmChainId: 31337,
 *   masterAddress: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
 *   agentPublicKey: secp256k1.getPublicKey(new Uint8Array(32).fill(2)),
 *   nonce: 1_700_000_000_000,
 * };
 * approveAgentTypedData(params).primaryType; // "ServiceTransaction:ApproveAgent"
 * ```
 */
export interface ApproveAgentParams {
  /** The EVM chain id of the network (mainnet 111984, testnet 202006, local 31337). */
  evmChainId: number | bigint;
  /** The authorizing account, `0x...` or `perpx1...`. */
  masterAddress: string;
  /** The trading key's 33-byte compressed secp256k1 public key (bytes or 0x-hex). */
  agentPublicKey: Uint8Array | string;
  /** Unix milliseconds when the approval is made. */
  nonce: bigint | number;
  /**
   * Unix seconds after which the approval is void.
   * @default 0 (never expires)
   */
  expiry?: bigint | number;
}

/**
 * Builds the `ServiceTransaction:ApproveAgent` typed data for `eth_signTypedData_v4`.
 *
 * @param params - the EVM chain id, the authorizing master address, the trading key's public key, the nonce (Unix ms) and the optional expiry (Unix s).
 * @returns the EIP-712 typed data (domain, types, primary type `ApproveAgent`, message) a wallet signs with `eth_signTypedData_v4`.
 * @throws {InvalidArgumentError} for a bad address, public key, chain id, nonce or expiry.
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 *
 * const typedData = approveAgentTypedData({
 *   evmChainId: 31337,
 *   masterAddress: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
 *   agentPublicKey: secp256k1.getPublicKey(new Uint8Array(32).fill(2)),
 *   nonce: 1_700_000_000_000,
 * });
 * typedData.domain; // { name: "perpx", version: "1", chainId: 31337n }
 * ```
 */
export function approveAgentTypedData(params: ApproveAgentParams): TypedData {
  const agentKey = agentKeyBytes(params.agentPublicKey);
  if (agentKey === undefined || agentKey.length !== 33 || (agentKey[0] !== 2 && agentKey[0] !== 3)) {
    throw new InvalidArgumentError("agentPublicKey", "expected a 33-byte compressed secp256k1 public key");
  }
  const chainId = BigInt(params.evmChainId);
  if (chainId <= 0n) throw new InvalidArgumentError("evmChainId", "must be positive");
  const nonce = BigInt(params.nonce);
  const expiry = BigInt(params.expiry ?? 0);
  const max = (1n << 64n) - 1n;
  if (nonce <= 0n || nonce > max) throw new InvalidArgumentError("nonce", "must be a positive uint64");
  if (expiry < 0n || expiry > max) throw new InvalidArgumentError("expiry", "must be a uint64");
  return {
    types: APPROVE_AGENT_TYPES,
    primaryType: APPROVE_AGENT_PRIMARY_TYPE,
    domain: { name: APPROVE_AGENT_DOMAIN_NAME, version: APPROVE_AGENT_DOMAIN_VERSION, chainId },
    message: {
      masterAddress: addressBytesToHex(addressBytes(params.masterAddress)),
      agentAddress: addressBytesToHex(ripemd160(sha256(agentKey))),
      agentPublicKey: `0x${bytesToHex(agentKey)}`,
      nonce,
      expiry,
    },
  };
}
