import { packageBuild } from "../../tsup.base.js";

export default [
  // The Node build (ESM and CommonJS, each with declarations).
  packageBuild(),
  // The browser build (the `browser` export condition): the same entry resolved for the web, so
  // nothing imports a `node:` module. Dependencies stay external for the app's bundler; types are
  // the Node build's (same source).
  packageBuild({
    entry: { index: "src/index.ts" },
    outDir: "dist/browser",
    format: ["esm"],
    platform: "browser",
    target: "es2022",
    dts: false,
    clean: false,
  }),
];
