import { bytesEqual } from "../bytes.js";
import type { NodeConnection } from "../connection.js";
import { QueryError } from "../errors.js";
import {
  addAuthenticatorMsg,
  encodeAuthenticatorConfig,
  tradingKeyAuthenticator,
} from "../messages/accountplus.js";
import { checkParams } from "../messages/validate.js";
import { getAuthenticators } from "../query/accountplus.js";
import type { TxSigner } from "../wallet/signer.js";
import type { TradingKey } from "../wallet/tradingKey.js";
import type { TxMessage } from "./encode.js";
import { type SendTxParams, type SendTxResult, sendTx } from "./send.js";

/**
 * Parameters of {@link registerTradingKey}.
 *
 * @example
 * ```ts
 * const key = LocalWallet.generate();
 * const params: RegisterTradingKeyParams = { owner: wallet, publicKey: key.publicKey };
 * const { authenticatorId } = await registerTradingKey(client, params);
 * authenticatorId >= 0n; // true
 * ```
 */
export interface RegisterTradingKeyParams
  extends Omit<SendTxParams, "signer" | "messages" | "broadcastMode"> {
  /** The owner's signer: the account the key will trade for. */
  owner: TxSigner;
  /** The trading key's 33-byte compressed secp256k1 public key. */
  publicKey: Uint8Array;
}

/**
 * Registers a trading key with the specification's scope (place, cancel and batch-cancel orders on
 * subaccount 0 only, see `tradingKeyAuthenticator`), waits for the block, and returns the new
 * authenticator's id.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - see `RegisterTradingKeyParams`: each field is documented there.
 * @returns resolves with the id the chain gave the key's authenticator (select it when the key
 *   signs) and the transaction's result.
 * @throws {BroadcastTxError} when the chain refuses it.
 *
 * @example
 * ```ts
 * const tradingKey = LocalWallet.generate();
 * const { authenticatorId } = await registerTradingKey(client, { owner: wallet, publicKey: tradingKey.publicKey });
 * ```
 */
export async function registerTradingKey(
  client: NodeConnection,
  params: RegisterTradingKeyParams,
): Promise<{ authenticatorId: bigint; result: SendTxResult }> {
  checkParams(params, "registerTradingKey");
  const { owner, publicKey, ...rest } = params;
  const tree = tradingKeyAuthenticator(publicKey);
  const result = await sendTx(client, {
    ...rest,
    signer: owner,
    messages: [addAuthenticatorMsg({ sender: owner.address, authenticator: tree })],
    broadcastMode: "commit",
  });
  const config = encodeAuthenticatorConfig(tree);
  const mine = (await getAuthenticators(client, { address: owner.address }))
    .filter((a) => a.type === "AllOf" && bytesEqual(a.config, config))
    .sort((a, b) => (a.id < b.id ? 1 : -1));
  const found = mine[0];
  if (!found) {
    throw new QueryError({
      path: "/perpx.accountplus.v1.Query/GetAuthenticators",
      transport: client.grpc ? "grpc" : "rpc",
      log: "the trading key's authenticator is not on the account after the transaction landed",
    });
  }
  return { authenticatorId: found.id, result };
}

/**
 * Parameters of {@link sendWithTradingKey}.
 *
 * @example
 * ```ts
 * import { encodeCredential } from "@perpx/core";
 *
 * const key = LocalWallet.generate();
 * const { authenticatorId } = await registerTradingKey(client, { owner: wallet, publicKey: key.publicKey });
 * const tradingKey = tradingKeyFromCredential(
 *   encodeCredential({ masterAddress: wallet.address, tradingPrivateKey: key.exportPrivateKeyHex() }),
 * );
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 10;
 * const order = placeOrderMsg({ subaccount, clientId: 112, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock });
 * const params: SendWithTradingKeyParams = { tradingKey, authenticatorId, messages: [order] };
 * ```
 */
export interface SendWithTradingKeyParams
  extends Omit<SendTxParams, "signer" | "account" | "authenticators"> {
  /** The trading key and its master account. */
  tradingKey: TradingKey;
  /** The id of the authenticator registered for the key. */
  authenticatorId: bigint;
  /** The master account's messages (orders on its subaccount 0). */
  messages: readonly TxMessage[];
}

/**
 * Sends the master account's messages signed by a trading key (chain-protocol 4.3): a `TxExtension`
 * selecting the authenticator for every message, the master's account number and sequence, the
 * trading key's public key and signature.
 *
 * @param client - the node client (from `createNodeClient`).
 * @param params - see `SendWithTradingKeyParams`: each field is documented there.
 * @returns resolves with the transaction's result as `sendTx` does; rejects with
 *   `AuthenticatorRefusedError` when the key's authenticator refuses a message.
 * @example
 * ```ts
 * import { encodeCredential } from "@perpx/core";
 *
 * const key = LocalWallet.generate();
 * const { authenticatorId } = await registerTradingKey(client, { owner: wallet, publicKey: key.publicKey });
 * // The credential a bot is given: the master account and the key.
 * const tradingKey = tradingKeyFromCredential(
 *   encodeCredential({ masterAddress: wallet.address, tradingPrivateKey: key.exportPrivateKeyHex() }),
 * );
 * const goodTilBlock = Number((await client.getLatestBlock()).height) + 10;
 * const order = placeOrderMsg({ subaccount, clientId: 113, side: "BUY", market: btc, size: "0.001", price: "30000", kind: "short-term", goodTilBlock });
 * const sent = await sendWithTradingKey(client, { tradingKey, authenticatorId, messages: [order] });
 * sent.shortTerm; // true
 * ```
 */
export async function sendWithTradingKey(
  client: NodeConnection,
  params: SendWithTradingKeyParams,
): Promise<SendTxResult> {
  checkParams(params, "sendWithTradingKey");
  const { tradingKey, authenticatorId, ...rest } = params;
  return sendTx(client, {
    ...rest,
    signer: tradingKey.wallet,
    account: tradingKey.masterAddress,
    authenticators: params.messages.map(() => authenticatorId),
  });
}
