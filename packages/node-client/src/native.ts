/**
 * `@perpx/node-client/native`: the libsecp256k1 signer backend (the optional `secp256k1` addon),
 * about 12x faster than the JavaScript one. Wallets use it by default when it loads (`backend:
 * "auto"`); import it from here to require it (`backend: loadNativeSignerBackend()`). The addon
 * itself loads on the first call, never at import.
 *
 * @packageDocumentation
 */
export { loadNativeSignerBackend } from "./crypto/backend.js";
