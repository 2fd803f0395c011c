import { packageBuild } from "../../tsup.base.js";

export default [
  // The Node build: six entry points (see package.json `exports`). `splitting`: what two entries
  // share (errors, the connection, protobuf helpers) is one module, so `instanceof` holds across
  // entries, in the CommonJS build too. `shims`: the CommonJS build gets a real `import.meta.url`,
  // which the native signer backend needs to `require` the optional `secp256k1` addon relative to
  // this package. `deferRequires`: the CommonJS build loads protobuf-es (it decodes its built-in
  // descriptors at load), noble (curve tables) and scure (HD keys, mnemonics) on first use, not at
  // `require`.
  packageBuild({
    entry: [
      "src/index.ts",
      "src/queries.ts",
      "src/wallets.ts",
      "src/tx.ts",
      "src/operator.ts",
      "src/native.ts",
    ],
    splitting: true,
    shims: true,
    deferRequires: ["@bufbuild/protobuf", "@noble/", "@scure/"],
  }),
  // The browser build (the `browser` export condition): the same entries but `native`, resolved for
  // the web, so `#crypto-platform` and `#transport-platform` take their browser sides (noble
  // hashing, RPC over fetch and WebSocket, gRPC-web) and nothing imports a `node:` module, cosmjs,
  // connect-node or ws. Dependencies stay external for the app's bundler; types are the Node
  // build's (same source).
  packageBuild({
    // Its own directory, so its shared chunks sit beside its entries, apart from the Node build's.
    entry: {
      index: "src/index.ts",
      queries: "src/queries.ts",
      wallets: "src/wallets.ts",
      tx: "src/tx.ts",
      operator: "src/operator.ts",
    },
    outDir: "dist/browser",
    format: ["esm"],
    platform: "browser",
    target: "es2022",
    splitting: true,
    dts: false,
    clean: false,
  }),
];
