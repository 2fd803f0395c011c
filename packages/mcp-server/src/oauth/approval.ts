import { approveAgentTypedData, encodeCredential } from "@perpx/core";
import { verifyApproveAgent } from "@perpx/core/evm-verify";
import { PerpxError } from "@perpx/errors";
import type { NodeClient } from "@perpx/node-client";
import { LocalWallet, tradingKeyFromCredential } from "@perpx/node-client/wallets";
import { authenticatorOf } from "../auth.js";
import { hashToken, type Sealer } from "./secrets.js";
import type { ConsentRequest, OAuthStore } from "./store.js";

/**
 * A consent step the server refuses: `status` is the HTTP status, `error` the OAuth-style name; the
 * message never contains a key.
 *
 * @example
 * ```ts
 * new ConsentError(400, "invalid_request", "the signature is not 65 bytes of hex").status; // 400
 * ```
 */
export class ConsentError extends PerpxError {
  override name = "ConsentError";
  /** The HTTP status. */
  readonly status: number;
  /** The OAuth-style error name. */
  readonly error: string;

  /**
   * @param status - the HTTP status.
   * @param error - the OAuth-style error name.
   * @param problem - what was wrong.
   */
  constructor(status: number, error: string, problem: string) {
    super("INVALID_ARGUMENT", problem);
    this.status = status;
    this.error = error;
  }
}

/**
 * What the consent steps need: the store, the sealer, the network's EVM chain id, the approve-agent
 * service, the node (to confirm the registered authenticator) and how to issue a code.
 */
export interface ApprovalDeps {
  /** The OAuth store. */
  store: OAuthStore;
  /** Opens the sealed trading key; seals the credential. */
  sealer: Sealer;
  /** The EIP-712 domain's chain id. */
  evmChainId: number;
  /** `POST` endpoint of the network's approve-agent service. */
  approveAgentUrl: string;
  /** The node, to confirm the authenticator on chain. */
  node: NodeClient;
  /** How long a signed approval stays valid, s. */
  approvalSeconds: number;
  /** Creates the grant and its code. */
  issueCode(request: ConsentRequest, grant: { account: string; credentialSealed: string }): Promise<string>;
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const jsonSafe = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));

/**
 * A string field of a consent step's body.
 *
 * @throws {ConsentError} 400 naming the field when it is missing or malformed.
 *
 * @example
 * ```ts
 * const body = { address: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" };
 * text(body, "address", /^0x[0-9a-fA-F]{40}$/, "a 0x address"); // "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
 * text({}, "address"); // throws ConsentError
 * ```
 */
export function text(body: Record<string, unknown>, name: string, pattern?: RegExp, form?: string): string {
  const value = body[name];
  if (typeof value !== "string" || value === "" || (pattern && !pattern.test(value))) {
    throw new ConsentError(400, "invalid_request", `${name} must be ${form ?? "a non-empty string"}`);
  }
  return value;
}

/**
 * The pending consent a step's body names (`request`).
 *
 * @throws {ConsentError} 400 when it is unknown, answered or expired.
 *
 * @example
 * ```ts
 * const store = openSqliteStore({ path: ":memory:" });
 * await pendingRequest(store.oauth, { request: "an unknown request id" }); // throws ConsentError
 * ```
 */
export async function pendingRequest(
  store: OAuthStore,
  body: Record<string, unknown>,
): Promise<ConsentRequest> {
  const request = await store.request(hashToken(text(body, "request")));
  if (!request) {
    throw new ConsentError(
      400,
      "invalid_request",
      "this consent request is unknown, already answered or expired: start again from the application",
    );
  }
  return request;
}

/**
 * The redirect back to the client: its redirect URI with `params` and the request's `state`.
 *
 * @example
 * ```ts
 * const request: ConsentRequest = {
 *   id: "h",
 *   clientId: "c",
 *   redirectUri: "https://client.example/cb",
 *   state: "s1",
 *   codeChallenge: "x",
 *   scopes: ["trade"],
 *   tradingKeySealed: "v1.x",
 *   expiresAt: 0,
 * };
 * redirectOf(request, { code: "abc" }); // { redirectTo: "https://client.example/cb?code=abc&state=s1" }
 * ```
 */
export function redirectOf(request: ConsentRequest, params: Record<string, string>): { redirectTo: string } {
  const url = new URL(request.redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (request.state !== undefined) url.searchParams.set("state", request.state);
  return { redirectTo: url.href };
}

/**
 * The consent page's three steps, each a JSON `POST` body with the request id: `prepare` (the
 * wallet's address in, the `ServiceTransaction:ApproveAgent` typed data for `eth_signTypedData_v4`
 * out), `approve` (the signature in: checked, sent to the approve-agent service, the authenticator
 * confirmed on chain, then the code's redirect out) and `deny` (the `access_denied` redirect out).
 */
export function consentSteps(deps: ApprovalDeps) {
  const { store, sealer } = deps;

  const pending = (body: Record<string, unknown>) => pendingRequest(store, body);

  const tradingKeyOf = (request: ConsentRequest) =>
    LocalWallet.fromPrivateKey(sealer.open(request.tradingKeySealed));

  return {
    async prepare(body: Record<string, unknown>) {
      const request = await pending(body);
      const evmAddress = text(body, "address", HEX_ADDRESS, "the wallet's 0x address (40 hex digits)");
      const nowMs = Date.now();
      const approval = {
        evmChainId: deps.evmChainId,
        masterAddress: evmAddress,
        agentPublicKey: tradingKeyOf(request).publicKey,
        nonce: nowMs,
        expiry: Math.floor(nowMs / 1000) + deps.approvalSeconds,
      };
      const typedData = approveAgentTypedData(approval);
      await store.saveRequest({
        ...request,
        evmAddress,
        nonce: String(approval.nonce),
        expiry: String(approval.expiry),
      });
      return {
        typedData: { ...jsonSafe(typedData), domain: { ...typedData.domain, chainId: deps.evmChainId } },
      };
    },

    async approve(body: Record<string, unknown>) {
      const request = await pending(body);
      const signature = text(body, "signature", SIGNATURE, "a 65-byte signature as 0x-hex (r, s, v)");
      if (!request.evmAddress || !request.nonce) {
        throw new ConsentError(400, "invalid_request", "connect the wallet and prepare the approval first");
      }
      const key = tradingKeyOf(request);
      const params = {
        evmChainId: deps.evmChainId,
        masterAddress: request.evmAddress,
        agentPublicKey: key.publicKey,
        nonce: BigInt(request.nonce),
        expiry: BigInt(request.expiry ?? 0),
      };
      if (!verifyApproveAgent(params, signature, Math.floor(Date.now() / 1000))) {
        throw new ConsentError(
          400,
          "invalid_request",
          `the signature is not ${request.evmAddress}'s current approval of this trading key`,
        );
      }
      if (!(await store.takeRequest(request.id))) {
        throw new ConsentError(400, "invalid_request", "this consent request was already answered");
      }
      const message = jsonSafe(approveAgentTypedData(params).message);
      let response: Response;
      try {
        response = await fetch(deps.approveAgentUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ typedDataSignature: signature, message }),
        });
      } catch {
        throw new ConsentError(
          502,
          "temporarily_unavailable",
          "the network's approve-agent service is unreachable",
        );
      }
      const answer = (await response.json().catch(() => ({}))) as { address?: string; message?: string };
      if (!response.ok || typeof answer.address !== "string") {
        throw new ConsentError(
          502,
          "server_error",
          `the network refused the approval: ${answer.message ?? `HTTP ${response.status}`}`,
        );
      }
      const credential = encodeCredential({
        masterAddress: answer.address,
        tradingPrivateKey: key.exportPrivateKeyHex(),
      });
      // The chain must now hold the key's scoped authenticator (throws when it does not).
      await authenticatorOf(deps.node, tradingKeyFromCredential(credential));
      const code = await deps.issueCode(request, {
        account: answer.address,
        credentialSealed: sealer.seal(credential),
      });
      return redirectOf(request, { code });
    },

    async deny(body: Record<string, unknown>) {
      const request = await pending(body);
      if (!(await store.takeRequest(request.id))) {
        throw new ConsentError(400, "invalid_request", "this consent request was already answered");
      }
      return redirectOf(request, {
        error: "access_denied",
        error_description: "the user denied the request",
      });
    },
  };
}
