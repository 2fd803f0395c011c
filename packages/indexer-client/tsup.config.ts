import { packageBuild } from "../../tsup.base.js";

export default [
  // The Node build (ESM and CommonJS, with declarations): `#ws-platform` is the `ws` side. Three
  // entry points (see package.json `exports`); `splitting`: what they share (errors, the
  // connection, the socket) is one module, so `instanceof` holds across entries, in CommonJS too.
  packageBuild({ entry: ["src/index.ts", "src/rest.ts", "src/ws.ts"], splitting: true }),
  // The browser build (the `browser` export condition): `#ws-platform` takes its browser side, the
  // page's own WebSocket, so nothing imports `ws` or a `node:` module. Dependencies stay external
  // for the app's bundler; types are the Node build's (same source).
  packageBuild({
    entry: { index: "src/index.ts", rest: "src/rest.ts", ws: "src/ws.ts" },
    outDir: "dist/browser",
    format: ["esm"],
    platform: "browser",
    target: "es2022",
    splitting: true,
    dts: false,
    clean: false,
  }),
];
