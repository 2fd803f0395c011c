import { packageBuild } from "../../tsup.base.js";

// noble's hashes build their tables when they load; only address derivation needs them.
export default packageBuild({ deferRequires: ["@noble/"] });
