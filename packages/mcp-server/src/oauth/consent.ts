/**
 * What the consent page shows: who asks, for which account scope, on which network, and the
 * request id the page posts back (in the page only, never in a URL).
 *
 * @example
 * ```ts
 * const view: ConsentView = { requestId: "…", clientName: "Claude", redirectOrigin: "https://claude.ai", network: "testnet", chainId: "perpx-testnet-1", nonce: "…" };
 * ```
 */
export interface ConsentView {
  /** The consent request's id. */
  requestId: string;
  /** The client's registered name (or id). */
  clientName: string;
  /** Where the user returns after approving. */
  redirectOrigin: string;
  /** The network's name. */
  network: string;
  /** The chain id. */
  chainId: string;
  /** The CSP nonce of the page's script and style. */
  nonce: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page's script: connects an EIP-1193 wallet (`eth_requestAccounts`), asks the server for the
 * approval typed data of its account, has the wallet sign it (`eth_signTypedData_v4`), posts the
 * signature, and follows the redirect the server answers; or connects a Cosmos wallet
 * (`window.keplr`: `enable`, `getKey`) and has it sign the `AddAuthenticator` transaction the server
 * prepares (`signDirect`). Plain DOM, no framework.
 */
const SCRIPT = `
const requestId = document.body.dataset.request;
const chainId = document.body.dataset.chainId;
const b64 = (bytes) => btoa(String.fromCharCode(...bytes));
const unb64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
let cosmos;
const $ = (id) => document.getElementById(id);
const say = (text, failed) => { $("status").textContent = text; $("status").dataset.state = failed ? "error" : "ok"; };
let account;
async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ request: requestId, ...body }) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error_description || answer.error || "HTTP " + response.status);
  return answer;
}
const failed = (error) => say(error && error.message ? error.message : String(error), true);
$("connect").addEventListener("click", async () => {
  if (!window.ethereum) return say("No EVM wallet found in this browser (window.ethereum).", true);
  try {
    const accounts = await window.ethereum.request({ method: "eth_requestAccounts" });
    account = accounts && accounts[0];
    if (!account) return say("The wallet shared no account.", true);
    cosmos = undefined;
    $("account").textContent = account;
    $("approve").disabled = false;
    say("Wallet connected. Approve to register the trading key.");
  } catch (error) { failed(error); }
});
$("connect-cosmos").addEventListener("click", async () => {
  if (!window.keplr) return say("No Cosmos wallet found in this browser (window.keplr).", true);
  try {
    await window.keplr.enable(chainId);
    const key = await window.keplr.getKey(chainId);
    cosmos = { address: key.bech32Address, publicKey: b64(key.pubKey) };
    account = undefined;
    $("account").textContent = cosmos.address;
    $("approve").disabled = false;
    say("Wallet connected. Approve to register the trading key.");
  } catch (error) { failed(error); }
});
async function approveWithCosmos() {
  say("Preparing the transaction…");
  const { signDoc } = await post("/consent/cosmos/prepare", cosmos);
  say("Sign the transaction in your wallet…");
  const doc = { bodyBytes: unb64(signDoc.bodyBytes), authInfoBytes: unb64(signDoc.authInfoBytes), chainId: signDoc.chainId, accountNumber: BigInt(signDoc.accountNumber) };
  const answer = await window.keplr.signDirect(chainId, cosmos.address, doc);
  say("Registering the trading key on chain…");
  return post("/consent/cosmos/approve", { signature: answer.signature.signature, bodyBytes: b64(answer.signed.bodyBytes), authInfoBytes: b64(answer.signed.authInfoBytes) });
}
$("approve").addEventListener("click", async () => {
  $("approve").disabled = true;
  if (cosmos) {
    try {
      const { redirectTo } = await approveWithCosmos();
      say("Approved. Returning to the application…");
      location.assign(redirectTo);
    } catch (error) { $("approve").disabled = false; failed(error); }
    return;
  }
  try {
    say("Preparing the approval…");
    const { typedData } = await post("/consent/prepare", { address: account });
    say("Sign the approval in your wallet…");
    const signature = await window.ethereum.request({ method: "eth_signTypedData_v4", params: [account, JSON.stringify(typedData)] });
    say("Registering the trading key on chain…");
    const { redirectTo } = await post("/consent/approve", { signature });
    say("Approved. Returning to the application…");
    location.assign(redirectTo);
  } catch (error) { $("approve").disabled = false; failed(error); }
});
$("deny").addEventListener("click", async () => {
  try { const { redirectTo } = await post("/consent/deny", {}); location.assign(redirectTo); } catch (error) { failed(error); }
});
`;

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; padding: 0 1rem; color: #111; }
h1 { font-size: 1.3rem; } code { background: #f3f3f3; padding: 0 .25rem; }
ul { padding-left: 1.2rem; } button { font: inherit; padding: .5rem 1rem; margin-right: .5rem; }
#status[data-state="error"] { color: #b00020; }
`;

/**
 * The consent page's HTML: what is asked, the scope of the key the server will register, and the
 * connect / approve / deny buttons. Everything from the client is escaped.
 *
 * @example
 * ```ts
 * const html = consentPage({
 *   requestId: "r1",
 *   clientName: "<Claude>",
 *   redirectOrigin: "https://claude.ai",
 *   network: "testnet",
 *   chainId: "perpx-testnet-1",
 *   nonce: "n1",
 * });
 * html.includes("&#60;Claude&#62;"); // true: escaped
 * html.includes('data-request="r1"'); // true
 * ```
 */
export function consentPage(view: ConsentView): string {
  const e = escapeHtml;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authorize ${e(view.clientName)} to trade on perpx</title>
<style nonce="${e(view.nonce)}">${STYLE}</style></head>
<body data-request="${e(view.requestId)}" data-chain-id="${e(view.chainId)}">
<h1>Authorize <span id="client">${e(view.clientName)}</span> to trade on perpx</h1>
<p>Network <code id="network">${e(view.network)}</code> (chain <code>${e(view.chainId)}</code>). After you approve you return to <code id="redirect">${e(view.redirectOrigin)}</code>.</p>
<p>Approving registers a new trading key on your account, generated and held by this server. The chain lets that key only:</p>
<ul id="scope"><li>place orders,</li><li>cancel orders,</li><li>batch-cancel orders,</li></ul>
<p>on <strong>subaccount 0</strong> only. It cannot withdraw, transfer or touch other subaccounts. You can remove it on chain at any time.</p>
<p>Wallet: <code id="account">not connected</code></p>
<p><button id="connect" type="button">Connect EVM wallet</button><button id="connect-cosmos" type="button">Connect Cosmos wallet</button></p>
<p><button id="approve" type="button" disabled>Approve</button><button id="deny" type="button">Deny</button></p>
<p id="status" role="status"></p>
<script nonce="${e(view.nonce)}">${SCRIPT}</script>
</body></html>`;
}
