import { cosmosTx, cosmosTxSigning } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError } from "../errors.js";
import { checkParams } from "../messages/validate.js";
import { type QueryOptions, unaryQuery } from "../query/unary.js";
import type { KeyType } from "../wallet/signer.js";
import { encodeAuthInfo, encodeTxBody, encodeTxRaw, type TxMessage, txHash } from "./encode.js";
import { simulationRefusal } from "./refusal.js";
import { txExtension } from "./sign.js";

/**
 * Parameters of {@link simulateTx}.
 *
 * @example
 * ```ts
 * const messages = [bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })];
 * const { sequence } = await getAccountSequence(client, { address: wallet.address });
 * const params: SimulateTxParams = { messages, publicKey: wallet.publicKey, keyType: wallet.keyType, sequence };
 * (await simulateTx(client, params)).gasUsed > 0n; // true
 * ```
 */
export interface SimulateTxParams extends QueryOptions {
  /** The messages. */
  messages: readonly TxMessage[];
  /** The signing key's public key. */
  publicKey: Uint8Array;
  /** The signing key's algorithm. */
  keyType: KeyType;
  /** The sequence (or timestamp nonce) the real transaction will carry. */
  sequence: bigint;
  /** @default "" */
  memo?: string;
  /** Authenticator ids, when a permissioned key will sign. @default undefined */
  authenticators?: readonly bigint[];
}

/**
 * What a simulation reports.
 *
 * @example
 * ```ts
 * const messages = [bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })];
 * const { sequence } = await getAccountSequence(client, { address: wallet.address });
 * const { gasUsed }: SimulationResult = await simulateTx(client, { messages, publicKey: wallet.publicKey, keyType: wallet.keyType, sequence });
 * gasUsed > 0n; // true
 * ```
 */
export interface SimulationResult {
  /** Gas the transaction used. */
  gasUsed: bigint;
  /** Gas wanted (the simulated limit). */
  gasWanted: bigint;
}

/**
 * Simulates a transaction (as cosmjs does: empty fee, SIGN_MODE_UNSPECIFIED, an empty signature)
 * to learn its gas.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - see `SimulateTxParams`: each field is documented there.
 * @returns resolves with `gasUsed` and `gasWanted`; rejects with `BroadcastTxError` when the
 *   simulation fails (the transaction would fail too).
 * @throws {BroadcastTxError} (phase `simulate`) when the transaction would fail: the same codespace
 *   and code CheckTx or DeliverTx would report, over gRPC and RPC alike (see `simulationRefusal`);
 *   `QueryError` when the node could not run it at all.
 *
 * @example
 * ```ts
 * const messages = [bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })];
 * const { sequence } = await getAccountSequence(client, { address: wallet.address });
 * // Nothing is signed or sent: the node runs the messages and says how much gas they used.
 * const { gasUsed } = await simulateTx(client, { messages, publicKey: wallet.publicKey, keyType: wallet.keyType, sequence });
 * gasUsed > 0n; // true
 * ```
 */
export async function simulateTx(
  client: NodeConnection,
  params: SimulateTxParams,
): Promise<SimulationResult> {
  checkParams(params, "simulateTx");
  const bodyBytes = encodeTxBody({
    messages: params.messages,
    ...(params.memo === undefined ? {} : { memo: params.memo }),
    ...(params.authenticators?.length
      ? { nonCriticalExtensionOptions: [txExtension(params.authenticators)] }
      : {}),
  });
  const authInfoBytes = encodeAuthInfo({
    publicKey: params.publicKey,
    keyType: params.keyType,
    sequence: params.sequence,
    fee: { amount: [], gasLimit: 0n },
    signMode: cosmosTxSigning.SignMode.UNSPECIFIED,
  });
  const txBytes = encodeTxRaw({ bodyBytes, authInfoBytes, signatures: [new Uint8Array()] });
  try {
    const response = await unaryQuery(client, {
      ...params,
      method: cosmosTx.Service.method.simulate,
      request: { txBytes },
    });
    return { gasUsed: response.gasInfo?.gasUsed ?? 0n, gasWanted: response.gasInfo?.gasWanted ?? 0n };
  } catch (error) {
    if (!isQueryError(error)) throw error;
    throw simulationRefusal(error, { txHash: txHash(txBytes), messages: params.messages }) ?? error;
  }
}
