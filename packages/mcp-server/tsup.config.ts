import { packageBuild } from "../../tsup.base.js";

// `cli` starts the server when loaded: it gets no Node `import` wrapper. `shims`: the CommonJS build
// gets a real `import.meta.url`, which the SQLite store needs to `require` the optional
// `better-sqlite3` relative to this package, on first use.
export default packageBuild({ entry: ["src/index.ts", "src/cli.ts"], programEntries: ["cli"], shims: true });
