/**
 * Timestamp nonces (accountplus, chain-protocol.md 4.5): a signer "sequence" of 2^40 or more is a
 * unix-millisecond timestamp, accepted once within ±30 s of the block time, above the highest
 * ejected nonce, keeping at most 20. Pure functions; the auth ante step stores the result.
 */

/** Sequences at or above this value (2^40) are timestamp nonces. */
export const TIMESTAMP_NONCE_CUTOFF = 1n << 40n;
/** How many timestamp nonces an account keeps. */
export const MAX_TIMESTAMP_NONCES = 20;
/** How far in the past a nonce may be (ms). */
export const MAX_TIME_IN_PAST_MS = 30_000n;
/** How far in the future a nonce may be (ms). */
export const MAX_TIME_IN_FUTURE_MS = 30_000n;

/** The timestamp-nonce part of an accountplus `AccountState`. */
export interface TimestampNonceDetails {
  /** The kept nonces, unsorted (in the order the chain keeps them). */
  readonly timestampNonces: readonly bigint[];
  /** The largest nonce ever ejected; new nonces must be above it. */
  readonly maxEjectedNonce: bigint;
}

/** True when a signer sequence is a timestamp nonce. */
export function isTimestampNonce(sequence: bigint): boolean {
  return sequence >= TIMESTAMP_NONCE_CUTOFF;
}

/** The outcome of {@link processTimestampNonce}. */
export type NonceOutcome =
  | { ok: true; details: TimestampNonceDetails }
  /** `reason` is the chain's text; it is reported wrapped in sdk code 32. */
  | { ok: false; reason: string };

/**
 * Checks a timestamp nonce against the block time and the account's details (undefined when the
 * account never used one) and returns the details to store. Deterministic and side-effect free.
 */
export function processTimestampNonce(
  nonce: bigint,
  blockTimeMs: bigint,
  details: TimestampNonceDetails | undefined,
): NonceOutcome {
  if (nonce < blockTimeMs - MAX_TIME_IN_PAST_MS || nonce > blockTimeMs + MAX_TIME_IN_FUTURE_MS) {
    return { ok: false, reason: `timestamp nonce ${nonce} not within valid time window` };
  }
  if (details === undefined) {
    return { ok: true, details: { timestampNonces: [nonce], maxEjectedNonce: TIMESTAMP_NONCE_CUTOFF } };
  }
  // Eject stale nonces, raising the ejected maximum.
  const oldestAllowed = blockTimeMs - MAX_TIME_IN_PAST_MS;
  let maxEjectedNonce = details.maxEjectedNonce;
  const kept: bigint[] = [];
  for (const kept_ of details.timestampNonces) {
    if (kept_ >= oldestAllowed) kept.push(kept_);
    else if (kept_ > maxEjectedNonce) maxEjectedNonce = kept_;
  }
  const rejected: NonceOutcome = { ok: false, reason: `timestamp nonce ${nonce} rejected` };
  if (nonce <= maxEjectedNonce || kept.includes(nonce)) return rejected;
  if (kept.length < MAX_TIMESTAMP_NONCES) {
    kept.push(nonce);
    return { ok: true, details: { timestampNonces: kept, maxEjectedNonce } };
  }
  let minIndex = 0;
  for (let i = 1; i < kept.length; i++) if ((kept[i] as bigint) < (kept[minIndex] as bigint)) minIndex = i;
  const smallest = kept[minIndex] as bigint;
  if (nonce <= smallest) return rejected;
  kept[minIndex] = nonce;
  return { ok: true, details: { timestampNonces: kept, maxEjectedNonce: smallest } };
}

/** Fixed-width encoding (1 + 20×8 + 8 bytes), so storing it costs the same gas whatever it holds. */
export function encodeNonceDetails(details: TimestampNonceDetails): Uint8Array {
  const out = new Uint8Array(1 + MAX_TIMESTAMP_NONCES * 8 + 8);
  const view = new DataView(out.buffer);
  out[0] = details.timestampNonces.length;
  details.timestampNonces.forEach((nonce, i) => {
    view.setBigUint64(1 + i * 8, nonce);
  });
  view.setBigUint64(1 + MAX_TIMESTAMP_NONCES * 8, details.maxEjectedNonce);
  return out;
}

/** Decodes {@link encodeNonceDetails}. */
export function decodeNonceDetails(bytes: Uint8Array): TimestampNonceDetails {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = bytes[0] ?? 0;
  const timestampNonces: bigint[] = [];
  for (let i = 0; i < count; i++) timestampNonces.push(view.getBigUint64(1 + i * 8));
  return { timestampNonces, maxEjectedNonce: view.getBigUint64(1 + MAX_TIMESTAMP_NONCES * 8) };
}
