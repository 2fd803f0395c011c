import { packageBuild } from "../../tsup.base.js";

// `shims`: the CommonJS build gets a real `import.meta.url`, which signature verification needs to
// `require` the optional `secp256k1` addon relative to this package. No Node `import` wrappers: the
// devnet is a program whose `import` users start it once, and listing `cli`'s exports would run it.
export default packageBuild({
  entry: ["src/index.ts", "src/cli.ts"],
  shims: true,
  nodeImportWrappers: false,
});
