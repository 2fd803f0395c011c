import { packageBuild } from "../../tsup.base.js";

// `shims`: the CommonJS build gets a real `import.meta.url`, which the native signer backend needs
// to `require` the optional `secp256k1` addon relative to this package.
export default packageBuild({ shims: true });
