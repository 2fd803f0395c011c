/**
 * The devnet's own signer for the txs of its market maker: one fixed secp256k1 key, SIGN_MODE_DIRECT
 * over `@perpx/proto`'s envelopes. The devnet depends on no client, so its actors sign here, as the
 * validator signs its blocks in `app/lib/crypto.ts`. The key is public and for a devnet only.
 */
import { createECDH } from "node:crypto";
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { addressBytesToBech32 } from "@perpx/address";
import { cosmosAuth, cosmosSecp256k1, cosmosTx, cosmosTxSigning } from "@perpx/proto";
import type { ChainApp } from "../app/contract.js";

/**
 * A devnet actor's key: its address and what it needs to sign.
 *
 * @example
 * ```ts
 * const signer = devnetSigner("perpx devnet liquidity");
 * signer.address.startsWith("perpx1"); // true
 * ```
 */
export interface DevnetSigner {
  readonly address: string;
  readonly publicKey: Uint8Array;
  /** Signs `messages` as one tx and returns its TxRaw bytes. */
  sign(tx: SignInput): Uint8Array;
}

/**
 * What a tx needs besides the key: its messages and the signer's chain id, account number and
 * sequence, and its fee. Without `fee` the tx carries no fee and gas limit 0, as free txs
 * (short-term orders and cancels) do.
 *
 * @example
 * ```ts
 * const input: SignInput = { chainId: "perpx-local-1", accountNumber: 5n, sequence: 0n, messages: [] };
 * ```
 */
export interface SignInput {
  readonly chainId: string;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  readonly messages: ReadonlyArray<{
    readonly schema: DescMessage;
    readonly value: MessageShape<DescMessage>;
  }>;
  /** The fee coins and gas limit. @default no coins, gas limit 0 */
  readonly fee?: {
    readonly amount: ReadonlyArray<{ denom: string; amount: bigint }>;
    readonly gasLimit: bigint;
  };
}

/**
 * The signer whose private key is SHA-256 of `label` (deterministic, so every devnet has the same
 * actor at the same address).
 *
 * @param label - the actor's name, e.g. `"perpx devnet liquidity"`.
 * @returns the signer.
 * @example
 * ```ts
 * const a = devnetSigner("perpx devnet liquidity");
 * a.address === devnetSigner("perpx devnet liquidity").address; // true
 * ```
 */
export function devnetSigner(label: string): DevnetSigner {
  const secret = sha256(new TextEncoder().encode(label));
  // The same compressed key as noble's `getPublicKey`, derived natively: the devnet's start-up
  // derives the faucet's key, and noble's first multiplication builds its precomputed tables (a
  // cost that belongs to the first signature, which start-up does not make).
  const ecdh = createECDH("secp256k1");
  ecdh.setPrivateKey(secret);
  const publicKey = Uint8Array.from(ecdh.getPublicKey(null, "compressed"));
  const address = addressBytesToBech32(ripemd160(sha256(publicKey)));
  const publicKeyAny = {
    $typeName: "google.protobuf.Any" as const,
    typeUrl: `/${cosmosSecp256k1.PubKeySchema.typeName}`,
    value: toBinary(cosmosSecp256k1.PubKeySchema, create(cosmosSecp256k1.PubKeySchema, { key: publicKey })),
  };
  return {
    address,
    publicKey,
    sign({ chainId, accountNumber, sequence, messages, fee }) {
      const bodyBytes = toBinary(
        cosmosTx.TxBodySchema,
        create(cosmosTx.TxBodySchema, {
          messages: messages.map((m) => ({
            $typeName: "google.protobuf.Any" as const,
            typeUrl: `/${m.schema.typeName}`,
            value: toBinary(m.schema, m.value),
          })),
        }),
      );
      const authInfoBytes = toBinary(
        cosmosTx.AuthInfoSchema,
        create(cosmosTx.AuthInfoSchema, {
          signerInfos: [
            {
              publicKey: publicKeyAny,
              modeInfo: { sum: { case: "single", value: { mode: cosmosTxSigning.SignMode.DIRECT } } },
              sequence,
            },
          ],
          fee: {
            amount: (fee?.amount ?? []).map((c) => ({ denom: c.denom, amount: c.amount.toString() })),
            gasLimit: fee?.gasLimit ?? 0n,
          },
        }),
      );
      const signDoc = toBinary(
        cosmosTx.SignDocSchema,
        create(cosmosTx.SignDocSchema, { bodyBytes, authInfoBytes, chainId, accountNumber }),
      );
      const signature = secp256k1.sign(signDoc, secret, { lowS: true });
      return toBinary(
        cosmosTx.TxRawSchema,
        create(cosmosTx.TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] }),
      );
    },
  };
}

/**
 * An account as the chain holds it (number, sequence), read through the auth query.
 *
 * @param app - the chain application.
 * @param address - the account's bech32 address.
 * @returns the account, or undefined when the chain has none at that address.
 * @example
 * ```ts
 * findAccount(devnet.app, devnet.accounts[0]!.address) !== undefined; // true: a genesis account
 * findAccount(devnet.app, devnetSigner("nobody yet").address); // undefined
 * ```
 */
export function findAccount(app: ChainApp, address: string): cosmosAuth.BaseAccount | undefined {
  const request = create(cosmosAuth.QueryAccountRequestSchema, { address });
  const result = app.query(
    "/cosmos.auth.v1beta1.Query/Account",
    toBinary(cosmosAuth.QueryAccountRequestSchema, request),
  );
  if (result.code !== 0) return undefined;
  const answer = fromBinary(cosmosAuth.QueryAccountResponseSchema, result.value);
  return answer.account === undefined
    ? undefined
    : fromBinary(cosmosAuth.BaseAccountSchema, answer.account.value);
}
