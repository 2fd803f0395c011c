import { packageBuild } from "../../tsup.base.js";

// noble builds its curve and hash tables when it loads, and ox is some forty modules: only the EVM
// and EIP-712 helpers need them, so Node's load of an entry defers both to first use.
export default packageBuild({
  entry: ["src/index.ts", "src/indexer.ts", "src/evm.ts", "src/eip712.ts"],
  deferRequires: ["@noble/", "ox/"],
});
