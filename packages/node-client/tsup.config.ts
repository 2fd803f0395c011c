import { packageBuild } from "../../tsup.base.js";

// One build, five entry points (see package.json `exports`). `splitting`: what two entries share
// (errors, the connection, protobuf helpers) is one module, so `instanceof` holds across entries, in
// the CommonJS build too. `shims`: the CommonJS build gets a real `import.meta.url`, which the native
// signer backend needs to `require` the optional `secp256k1` addon relative to this package.
export default packageBuild({
  entry: ["src/index.ts", "src/wallets.ts", "src/tx.ts", "src/operator.ts", "src/native.ts"],
  splitting: true,
  shims: true,
});
