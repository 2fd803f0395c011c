import { defineConfig } from "tsup";
import { packageBuild } from "../../tsup.base.js";
import { lazyModules } from "./build/lazy-modules.js";

// The library: ESM and CommonJS with types. `shims`: the CommonJS build gets a real
// `import.meta.url`, which signature verification needs to `require` the optional `secp256k1` addon
// relative to this package. No Node `import` wrappers: the library is loaded once by a program.
// Its clean leaves the command line's files alone (the builds run at once).
const library = packageBuild({
  entry: ["src/index.ts"],
  shims: true,
  nodeImportWrappers: false,
  clean: ["!cli.cjs", "!cli.cjs.map", "!cli-main.cjs", "!cli-main.cjs.map"],
});

/** The packages the program loads on first use (exact specifiers). */
const LAZY_MODULES = [
  "@bufbuild/protobuf",
  "@bufbuild/protobuf/wkt",
  "@bufbuild/protobuf/codegenv2",
  "@connectrpc/connect",
];

// The command line, in two files. `dist/cli-main.cjs` is the program (`src/cli-main.ts`): one
// self-contained CommonJS bundle with every dependency inside, so a start reads and compiles one
// file instead of resolving and linking ~200 modules (two copies of protobuf-es among them: the
// ESM one and the one @perpx/proto's CommonJS build requires). Only the optional native
// `secp256k1` addon stays outside; it is required at run time relative to this package, through
// the `import.meta.url` shim. CommonJS because V8's code cache is reachable from Node 20 only for
// scripts: `dist/cli.cjs` (`src/cli-launcher.ts`, required by `bin/perpx-devnet.js`) loads the
// bundle through it (`src/code-cache.ts`). No types: nothing imports the program.
const program = defineConfig({
  entry: { "cli-main": "src/cli-main.ts" },
  format: ["cjs"],
  platform: "node",
  target: "node20",
  dts: false,
  sourcemap: true,
  clean: false,
  splitting: false,
  // esbuild's own tree shaking (bundling drops what nothing imports); tsup's Rollup pass would
  // reprint the minified output.
  treeshake: false,
  shims: true,
  noExternal: [/.*/],
  external: ["secp256k1"],
  // protobuf-es and connect run when first used, not when the bundle loads: their entries decode
  // descriptor.proto and a few well-known types at load, which a start that touches no protobuf
  // would pay (`build/lazy-modules.ts`).
  esbuildPlugins: [lazyModules(LAZY_MODULES)],
  // ASCII output (other characters escaped, no comments, no indentation): the launcher reads it
  // as Latin-1, a plain copy, where decoding the UTF-8 of the full 1.8 MB costs a start tens of
  // milliseconds. Names are kept (stack traces, `name` of classes); the source map has the rest.
  esbuildOptions(options) {
    options.charset = "ascii";
    options.minifyWhitespace = true;
  },
});

// The launcher is CommonJS too, as is the bin: a start that loads no ES module never sets up Node's
// ES module loader (nor wraps each built-in it imports as a module), which a bare `node` skips.
const launcher = defineConfig({
  entry: { cli: "src/cli-launcher.ts" },
  format: ["cjs"],
  shims: true,
  platform: "node",
  target: "node20",
  dts: false,
  sourcemap: true,
  clean: false,
  splitting: false,
  treeshake: true,
});

export default [library, program, launcher];
