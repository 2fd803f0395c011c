import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.base.js";

// The library: ESM and CommonJS with types. `shims`: the CommonJS build gets a real
// `import.meta.url`, which signature verification needs to `require` the optional `secp256k1` addon
// relative to this package. No Node `import` wrappers: the library is loaded once by a program.
// Its clean leaves the command line's files alone (the two builds run at once).
const library = packageBuild({
  entry: ["src/index.ts"],
  shims: true,
  nodeImportWrappers: false,
  clean: ["!cli.js", "!cli.js.map"],
});

// The command line (`dist/cli.js`, run by `bin/perpx-devnet.js`): one self-contained ES module with
// every dependency inside, so a start resolves, reads and links one file instead of ~200 modules
// (two copies of protobuf-es among them: the ESM one and the one @perpx/proto's CommonJS build
// requires). Only the optional native `secp256k1` addon stays outside; it is required at run time
// relative to this package. The `require` of the banner serves the CommonJS dependencies (`ws`)
// their Node built-ins. No types: nothing imports the program.
const cli = defineConfig({
  entry: ["src/cli.ts"],
  format: ["esm"],
  platform: "node",
  target: "node20",
  dts: false,
  sourcemap: true,
  clean: false,
  splitting: false,
  treeshake: true,
  shims: true,
  noExternal: [/.*/],
  external: ["secp256k1"],
  banner: {
    js: 'import { createRequire as __perpxCreateRequire } from "node:module";\nconst require = __perpxCreateRequire(import.meta.url);',
  },
});

export default [library, cli];
