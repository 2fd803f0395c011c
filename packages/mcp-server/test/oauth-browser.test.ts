/**
 * OAuth mode end to end, as an agent host runs it: the MCP SDK's own client discovers the server,
 * registers, and sends the user to the consent page, which real headless Chromium (Debian's
 * `chromium`, driven by playwright-core) renders with a test EVM wallet injected as
 * `window.ethereum` (it signs in Node with a real secp256k1 key through our EvmWallet). The page
 * connects the wallet, has it sign the EIP-712 `ServiceTransaction:ApproveAgent`, and returns with a
 * code; the SDK exchanges it, then lists tools and places and cancels an order with the token. On
 * chain, the account holds exactly the scoped authenticator for the server's key, and the key
 * cannot withdraw.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { TypedData } from "@perpx/core";
import { isPerpxError } from "@perpx/errors";
import {
  encodeAuthenticatorConfig,
  tradingKeyAuthenticator,
  withdrawFromSubaccountMsg,
} from "@perpx/node-client";
import { tradingKeyFromCredential } from "@perpx/node-client/wallets";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChromium } from "../../node-client/test/browser/chromium.js";
import { type BrowserHost, hostPage } from "../../node-client/test/browser/host.js";
import { authenticatorOf } from "../src/index.js";
import { createSealer } from "../src/oauth/secrets.js";
import { fundedEvmWallet, OAUTH_SECRET } from "./oauth-support.js";
import { useMcpNet } from "./support.js";

const dir = mkdtempSync(join(tmpdir(), "perpx-mcp-oauth-browser-"));
const database = join(dir, "state.db");
const net = useMcpNet({ server: { auth: "oauth", oauth: { secret: OAUTH_SECRET }, database } });

/** The agent host's side: what the SDK asks an OAuth client provider for, kept in memory. */
class HostProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  readonly expectedState = `state-${Math.random().toString(36).slice(2)}`;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "perpx test agent host",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  state() {
    return this.expectedState;
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let host: BrowserHost | undefined;
let callback: Server | undefined;
let callbackUrl = "";
const problems: string[] = [];

beforeAll(async () => {
  const executablePath = findChromium(); // throws with what to install: never a silent skip
  host = await hostPage("", executablePath);
  callback = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>back</title><p>done</p>");
  });
  await new Promise<void>((resolve) => callback?.listen(0, "127.0.0.1", resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
}, 180_000);

afterAll(async () => {
  await host?.close();
  await new Promise<void>((resolve) => (callback ? callback.close(() => resolve()) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe("OAuth in a real browser with an injected EVM wallet", () => {
  it("discovers, registers, consents in Chromium, exchanges the code, then trades through the SDK client", async () => {
    const evm = await fundedEvmWallet(net.devnet);
    const provider = new HostProvider(callbackUrl);
    expect(await auth(provider, { serverUrl: net.server.url })).toBe("REDIRECT");
    const authorizationUrl = provider.authorizationUrl;
    if (!authorizationUrl) throw new Error("the SDK did not redirect");
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(net.server.url);

    const context = await host!.browser.newContext();
    const page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    const walletCalls: string[] = [];
    await page.exposeFunction("perpxTestWallet", (method: string, params: unknown[]) => {
      walletCalls.push(method);
      if (method === "eth_requestAccounts" || method === "eth_accounts") return [evm.evmAddress];
      if (method === "eth_signTypedData_v4") {
        const [address, json] = params as [string, string];
        if (address.toLowerCase() !== evm.evmAddress.toLowerCase()) throw new Error("unknown account");
        return evm.signTypedData(JSON.parse(json) as TypedData);
      }
      throw new Error(`unsupported method ${method}`);
    });
    // An EIP-1193 provider whose requests the Node-side wallet answers.
    await page.addInitScript({
      content:
        "window.ethereum = { isMetaMask: false, request: ({ method, params }) => window.perpxTestWallet(method, params ?? []) };",
    });
    await page.goto(authorizationUrl.href, { waitUntil: "load" });
    expect(await page.locator("#client").textContent()).toBe("perpx test agent host");
    expect(await page.locator("#scope").textContent()).toMatch(/place orders.*cancel orders.*batch-cancel/s);
    await page.locator("#connect").click();
    await expect.poll(() => page.locator("#account").textContent()).toBe(evm.evmAddress);
    await page.locator("#approve").click();
    await page.waitForURL((url) => url.href.startsWith(callbackUrl), { timeout: 60_000 });
    const back = new URL(page.url());
    await context.close();
    expect(walletCalls).toEqual(["eth_requestAccounts", "eth_signTypedData_v4"]);
    expect(back.searchParams.get("state")).toBe(provider.expectedState);
    const code = back.searchParams.get("code");
    if (!code) throw new Error(`no code: ${back.href}`);
    // The page's URLs never carried a key or a token: only the code and the state came back.
    expect([...back.searchParams.keys()].sort()).toEqual(["code", "state"]);

    expect(await auth(provider, { serverUrl: net.server.url, authorizationCode: code })).toBe("AUTHORIZED");
    expect(provider.saved?.token_type).toBe("Bearer");

    const transport = new StreamableHTTPClientTransport(new URL(net.server.url), { authProvider: provider });
    const client = new Client({ name: "perpx-oauth-test", version: "0" });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(["place_order", "cancel_order", "get_account"]));
      const tool = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
        // biome-ignore lint/suspicious/noExplicitAny: the test reads tool results loosely
        return result.structuredContent as Record<string, any>;
      };
      expect((await tool("get_account", {})).account.address).toBe(evm.address);
      const oracle = Number((await tool("get_market", { ticker: "BTC-USD" })).market.oraclePrice);
      const placed = await tool("place_order", {
        ticker: "BTC-USD",
        side: "BUY",
        type: "LIMIT",
        size: "0.001",
        price: String(Math.floor(oracle * 0.97)),
        clientId: 4242,
      });
      expect(placed.verification.state).toBe("RESTING");
      const cancelled = await tool("cancel_order", { clientId: 4242, ticker: "BTC-USD" });
      expect(cancelled.results).toEqual([
        expect.objectContaining({ cancelled: true, finalStatus: "CANCELED" }),
      ]);
    } finally {
      await client.close();
    }

    // The operator's view: the store holds the credential sealed under the server secret.
    const db = new Database(database, { readonly: true });
    const rows = db.prepare("SELECT record FROM oauth_grants").all() as { record: string }[];
    db.close();
    expect(rows).toHaveLength(1);
    const grant = JSON.parse(rows[0]?.record ?? "{}") as { account: string; credentialSealed: string };
    expect(grant.account).toBe(evm.address);
    const tradingKey = tradingKeyFromCredential(createSealer(OAUTH_SECRET).open(grant.credentialSealed));
    expect(grant.credentialSealed).not.toContain(tradingKey.wallet.exportPrivateKeyHex());

    // On chain: exactly one trading-key authenticator, the scoped one of the server's key.
    const { node } = (await net.account()).client.context;
    const authenticators = await node.getAuthenticators({ address: evm.address });
    const allOf = authenticators.filter((a) => a.type === "AllOf");
    expect(allOf).toHaveLength(1);
    expect(allOf[0]?.config.join()).toBe(
      encodeAuthenticatorConfig(tradingKeyAuthenticator(tradingKey.wallet.publicKey)).join(),
    );
    expect(authenticators.filter((a) => a.type !== "AllOf").map((a) => a.type)).toEqual([
      "EthAddressSignatureVerification",
    ]);
    // Signing directly with the key, bypassing the server: the chain refuses a withdrawal.
    const authenticatorId = await authenticatorOf(node, tradingKey);
    const withdraw = await node
      .sendWithTradingKey({
        tradingKey,
        authenticatorId,
        messages: [
          withdrawFromSubaccountMsg({
            sender: { owner: evm.address, number: 0 },
            recipient: evm.address,
            quantums: 1_000_000n,
          }),
        ],
      })
      .catch((error: unknown) => error);
    expect(isPerpxError(withdraw) && withdraw.code).toBe("BROADCAST_TX");
    expect(problems).toEqual([]);
    // Nothing the server logged carries the token or the key.
    const logged = net.logs.join("\n");
    expect(logged).not.toContain(provider.saved?.access_token ?? "-");
    expect(logged).not.toContain(tradingKey.wallet.exportPrivateKeyHex());
  }, 180_000);
});
