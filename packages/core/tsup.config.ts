import { packageBuild } from "../../tsup.base.js";

// noble builds its curve and hash tables when it loads, and ox is some forty modules: Node's load of
// an entry defers both to their first use (a hash, a signature, an EVM encoding).
export default packageBuild({
  entry: ["src/index.ts", "src/indexer.ts", "src/evm.ts", "src/evm-verify.ts"],
  deferRequires: ["@noble/", "ox/"],
});
