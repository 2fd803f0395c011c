// Browser bundle budgets (`npm run check:size`): each package's ESM build bundled by esbuild for the
// browser platform (a `node:` import fails the build), all exports kept, brotli-compressed.
// Limits are the measured sizes plus about 10%; raise one only with a reason in the commit.
export default [
  // 1.86 kB once a mnemonic is redacted wherever it stands (unquoted, as array words, in any case,
  // with the stop words that keep English text whole) and every package cuts a refused value only
  // after redacting it (shortenRedacted, showValue).
  { name: "@perpx/errors", path: "packages/errors/dist/index.js", import: "*", limit: "2.05 kB" },
  // 59.1 kB once x/epochs, x/revshare and the liquidation and deleveraging matches were generated.
  { name: "@perpx/proto", path: "packages/proto/dist/index.js", import: "*", limit: "65 kB" },
  // 7.45 kB with the errors package's wider redaction (above) and a refused input redacted before it is cut.
  { name: "@perpx/address", path: "packages/address/dist/index.js", import: "*", limit: "8.2 kB" },
  // 30.89 kB with Exact and the unknown-option check (issue 20); 32.29 kB with the endpoint table
  // (each variable's purpose and schemes), the env templates and the error naming every missing
  // endpoint (issue 21); 38.32 kB once EIP-712 hashing came from ox's TypedData (issue 23 point 7);
  // 19.81 kB once EIP-712 hashing and signer recovery left for `/evm` and `/evm-verify` (issue 23:
  // no ox and no secp256k1 in the root; approveAgentTypedData stays, on noble's hashes); 20.44 kB
  // once Exact refused max()/min() of nothing and boxed numbers with typed errors; 20.58 kB with
  // setLongTimeout (a delay past 2^31 ms armed in steps), shared by every client package.
  { name: "@perpx/core", path: "packages/core/dist/index.js", import: "*", limit: "20.7 kB" },
  // 5.49 kB once it held the REST route table the indexer client and the devnet share (issue 23
  // point 1: rows, parameter kinds and the wire reading).
  { name: "@perpx/core/indexer", path: "packages/core/dist/indexer.js", import: "*", limit: "6 kB" },
  // RLP, EIP-1559/legacy transactions and the bridge's ABI words, apart from the main entry: 20.5 kB
  // when it landed (noble secp256k1 for sender recovery); 31.35 kB on ox's narrow modules (Rlp,
  // TxEnvelopeEip1559, TxEnvelopeLegacy, AbiParameters) in place of the hand-written encoders
  // (issue 23 point 7); 22.53 kB once sender recovery left for `/evm-verify` and EIP-712 hashing
  // (ox's TypedData, on the AbiParameters it already had) came in from the root: no secp256k1;
  // 19.64 kB once `hashApproveAgent` left (it carried a copy of the root's approveAgentTypedData:
  // SHA-256, RIPEMD-160 and bech32) and the digest came from ox's hashDomain and hashStruct
  // instead of getSignPayload (whose value checks repeat ours). The three core entries' limits:
  // the size plus about 3%.
  { name: "@perpx/core/evm", path: "packages/core/dist/evm.js", import: "*", limit: "20.2 kB" },
  // Signer recovery (noble secp256k1) with what it checks: EIP-712 digests, ApproveAgent approvals
  // and decoded signed transactions (ox): 32.8 kB when it landed (issue 23); 32.31 kB on ox's
  // hashDomain and hashStruct.
  { name: "@perpx/core/evm-verify", path: "packages/core/dist/evm-verify.js", import: "*", limit: "33.3 kB" },
  {
    // REST and the WebSocket, books and account views together: 30.1 kB when both landed; 22.1 kB
    // once core's Exact replaced decimal.js (issue 20); 24.95 kB with the guarded frame path (every
    // channel's contents checked, one retry schedule, maxFrameBytes); 25.93 kB with core's endpoint
    // table (issue 21); 26.95 kB once a REST call's deadline bounds an injected fetch, every page walk
    // ends against a server that ignores `page`, an unsubscribe waits for its subscribe's answer and
    // a reconnect that never hears `connected` is dropped; a little headroom.
    name: "@perpx/indexer-client (browser)",
    path: "packages/indexer-client/dist/browser/index.js",
    import: "*",
    limit: "29.6 kB",
  },
  {
    // The long tail of REST calls, iterators and decimal conversions (issue 23 point 3): 16.39 kB
    // when it landed, measured alone (what it shares with the root counts in both); 18.15 kB once
    // the answers carrying positions were checked (a size against its side, a negative asset size).
    name: "@perpx/indexer-client/rest (browser)",
    path: "packages/indexer-client/dist/browser/rest.js",
    import: "*",
    limit: "18.3 kB",
  },
  {
    // The socket's internals behind the root's streams: 2.52 kB when it landed; 2.93 kB once an
    // unsubscribe waits for its pending subscribe's answer.
    name: "@perpx/indexer-client/ws (browser)",
    path: "packages/indexer-client/dist/browser/ws.js",
    import: "*",
    limit: "3.2 kB",
  },
  {
    // 96.8 kB until the send path told "nothing sent" from "sent, no answer" (`TransportError.
    // nothingSent`, `onBroadcast` steps) for orders in flight: 96.84 kB; 98.08 kB once every action
    // refuses an unknown option by name and the CometBFT socket guards its callbacks (issue 20);
    // 99.15 kB with core's endpoint table (issue 21); 99.82 kB with x/revshare's market mapper and
    // unconditional messages and queries in the proto registry it carries (issue 22 point 5);
    // 101.1 kB with x/rewards' messages (point 6) and TWAP orders with their block reader
    // (point 11); 96.32 kB once the chain-module queries and the message builders left the root for
    // `/queries` and `/tx` (issue 23 point 3).
    name: "@perpx/node-client (browser)",
    path: "packages/node-client/dist/browser/index.js",
    import: "*",
    limit: "101.4 kB",
  },
  {
    // Every chain-module query, `unaryQuery` and `queryActions`: 77.34 kB when the subpath landed
    // (issue 23 point 3), most of it the proto registry it shares with the root; a tenth of headroom.
    name: "@perpx/node-client/queries (browser)",
    path: "packages/node-client/dist/browser/queries.js",
    import: "*",
    limit: "84 kB",
  },
  {
    // The explorer's home page: its one script (the app with both clients' browser builds inside),
    // gzipped as a browser fetches it. The budget of issue 15 is 150 kB.
    name: "@perpx/explorer home page JS",
    path: "packages/explorer/dist/app/app.js",
    gzip: true,
    limit: "150 kB",
  },
];
