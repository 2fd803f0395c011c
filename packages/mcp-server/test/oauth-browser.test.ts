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
import { getAuthenticators } from "@perpx/node-client/queries";
import {
  encodeAuthenticatorConfig,
  encodeSignDoc,
  tradingKeyAuthenticator,
  withdrawFromSubaccountMsg,
} from "@perpx/node-client/tx";
import { LocalWallet, tradingKeyFromCredential } from "@perpx/node-client/wallets";
import Database from "better-sqlite3";
import type { Page } from "playwright-core";
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

/**
 * Opens the consent page in Chromium with a wallet injected by `inject`, connects it with the
 * `connect` button, approves, and answers the URL the page returned to.
 */
async function consentInBrowser(
  authorizationUrl: URL,
  connect: string,
  shownAccount: string,
  inject: (page: Page) => Promise<void>,
): Promise<URL> {
  const context = await host!.browser.newContext();
  try {
    const page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    await inject(page);
    await page.goto(authorizationUrl.href, { waitUntil: "load" });
    expect(await page.locator("#client").textContent()).toBe("perpx test agent host");
    expect(await page.locator("#redirect").textContent()).toBe(new URL(callbackUrl).origin);
    expect(await page.locator("#scope").textContent()).toMatch(/place orders.*cancel orders.*batch-cancel/s);
    await page.locator(connect).click();
    await expect.poll(() => page.locator("#account").textContent()).toBe(shownAccount);
    await page.locator("#approve").click();
    await page.waitForURL((url) => url.href.startsWith(callbackUrl), { timeout: 60_000 });
    return new URL(page.url());
  } finally {
    await context.close();
  }
}

/** The trading credential the store holds for an account, opened with the server secret (the operator's view). */
function storedCredential(account: string) {
  const db = new Database(database, { readonly: true });
  const rows = db.prepare("SELECT record FROM oauth_grants").all() as { record: string }[];
  db.close();
  const grants = rows
    .map((row) => JSON.parse(row.record) as { account: string; credentialSealed: string })
    .filter((grant) => grant.account === account);
  expect(grants).toHaveLength(1);
  const sealed = grants[0]?.credentialSealed ?? "";
  const tradingKey = tradingKeyFromCredential(createSealer(OAUTH_SECRET).open(sealed));
  expect(sealed).not.toContain(tradingKey.wallet.exportPrivateKeyHex());
  return tradingKey;
}

describe("OAuth in a real browser with an injected EVM wallet", () => {
  it("discovers, registers, consents in Chromium, exchanges the code, then trades through the SDK client", async () => {
    const evm = await fundedEvmWallet(net.devnet);
    const provider = new HostProvider(callbackUrl);
    expect(await auth(provider, { serverUrl: net.server.url })).toBe("REDIRECT");
    const authorizationUrl = provider.authorizationUrl;
    if (!authorizationUrl) throw new Error("the SDK did not redirect");
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(net.server.url);

    const walletCalls: string[] = [];
    const back = await consentInBrowser(authorizationUrl, "#connect", evm.evmAddress, async (page) => {
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
    });
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
    const tradingKey = storedCredential(evm.address);

    // On chain: exactly one trading-key authenticator, the scoped one of the server's key.
    const { node } = (await net.account()).client.context;
    const authenticators = await getAuthenticators(node, { address: evm.address });
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

  it("a Cosmos wallet (window.keplr) signs the AddAuthenticator transaction the server prepares; the token trades", async () => {
    const wallet = LocalWallet.generate();
    const funded = await fetch(`${net.devnet.endpoints.faucet}/faucet/tokens`, {
      method: "POST",
      body: JSON.stringify({ address: wallet.address }),
    });
    expect(funded.status).toBe(200);
    const provider = new HostProvider(callbackUrl);
    expect(await auth(provider, { serverUrl: net.server.url })).toBe("REDIRECT");
    const signed: string[] = [];
    const back = await consentInBrowser(
      provider.authorizationUrl!,
      "#connect-cosmos",
      wallet.address,
      async (page) => {
        await page.exposeFunction("perpxTestCosmos", (method: string, arg: Record<string, string>) => {
          if (method === "getKey")
            return { address: wallet.address, publicKey: Buffer.from(wallet.publicKey).toString("base64") };
          if (method === "signDirect") {
            if (arg.signer !== wallet.address || arg.chainId !== "perpx-local-1")
              throw new Error("unknown signer or chain");
            const doc = {
              bodyBytes: new Uint8Array(Buffer.from(arg.bodyBytes ?? "", "base64")),
              authInfoBytes: new Uint8Array(Buffer.from(arg.authInfoBytes ?? "", "base64")),
              chainId: arg.chainId,
              accountNumber: BigInt(arg.accountNumber ?? ""),
            };
            signed.push(arg.bodyBytes ?? "");
            return {
              signature: Buffer.from(wallet.signDirect(doc, encodeSignDoc(doc)).signature).toString("base64"),
            };
          }
          throw new Error(`unsupported method ${method}`);
        });
        // A Keplr-style provider whose requests the Node-side wallet answers.
        await page.addInitScript({
          content: `
          const b64 = (bytes) => btoa(String.fromCharCode(...bytes));
          const unb64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
          window.keplr = {
            enable: async () => {},
            getKey: async () => {
              const key = await window.perpxTestCosmos("getKey", {});
              return { bech32Address: key.address, pubKey: unb64(key.publicKey), algo: "secp256k1" };
            },
            signDirect: async (chainId, signer, doc) => {
              const answer = await window.perpxTestCosmos("signDirect", { chainId, signer, bodyBytes: b64(doc.bodyBytes), authInfoBytes: b64(doc.authInfoBytes), accountNumber: String(doc.accountNumber) });
              return { signed: doc, signature: { signature: answer.signature } };
            },
          };`,
        });
      },
    );
    expect(signed).toHaveLength(1);
    expect(back.searchParams.get("state")).toBe(provider.expectedState);
    const code = back.searchParams.get("code") ?? "";
    expect(await auth(provider, { serverUrl: net.server.url, authorizationCode: code })).toBe("AUTHORIZED");

    const client = new Client({ name: "perpx-oauth-test", version: "0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(net.server.url), { authProvider: provider }),
    );
    try {
      const result = (await client.callTool({ name: "get_account", arguments: {} })) as CallToolResult;
      expect((result.structuredContent as { account: { address: string } }).account.address).toBe(
        wallet.address,
      );
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("place_order");
    } finally {
      await client.close();
    }
    const tradingKey = storedCredential(wallet.address);
    const { node } = (await net.account()).client.context;
    const allOf = (await getAuthenticators(node, { address: wallet.address })).filter(
      (a) => a.type === "AllOf",
    );
    expect(allOf.map((a) => a.config.join())).toEqual([
      encodeAuthenticatorConfig(tradingKeyAuthenticator(tradingKey.wallet.publicKey)).join(),
    ]);
    expect(problems).toEqual([]);
  }, 180_000);
});
