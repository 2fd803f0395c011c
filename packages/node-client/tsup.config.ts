import { packageBuild } from "../../tsup.base.js";

export default [
  // `shims`: the CommonJS build gets a real `import.meta.url`, which the native signer backend needs
  // to `require` the optional `secp256k1` addon relative to this package.
  packageBuild({ shims: true }),
  // The browser build (the `browser` export condition): the same entry, resolved for the web, so
  // `#crypto-platform` and `#transport-platform` take their browser sides (noble hashing, RPC over
  // fetch and WebSocket, gRPC-web) and nothing imports a `node:` module, cosmjs or connect-node.
  // Dependencies stay external for the app's bundler; types are the Node build's (same source).
  packageBuild({
    entry: { "browser/index": "src/index.ts" },
    format: ["esm"],
    platform: "browser",
    target: "es2022",
    dts: false,
    clean: false,
  }),
];
