import { packageBuild } from "../../tsup.base.js";

// `cli` starts the server when loaded: it gets no Node `import` wrapper.
export default packageBuild({ entry: ["src/index.ts", "src/cli.ts"], programEntries: ["cli"] });
