/**
 * The node client's errors, one module each under `errors/`: a refused transaction
 * (`broadcast.ts`), its special cases (`sequence.ts`, `authenticator.ts`), the choice between them
 * (`classify.ts`), the clob's codes (`clob.ts`), a failed query (`query.ts`) and an unreachable
 * node (`transport.ts`).
 */
export {
  type AuthenticatorCheck,
  AuthenticatorRefusedError,
  isAuthenticatorRefusedError,
  parseAuthenticatorRefusal,
} from "./errors/authenticator.js";
export {
  type BroadcastFailureReason,
  BroadcastTxError,
  type BroadcastTxErrorParameters,
  broadcastFailureReason,
  isBroadcastTxError,
} from "./errors/broadcast.js";
export { broadcastTxError, sdkCodeFromLog } from "./errors/classify.js";
export { CLOB_CODES, CLOB_ERRORS, type ClobErrorName } from "./errors/clob.js";
export { isQueryError, QueryError, type QueryErrorParameters } from "./errors/query.js";
export { isSequenceMismatchError, parseSequenceMismatch, SequenceMismatchError } from "./errors/sequence.js";
export {
  failedBeforeConnecting,
  isTransportError,
  TransportError,
  type TransportErrorParameters,
} from "./errors/transport.js";
