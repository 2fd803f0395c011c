import {
  approveAgentTypedData,
  assertKnownKeys,
  encodeCredential,
  getEndpoint,
  optionKeys,
} from "@perpx/core";
import { PerpxError } from "@perpx/errors";
import type { EvmWallet } from "@perpx/node-client/wallets";
import { LocalWallet } from "@perpx/node-client/wallets";
import type { ClientContext } from "./client.js";
import { walletOf } from "./trader.js";

const AUTHORIZE_KEYS = optionKeys<Parameters<typeof authorizeTradingKey>[1]>({ tradingKey: true });
const APPROVE_KEYS = optionKeys<Parameters<typeof approveAgentFromEvm>[1]>({
  evmWallet: true,
  tradingKey: true,
  expirySeconds: true,
});

/**
 * A trading key the owner authorized: its authenticator id, and the credential a bot connects with
 * (`CompositeClient.connect({ credential })`). The credential holds the key's private key: keep it
 * secret.
 *
 * @example
 * ```ts
 * const { credential, authenticatorId }: AuthorizedKey = await client.authorizeTradingKey();
 * ```
 */
export interface AuthorizedKey {
  /** The id of the authenticator registered for the key on the owner's account. */
  authenticatorId: bigint;
  /** Base64 of `{ tradingPrivateKey, masterAddress }`. */
  credential: string;
  /** The trading key's compressed public key. */
  publicKey: Uint8Array;
}

/**
 * An approve-agent request the network's service refused (`reason` is its code, e.g.
 * `approve_agent_rejected` for a replay or a bad signature) or could not be reached (`unreachable`).
 *
 * @example
 * ```ts
 * const error = new ApproveAgentError("approve_agent_rejected", "the nonce was used");
 * error.reason; // "approve_agent_rejected"
 * ```
 */
export class ApproveAgentError extends PerpxError {
  override name = "ApproveAgentError";
  /** The service's error code, or `unreachable`. */
  readonly reason: string;

  /**
   * @param reason - the service's error code, or `unreachable`.
   * @param detail - what it said.
   */
  constructor(reason: string, detail: string) {
    super("TRANSPORT", `approve agent refused (${reason}): ${detail}`);
    this.reason = reason;
  }
}

/**
 * Authorizes a trading key from the owner's Cosmos wallet: registers the key's authenticator
 * (place, cancel and batch-cancel orders on subaccount 0 only) with an `AddAuthenticator` the
 * wallet signs. A fresh key is generated unless `tradingKey` is given.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param params - the key to authorize; a fresh one when omitted.
 * @returns resolves with the authenticator id the chain gave the key, the key's public key, and
 *   `credential`: base64 of the key's secret and master address, what a bot connects with.
 * @throws {InvalidArgumentError} on a read-only client or a trading key.
 * @throws {BroadcastTxError} when the chain refuses it.
 *
 * @example
 * ```ts
 * const { credential } = await authorizeTradingKey(context);
 * const bot = await CompositeClient.connect({ ...devnetOptions, credential });
 * bot.subaccount.owner === wallet.address; // true
 * bot.close();
 * ```
 */
export async function authorizeTradingKey(
  context: ClientContext,
  params: { tradingKey?: LocalWallet } = {},
): Promise<AuthorizedKey> {
  assertKnownKeys(params, AUTHORIZE_KEYS, "authorizeTradingKey");
  const owner = walletOf(context, "authorizeTradingKey");
  const key = params.tradingKey ?? LocalWallet.generate();
  const { authenticatorId } = await context.node.registerTradingKey({ owner, publicKey: key.publicKey });
  return {
    authenticatorId,
    credential: encodeCredential({
      masterAddress: owner.address,
      tradingPrivateKey: key.exportPrivateKeyHex(),
    }),
    publicKey: key.publicKey,
  };
}

/**
 * Authorizes a trading key from an EVM wallet: the wallet signs the EIP-712
 * `ServiceTransaction:ApproveAgent` message for the network's EVM chain id, and the network's
 * approve-agent service (on a devnet its control route `POST /devnet/approve-agent`) registers the
 * key's authenticator on the wallet's account. No Cosmos transaction is signed by the wallet.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param params - the EVM wallet that signs, the key to authorize (fresh when omitted) and the
 *   approval's lifetime in seconds.
 * @returns resolves with the key, its authenticator id and the base64 trading credential.
 * @throws {MissingEndpointError} when the network has no approve-agent service (`devnetControl`).
 * @throws {ApproveAgentError} when the service refuses it or cannot be reached.
 *
 * @example
 * ```ts
 * import { EvmWallet } from "@perpx/node-client/wallets";
 * const evmWallet = EvmWallet.generate();
 * await client.faucet({ owner: evmWallet.evmAddress }); // opens its account
 * const { credential } = await approveAgentFromEvm(context, { evmWallet });
 * typeof credential; // "string"
 * ```
 */
export async function approveAgentFromEvm(
  context: ClientContext,
  params: { evmWallet: EvmWallet; tradingKey?: LocalWallet; expirySeconds?: number },
): Promise<AuthorizedKey> {
  assertKnownKeys(params, APPROVE_KEYS, "approveAgentFromEvm");
  const service = getEndpoint(context.config, "devnetControl");
  const key = params.tradingKey ?? LocalWallet.generate();
  const { evmWallet } = params;
  const nowMs = Date.now();
  const approval = {
    evmChainId: context.config.network.evmChainId,
    masterAddress: evmWallet.evmAddress,
    agentPublicKey: key.publicKey,
    nonce: nowMs,
    expiry: params.expirySeconds === undefined ? 0 : Math.floor(nowMs / 1000) + params.expirySeconds,
  };
  const typedDataSignature = evmWallet.signApproveAgent(approval);
  const body = JSON.stringify(
    { typedDataSignature, message: approveAgentTypedData(approval).message },
    (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v),
  );
  let response: Response;
  try {
    response = await fetch(`${service}/devnet/approve-agent`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
  } catch (error) {
    throw new ApproveAgentError("unreachable", error instanceof Error ? error.message : String(error));
  }
  const answer = (await response.json().catch(() => ({}))) as {
    agentAuthenticatorId?: string;
    address?: string;
    code?: string;
    message?: string;
  };
  if (!response.ok || answer.agentAuthenticatorId === undefined) {
    throw new ApproveAgentError(
      answer.code ?? `http_${response.status}`,
      answer.message ?? "no authenticator id in the answer",
    );
  }
  return {
    authenticatorId: BigInt(answer.agentAuthenticatorId),
    credential: encodeCredential({
      masterAddress: answer.address ?? evmWallet.address,
      tradingPrivateKey: key.exportPrivateKeyHex(),
    }),
    publicKey: key.publicKey,
  };
}
