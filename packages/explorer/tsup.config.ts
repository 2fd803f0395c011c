import { packageBuild } from "../../tsup.base.js";

export default [
  // The server and its CLI (Node). `shims`: the CommonJS build gets a real `import.meta.url`, which
  // finds the app bundle beside it. No Node `import` wrappers: listing `cli`'s exports would run it.
  // It leaves `dist/app` alone (`clean: false`): the two builds run side by side.
  packageBuild({
    entry: ["src/index.ts", "src/cli.ts"],
    shims: true,
    nodeImportWrappers: false,
    clean: false,
  }),
  // The page: one self-contained ES module for the browser (the clients' `browser` builds inside).
  packageBuild({
    entry: { app: "src/app/main.ts" },
    outDir: "dist/app",
    format: ["esm"],
    platform: "browser",
    target: "es2022",
    dts: false,
    sourcemap: false,
    clean: true,
    minify: true,
    noExternal: [/.*/],
  }),
];
