// Browser bundle budgets (`npm run check:size`): each package's ESM build bundled by esbuild for the
// browser platform (a `node:` import fails the build), all exports kept, brotli-compressed.
// Limits are the measured sizes plus about 10%; raise one only with a reason in the commit.
export default [
  { name: "@perpx/errors", path: "packages/errors/dist/index.js", import: "*", limit: "1.39 kB" },
  { name: "@perpx/proto", path: "packages/proto/dist/index.js", import: "*", limit: "58 kB" },
  { name: "@perpx/address", path: "packages/address/dist/index.js", import: "*", limit: "7.1 kB" },
  { name: "@perpx/core", path: "packages/core/dist/index.js", import: "*", limit: "30.7 kB" },
  { name: "@perpx/core/indexer", path: "packages/core/dist/indexer.js", import: "*", limit: "4.1 kB" },
  {
    name: "@perpx/indexer-client (browser)",
    path: "packages/indexer-client/dist/browser/index.js",
    import: "*",
    limit: "26.1 kB",
  },
  {
    name: "@perpx/node-client (browser)",
    path: "packages/node-client/dist/browser/index.js",
    import: "*",
    limit: "96.8 kB",
  },
];
