import { packageBuild } from "../../tsup.base.js";

export default [
  // The Node build (ESM and CommonJS, with declarations): `#ws-platform` is the `ws` side.
  packageBuild(),
  // The browser build (the `browser` export condition): `#ws-platform` takes its browser side, the
  // page's own WebSocket, so nothing imports `ws` or a `node:` module. Dependencies stay external
  // for the app's bundler; types are the Node build's (same source).
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
