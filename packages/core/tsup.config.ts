import { packageBuild } from "../../tsup.base.js";

// noble builds its curve and hash tables when it loads; only signing helpers need them.
export default packageBuild({
  entry: ["src/index.ts", "src/indexer.ts", "src/evm.ts"],
  deferRequires: ["@noble/"],
});
