/**
 * The authorization server's error responses over real HTTP on a devnet, each with the RFC's code
 * and status: client authentication at the token and revocation endpoints (RFC 6749 2.3 and 5.2:
 * `invalid_client` is a 401 with a `WWW-Authenticate` challenge, HTTP Basic is accepted), the token
 * grants (`invalid_request`, `invalid_grant`, `unauthorized_client`, `unsupported_grant_type`,
 * `invalid_scope`, RFC 8707's `invalid_target`), the authorization endpoint's redirected refusals
 * (RFC 6749 4.1.2.1) and registration (RFC 7591 3.2.2). The happy paths are in oauth.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  authorizeUrl,
  consentOverHttp,
  fundedEvmWallet,
  OAUTH_SECRET,
  originOf,
  pkcePair,
  registerClient,
  tokenRequest,
} from "./oauth-support.js";
import { useMcpNet } from "./support.js";

const net = useMcpNet({ server: { auth: "oauth", oauth: { secret: OAUTH_SECRET } } });
const REDIRECT = "http://127.0.0.1:7/callback";

/** Registers a client with the given metadata, answering status and JSON. */
async function register(origin: string, metadata: Record<string, unknown>) {
  const response = await fetch(`${origin}/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(metadata),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** A form POST with optional headers, answering status, headers and JSON. */
async function post(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, string>,
  };
}

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;

/** The error a refused `/authorize` sends the user back with. */
async function authorizeRefusal(href: string) {
  const response = await fetch(href, { redirect: "manual" });
  expect(response.status).toBe(302);
  const back = new URL(response.headers.get("location") ?? "");
  expect(back.origin + back.pathname).toBe(REDIRECT);
  expect(back.searchParams.get("code")).toBeNull();
  return { error: back.searchParams.get("error"), state: back.searchParams.get("state") };
}

/** A client (registered with `metadata`) and the code and verifier of its approved consent. */
async function approvedCode(origin: string, metadata: Record<string, unknown> = {}) {
  const registered = await register(origin, {
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: "none",
    ...metadata,
  });
  expect(registered.status).toBe(201);
  const clientId = registered.body.client_id ?? "";
  const { verifier, challenge } = pkcePair();
  const back = await consentOverHttp(
    origin,
    authorizeUrl(origin, { clientId, redirectUri: REDIRECT, challenge }),
    await fundedEvmWallet(net.devnet),
  );
  return { clientId, code: back.searchParams.get("code") ?? "", verifier };
}

describe("client authentication at the token and revocation endpoints", () => {
  it("answers invalid_client with 401 and a Basic challenge; accepts client_secret_basic and client_secret_post", async () => {
    const origin = originOf(net.server.url);
    for (const url of [`${origin}/token`, `${origin}/revoke`]) {
      for (const form of [{ client_id: "no-such-client", token: "t" }, { token: "t" }]) {
        const refused = await post(url, { grant_type: "refresh_token", refresh_token: "r", ...form });
        expect(refused).toMatchObject({ status: 401, body: { error: "invalid_client" } });
        expect(refused.headers.get("www-authenticate")).toMatch(/^Basic realm=/);
        expect(refused.headers.get("cache-control")).toBe("no-store");
      }
    }
    // Registered without an auth method: a confidential client (RFC 7591's default, client_secret_basic).
    const confidential = await register(origin, { client_name: "confidential", redirect_uris: [REDIRECT] });
    expect(confidential.status).toBe(201);
    const { client_id: id = "", client_secret: secret = "" } = confidential.body;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(confidential.body.token_endpoint_auth_method).toBe("client_secret_basic");
    const refresh = { grant_type: "refresh_token", refresh_token: "unknown" };
    const cases = [
      { form: { ...refresh, client_id: id }, headers: {}, error: "invalid_client", status: 401 },
      {
        form: { ...refresh, client_id: id, client_secret: "wrong" },
        headers: {},
        error: "invalid_client",
        status: 401,
      },
      { form: refresh, headers: { authorization: basic(id, "wrong") }, error: "invalid_client", status: 401 },
      // Authenticated (Basic, then post): the grant itself is what is refused.
      { form: refresh, headers: { authorization: basic(id, secret) }, error: "invalid_grant", status: 400 },
      {
        form: { ...refresh, client_id: id, client_secret: secret },
        headers: {},
        error: "invalid_grant",
        status: 400,
      },
    ];
    for (const { form, headers, error, status } of cases) {
      expect(await post(`${origin}/token`, form, headers)).toMatchObject({ status, body: { error } });
    }
    const revoked = await post(
      `${origin}/revoke`,
      { token: "unknown" },
      { authorization: basic(id, secret) },
    );
    expect(revoked).toMatchObject({ status: 200, body: {} });
  });

  it("refuses a missing or unsupported grant_type, a missing token to revoke, other methods (405), and answers a CORS preflight", async () => {
    const origin = originOf(net.server.url);
    const client = await registerClient(origin, REDIRECT);
    const base = { client_id: client.client_id };
    expect(await post(`${origin}/token`, base)).toMatchObject({
      status: 400,
      body: { error: "invalid_request" },
    });
    expect(await post(`${origin}/token`, { ...base, grant_type: "client_credentials" })).toMatchObject({
      status: 400,
      body: { error: "unsupported_grant_type" },
    });
    expect(
      await post(`${origin}/token`, { ...base, grant_type: "authorization_code", code: "c" }),
    ).toMatchObject({
      status: 400,
      body: { error: "invalid_request", error_description: expect.stringContaining("code_verifier") },
    });
    expect(await post(`${origin}/revoke`, base)).toMatchObject({
      status: 400,
      body: { error: "invalid_request" },
    });
    const get = await fetch(`${origin}/token`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const preflight = await fetch(`${origin}/token`, {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("the authorization endpoint", () => {
  it("redirects unsupported_response_type, invalid_request, invalid_scope and invalid_target with state; an unknown client gets 400 and no redirect", async () => {
    const origin = originOf(net.server.url);
    const client = await registerClient(origin, REDIRECT);
    const { challenge } = pkcePair();
    const href = (change: Record<string, string | null>) => {
      const url = new URL(
        authorizeUrl(origin, { clientId: client.client_id, redirectUri: REDIRECT, challenge, state: "st" }),
      );
      for (const [name, value] of Object.entries(change)) {
        if (value === null) url.searchParams.delete(name);
        else url.searchParams.set(name, value);
      }
      return url.href;
    };
    const cases: [Record<string, string | null>, string][] = [
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ code_challenge: null }, "invalid_request"],
      [{ code_challenge: "short" }, "invalid_request"],
      [{ scope: "trade admin" }, "invalid_scope"],
      [{ resource: "https://other.example/mcp" }, "invalid_target"],
    ];
    for (const [change, error] of cases) {
      expect(await authorizeRefusal(href(change))).toEqual({ error, state: "st" });
    }
    const unknown = await fetch(href({ client_id: "no-such-client" }), { redirect: "manual" });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get("location")).toBeNull();
    expect(((await unknown.json()) as { error: string }).error).toBe("invalid_request");
  });
});

describe("registration", () => {
  it("refuses unsupported auth methods, grant types, response types, missing redirect URIs and bad URLs with invalid_client_metadata", async () => {
    const origin = originOf(net.server.url);
    for (const metadata of [
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: "private_key_jwt" },
      { redirect_uris: [REDIRECT], grant_types: ["client_credentials"] },
      { redirect_uris: [REDIRECT], response_types: ["token"] },
      { redirect_uris: [REDIRECT], logo_uri: "javascript:alert(1)" },
      { client_name: "no redirect URIs" },
      { redirect_uris: "http://127.0.0.1:7/callback" },
    ]) {
      expect(await register(origin, metadata)).toMatchObject({
        status: 400,
        body: { error: "invalid_client_metadata" },
      });
    }
    const notJson = await fetch(`${origin}/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: string }).error).toBe("invalid_request");
  });
});

describe("the code and refresh-token grants", () => {
  it("refuses another client's code, a PKCE mismatch, a wrong redirect_uri or resource (code kept), then a reused code", async () => {
    const origin = originOf(net.server.url);
    const { clientId, code, verifier } = await approvedCode(origin);
    const other = await registerClient(origin, REDIRECT);
    const form = { grant_type: "authorization_code", client_id: clientId, code, code_verifier: verifier };
    const refusals: [Record<string, string>, string][] = [
      [{ client_id: other.client_id }, "invalid_grant"],
      [{ code_verifier: pkcePair().verifier }, "invalid_grant"],
      [{ redirect_uri: "http://127.0.0.1:7/other" }, "invalid_grant"],
      [{ resource: "https://other.example/mcp" }, "invalid_target"],
    ];
    for (const [change, error] of refusals) {
      const refused = await tokenRequest(origin, { ...form, ...change });
      expect(refused, error).toMatchObject({ status: 400, body: { error } });
    }
    const good = await tokenRequest(origin, { ...form, redirect_uri: REDIRECT, resource: net.server.url });
    expect(good.status).toBe(200);
    expect(await tokenRequest(origin, form)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
  });

  it("refuses a refresh beyond the granted scope, a revoked refresh token, and a grant the client did not register (unauthorized_client)", async () => {
    const origin = originOf(net.server.url);
    const { clientId, code, verifier } = await approvedCode(origin);
    const tokens = await tokenRequest(origin, {
      grant_type: "authorization_code",
      client_id: clientId,
      code,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    const refresh = {
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: tokens.body.refresh_token ?? "",
    };
    expect(await tokenRequest(origin, { ...refresh, scope: "trade admin" })).toMatchObject({
      status: 400,
      body: { error: "invalid_scope" },
    });
    const revoke = await post(`${origin}/revoke`, { client_id: clientId, token: refresh.refresh_token });
    expect(revoke.status).toBe(200);
    expect(await tokenRequest(origin, refresh)).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });

    // A client that registered the authorization_code grant only may not refresh.
    const codeOnly = await approvedCode(origin, { grant_types: ["authorization_code"] });
    const codeOnlyTokens = await tokenRequest(origin, {
      grant_type: "authorization_code",
      client_id: codeOnly.clientId,
      code: codeOnly.code,
      code_verifier: codeOnly.verifier,
    });
    expect(codeOnlyTokens.status).toBe(200);
    expect(codeOnlyTokens.body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codeOnlyTokens.body.refresh_token).toBeUndefined();
    expect(
      await tokenRequest(origin, {
        grant_type: "refresh_token",
        client_id: codeOnly.clientId,
        refresh_token: tokens.body.refresh_token ?? "",
      }),
    ).toMatchObject({ status: 400, body: { error: "unauthorized_client" } });
  });
});
