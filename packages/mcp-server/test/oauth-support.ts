import { createHash, randomBytes } from "node:crypto";
import type { TypedData } from "@perpx/core";
import type { Devnet } from "@perpx/devnet";
import { EvmWallet } from "@perpx/node-client/wallets";

/** The server secret of the tests' OAuth servers. */
export const OAUTH_SECRET = "a test server secret for the perpx agent server's OAuth mode";

/** The server's origin (issuer) of an MCP URL. */
export const originOf = (mcpUrl: string) => new URL(mcpUrl).origin;

/** An EVM wallet whose account the faucet opened and funded. */
export async function fundedEvmWallet(devnet: Devnet): Promise<EvmWallet> {
  const evm = EvmWallet.generate();
  const funded = await fetch(`${devnet.endpoints.faucet}/faucet/tokens`, {
    method: "POST",
    body: JSON.stringify({ address: evm.evmAddress }),
  });
  if (!funded.ok) throw new Error(`the faucet refused: ${await funded.text()}`);
  return evm;
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A registered public client (dynamic client registration). */
export interface TestClient {
  client_id: string;
  redirect_uris: string[];
}

/** Registers a public client with one redirect URI. */
export async function registerClient(origin: string, redirectUri: string): Promise<TestClient> {
  const response = await fetch(`${origin}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "perpx test agent",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }),
  });
  if (response.status !== 201)
    throw new Error(`registration refused: ${response.status} ${await response.text()}`);
  return (await response.json()) as TestClient;
}

/** The `/authorize` URL of a request. */
export function authorizeUrl(
  origin: string,
  params: { clientId: string; redirectUri: string; challenge: string; state?: string; method?: string },
): string {
  const url = new URL("/authorize", origin);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", params.clientId);
  url.searchParams.set("redirect_uri", params.redirectUri);
  url.searchParams.set("code_challenge", params.challenge);
  url.searchParams.set("code_challenge_method", params.method ?? "S256");
  if (params.state !== undefined) url.searchParams.set("state", params.state);
  return url.href;
}

/** POSTs a consent step as the page's script does. */
export async function consentStep(origin: string, step: string, body: Record<string, unknown>) {
  const response = await fetch(`${origin}/consent/${step}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Runs the consent page's steps over HTTP (what its script does, without a browser): reads the
 * request id from the page, prepares, signs the typed data with the wallet, approves.
 * @returns the redirect the server answers.
 */
export async function consentOverHttp(origin: string, authorizeHref: string, evm: EvmWallet): Promise<URL> {
  const page = await fetch(authorizeHref);
  if (page.status !== 200) throw new Error(`authorize answered ${page.status}: ${await page.text()}`);
  const request = /data-request="([^"]+)"/.exec(await page.text())?.[1];
  if (!request) throw new Error("no request id in the consent page");
  const prepared = await consentStep(origin, "prepare", { request, address: evm.evmAddress });
  if (prepared.status !== 200) throw new Error(`prepare: ${JSON.stringify(prepared.body)}`);
  const signature = evm.signTypedData(prepared.body.typedData as TypedData);
  const approved = await consentStep(origin, "approve", { request, signature });
  if (approved.status !== 200) throw new Error(`approve: ${JSON.stringify(approved.body)}`);
  return new URL(approved.body.redirectTo as string);
}

/** A `/token` request (form-encoded), answering status and JSON. */
export async function tokenRequest(origin: string, form: Record<string, string>) {
  const response = await fetch(`${origin}/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}
