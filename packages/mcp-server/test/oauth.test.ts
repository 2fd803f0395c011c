/**
 * OAuth mode over real HTTP on a devnet: discovery (RFC 9728 at both well-known paths, RFC 8414,
 * the 401 challenge), dynamic registration, PKCE S256 only, exact redirect URIs, single-use codes,
 * refresh rotation with reuse detection, revocation, and a restart that keeps clients and tokens.
 * The consent page's steps run over HTTP here (an EVM wallet signs in Node); the browser drives
 * them in oauth-browser.test.ts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { encodeSignDoc } from "@perpx/node-client/tx";
import { LocalWallet, tradingKeyFromCredential } from "@perpx/node-client/wallets";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { sparePorts } from "../../../tests/support/spare-ports.js";
import { createSealer } from "../src/oauth/secrets.js";
import {
  authorizeUrl,
  consentOverHttp,
  consentStep,
  fundedEvmWallet,
  OAUTH_SECRET,
  originOf,
  pkcePair,
  registerClient,
  tokenRequest,
} from "./oauth-support.js";
import { call, useMcpNet } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "perpx-mcp-oauth-"));
const net = useMcpNet({ server: { auth: "oauth", oauth: { secret: OAUTH_SECRET } } });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REDIRECT = "http://127.0.0.1:7/callback";
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
};
const postMcp = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(initialize),
  });

/** Registration and consent: a code for a fresh grant, and its PKCE verifier. */
async function consentCode(origin: string, state = "s-1") {
  const client = await registerClient(origin, REDIRECT);
  const { verifier, challenge } = pkcePair();
  const evm = await fundedEvmWallet(net.devnet);
  const back = await consentOverHttp(
    origin,
    authorizeUrl(origin, { clientId: client.client_id, redirectUri: REDIRECT, challenge, state }),
    evm,
  );
  return { client, back, code: back.searchParams.get("code") ?? "", verifier };
}

/** Registration, consent and the code exchange: the tokens of a fresh grant. */
async function grantTokens(origin: string) {
  const { client, code, verifier } = await consentCode(origin);
  const tokens = await tokenRequest(origin, {
    grant_type: "authorization_code",
    client_id: client.client_id,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
  });
  return { client, tokens };
}

describe("discovery", () => {
  it("serves Protected Resource Metadata at both well-known paths and RFC 8414 metadata; the SDK's client discovers them", async () => {
    const origin = originOf(net.server.url);
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        resource: net.server.url,
        authorization_servers: [`${origin}/`],
        scopes_supported: ["trade"],
      });
    }
    const prm = await discoverOAuthProtectedResourceMetadata(net.server.url);
    expect(prm.resource).toBe(net.server.url);
    const metadata = await discoverAuthorizationServerMetadata(new URL(prm.authorization_servers?.[0] ?? ""));
    expect(metadata).toMatchObject({
      issuer: `${origin}/`,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      registration_endpoint: `${origin}/register`,
      revocation_endpoint: `${origin}/revoke`,
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token"],
    });
  });

  it("answers /mcp without a token 401 naming the resource metadata, and a bad token 401 invalid_token", async () => {
    const origin = originOf(net.server.url);
    const prm = `${origin}/.well-known/oauth-protected-resource/mcp`;
    const none = await postMcp(net.server.url);
    expect(none.status).toBe(401);
    const challenge = none.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(`Bearer resource_metadata="${prm}"`);
    expect(challenge).not.toContain("error=");
    const bad = await postMcp(net.server.url, { authorization: "Bearer not-a-token" });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toMatch(
      new RegExp(`resource_metadata="${prm}".*error="invalid_token"`),
    );
    // A static credential is no token in OAuth mode.
    const account = await net.account();
    const staticCredential = await postMcp(net.server.url, { authorization: `Bearer ${account.credential}` });
    expect(staticCredential.status).toBe(401);
  });

  it("advertises nothing in static mode: the well-known paths answer 404", async () => {
    const server = await net.startServer({ auth: "static" });
    const origin = originOf(server.url);
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-authorization-server",
      "/authorize",
      "/register",
      "/token",
    ]) {
      expect((await fetch(`${origin}${path}`)).status).toBe(404);
    }
    const none = await postMcp(server.url);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).not.toContain("resource_metadata");
  });
});

describe("registration, PKCE and codes", () => {
  it("refuses plain PKCE and an unregistered redirect URI (even another port on loopback)", async () => {
    const origin = originOf(net.server.url);
    const client = await registerClient(origin, REDIRECT);
    const { challenge } = pkcePair();
    const plain = await fetch(
      authorizeUrl(origin, {
        clientId: client.client_id,
        redirectUri: REDIRECT,
        challenge,
        state: "p",
        method: "plain",
      }),
      { redirect: "manual" },
    );
    expect(plain.status).toBe(302);
    const location = new URL(plain.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("state")).toBe("p");
    expect(location.searchParams.get("code")).toBeNull();
    for (const redirectUri of ["http://127.0.0.1:8/callback", "https://evil.example/callback"]) {
      const wrong = await fetch(
        authorizeUrl(origin, { clientId: client.client_id, redirectUri, challenge }),
        {
          redirect: "manual",
        },
      );
      expect(wrong.status).toBe(400);
      expect(wrong.headers.get("location")).toBeNull();
      expect(((await wrong.json()) as { error: string }).error).toBe("invalid_request");
    }
    const http = await fetch(`${origin}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["http://evil.example/cb"], token_endpoint_auth_method: "none" }),
    });
    expect(http.status).toBe(400);
    expect(((await http.json()) as { error: string }).error).toBe("invalid_client_metadata");
  });

  it("echoes state, refuses a wrong verifier and a wrong redirect URI, then a reused code (revoking its grant)", async () => {
    const origin = originOf(net.server.url);
    const { client, back, code, verifier } = await consentCode(origin, "xyz");
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("xyz");
    const base = { grant_type: "authorization_code", client_id: client.client_id, code };
    const wrongVerifier = await tokenRequest(origin, { ...base, code_verifier: pkcePair().verifier });
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const wrongRedirect = await tokenRequest(origin, {
      ...base,
      code_verifier: verifier,
      redirect_uri: "http://127.0.0.1:8/callback",
    });
    expect(wrongRedirect).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const good = await tokenRequest(origin, { ...base, code_verifier: verifier, redirect_uri: REDIRECT });
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "trade" });
    expect(good.body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = await net.connect(good.body.access_token ?? "");
    expect((await session.listTools()).tools.map((t) => t.name)).toContain("place_order");
    const reused = await tokenRequest(origin, { ...base, code_verifier: verifier });
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // The reuse revoked the grant: its access token no longer opens a session.
    expect(
      (await postMcp(net.server.url, { authorization: `Bearer ${good.body.access_token}` })).status,
    ).toBe(401);
  });

  it("refuses a consent step for an unknown request, a foreign origin, a bad signature; deny redirects access_denied", async () => {
    const origin = originOf(net.server.url);
    const client = await registerClient(origin, REDIRECT);
    const { challenge } = pkcePair();
    const href = authorizeUrl(origin, {
      clientId: client.client_id,
      redirectUri: REDIRECT,
      challenge,
      state: "d",
    });
    const request = /data-request="([^"]+)"/.exec(await (await fetch(href)).text())?.[1] ?? "";
    const evm = await fundedEvmWallet(net.devnet);
    expect((await consentStep(origin, "prepare", { request: "nope", address: evm.evmAddress })).status).toBe(
      400,
    );
    const foreign = await fetch(`${origin}/consent/prepare`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ request, address: evm.evmAddress }),
    });
    expect(foreign.status).toBe(403);
    const prepared = await consentStep(origin, "prepare", { request, address: evm.evmAddress });
    expect(prepared.status).toBe(200);
    const other = await fundedEvmWallet(net.devnet);
    const forged = await consentStep(origin, "approve", {
      request,
      signature: other.signTypedData(prepared.body.typedData as never),
    });
    expect(forged.status).toBe(400);
    expect(String(forged.body.error_description)).toContain(evm.evmAddress);
    const denied = await consentStep(origin, "deny", { request });
    const to = new URL(String(denied.body.redirectTo));
    expect(to.searchParams.get("error")).toBe("access_denied");
    expect(to.searchParams.get("state")).toBe("d");
    expect((await consentStep(origin, "approve", { request, signature: "0x00" })).status).toBe(400);
  });
});

describe("the Cosmos-wallet consent", () => {
  it("refuses approving before preparing and a signature the chain rejects; preparing again (twice) then works", async () => {
    const origin = originOf(net.server.url);
    const client = await registerClient(origin, REDIRECT);
    const { challenge } = pkcePair();
    const href = authorizeUrl(origin, {
      clientId: client.client_id,
      redirectUri: REDIRECT,
      challenge,
      state: "c",
    });
    const request = /data-request="([^"]+)"/.exec(await (await fetch(href)).text())?.[1] ?? "";
    const wallet = LocalWallet.generate();
    const funded = await fetch(`${net.devnet.endpoints.faucet}/faucet/tokens`, {
      method: "POST",
      body: JSON.stringify({ address: wallet.address }),
    });
    expect(funded.status).toBe(200);
    const key = {
      request,
      address: wallet.address,
      publicKey: Buffer.from(wallet.publicKey).toString("base64"),
    };
    const sign = (doc: Record<string, string>, signer: LocalWallet) => {
      const fields = {
        bodyBytes: new Uint8Array(Buffer.from(doc.bodyBytes ?? "", "base64")),
        authInfoBytes: new Uint8Array(Buffer.from(doc.authInfoBytes ?? "", "base64")),
        chainId: doc.chainId ?? "",
        accountNumber: BigInt(doc.accountNumber ?? ""),
      };
      return Buffer.from(signer.signDirect(fields, encodeSignDoc(fields)).signature).toString("base64");
    };
    const early = await consentStep(origin, "cosmos/approve", { request, signature: "AA==" });
    expect(early).toMatchObject({
      status: 400,
      body: { error_description: expect.stringMatching(/prepare/) },
    });
    const badKey = await consentStep(origin, "cosmos/prepare", { ...key, publicKey: "AAAA" });
    expect(badKey.status).toBe(400);

    const first = await consentStep(origin, "cosmos/prepare", key);
    expect(first.status).toBe(200);
    const doc = first.body.signDoc as Record<string, string>;
    expect(doc.chainId).toBe("perpx-local-1");
    const forged = await consentStep(origin, "cosmos/approve", {
      request,
      signature: sign(doc, LocalWallet.generate()),
    });
    expect(forged).toMatchObject({
      status: 400,
      body: { error_description: expect.stringMatching(/chain refused the signed transaction/) },
    });

    // Preparing again (the wallet was closed without signing) abandons the unsigned transaction.
    expect((await consentStep(origin, "cosmos/prepare", key)).status).toBe(200);
    const third = await consentStep(origin, "cosmos/prepare", key);
    expect(third.status).toBe(200);
    const approved = await consentStep(origin, "cosmos/approve", {
      request,
      signature: sign(third.body.signDoc as Record<string, string>, wallet),
    });
    expect(approved.status).toBe(200);
    const back = new URL(String(approved.body.redirectTo));
    expect(back.searchParams.get("state")).toBe("c");
    expect(back.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe("tokens", () => {
  it("rotates refresh tokens; a reused refresh token revokes the grant; revocation ends a grant", async () => {
    const origin = originOf(net.server.url);
    const { client, tokens } = await grantTokens(origin);
    expect(tokens.status).toBe(200);
    const first = tokens.body;
    const refreshed = await tokenRequest(origin, {
      grant_type: "refresh_token",
      client_id: client.client_id,
      refresh_token: first.refresh_token ?? "",
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    expect(refreshed.body.access_token).not.toBe(first.access_token);
    const session = await net.connect(refreshed.body.access_token ?? "");
    expect((await call(session, "get_trading_limits")).readOnly).toBe(false);
    const reused = await tokenRequest(origin, {
      grant_type: "refresh_token",
      client_id: client.client_id,
      refresh_token: first.refresh_token ?? "",
    });
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(
      (await postMcp(net.server.url, { authorization: `Bearer ${refreshed.body.access_token}` })).status,
    ).toBe(401);

    const secondGrant = await grantTokens(origin);
    const second = secondGrant.tokens.body;
    const revoke = (clientId: string) =>
      fetch(`${origin}/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ client_id: clientId, token: second.refresh_token ?? "" }).toString(),
      });
    const bearer = { authorization: `Bearer ${second.access_token}` };
    // Another client's token: nothing happens (RFC 7009 answers 200 either way).
    expect((await revoke(client.client_id)).status).toBe(200);
    expect((await postMcp(net.server.url, bearer)).status).toBe(200);
    // Its own client revokes the refresh token: the grant ends, its access token with it.
    expect((await revoke(secondGrant.client.client_id)).status).toBe(200);
    expect((await postMcp(net.server.url, bearer)).status).toBe(401);
  });

  it("expires access tokens (401 invalid_token); the refresh token still renews them", async () => {
    const server = await net.startServer({ oauth: { secret: OAUTH_SECRET, accessTokenTtlSeconds: 1 } });
    const origin = originOf(server.url);
    const { client, tokens } = await grantTokens(origin);
    expect(tokens.body.expires_in).toBe(1);
    await vi.waitFor(
      async () => {
        const expired = await postMcp(server.url, { authorization: `Bearer ${tokens.body.access_token}` });
        expect(expired.status).toBe(401);
        expect(expired.headers.get("www-authenticate")).toContain('error="invalid_token"');
      },
      { timeout: 10_000, interval: 200 },
    );
    const renewed = await tokenRequest(origin, {
      grant_type: "refresh_token",
      client_id: client.client_id,
      refresh_token: tokens.body.refresh_token ?? "",
    });
    expect(renewed.status).toBe(200);
    expect((await postMcp(server.url, { authorization: `Bearer ${renewed.body.access_token}` })).status).toBe(
      200,
    );
  });

  it("keeps clients and tokens across a restart; the store holds no token or key in clear", async () => {
    const database = join(dir, "state.db");
    // A spare port, which no parallel test takes while the server is down.
    const [port] = await sparePorts(1);
    const first = await net.startServer({ database, port: port! });
    const origin = originOf(first.url);
    const { client, tokens } = await grantTokens(origin);
    const access = tokens.body.access_token ?? "";
    await first.close();
    const again = await net.startServer({ database, port: first.port });
    const session = await net.connect(access, again);
    expect((await session.listTools()).tools.map((t) => t.name)).toContain("place_order");
    const refreshed = await tokenRequest(origin, {
      grant_type: "refresh_token",
      client_id: client.client_id,
      refresh_token: tokens.body.refresh_token ?? "",
    });
    expect(refreshed.status).toBe(200);
    await again.close();
    // Another server secret cannot open the stored grants: its tokens are refused, not a 500.
    const rekeyed = await net.startServer({
      database,
      oauth: { secret: `${OAUTH_SECRET} rotated` },
    });
    const refused = await fetch(rekeyed.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${refreshed.body.access_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("another server secret");
    await rekeyed.close();
    const bytes = [database, `${database}-wal`]
      .filter((file) => existsSync(file))
      .map((file) => readFileSync(file).toString("latin1"))
      .join("");
    const db = new Database(database, { readonly: true });
    const grants = (db.prepare("SELECT record FROM oauth_grants").all() as { record: string }[]).map(
      (row) => JSON.parse(row.record) as { credentialSealed: string },
    );
    db.close();
    expect(grants).toHaveLength(1);
    const credential = createSealer(OAUTH_SECRET).open(grants[0]?.credentialSealed ?? "");
    const privateKey = tradingKeyFromCredential(credential).wallet.exportPrivateKeyHex();
    expect(bytes.includes(privateKey)).toBe(false);
    expect(bytes.includes(credential)).toBe(false);
    for (const secret of [access, tokens.body.refresh_token ?? "", refreshed.body.access_token ?? ""]) {
      expect(bytes.includes(secret)).toBe(false);
    }
  });
});
