import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeNonceDetails,
  encodeNonceDetails,
  isTimestampNonce,
  MAX_TIMESTAMP_NONCES,
  processTimestampNonce,
  TIMESTAMP_NONCE_CUTOFF,
  type TimestampNonceDetails,
} from "./nonce.js";

const NOW = 1_767_225_600_000n; // 2026-01-01T00:00:00Z in ms

describe("timestamp nonces", () => {
  it("are sequences of 2^40 or more", () => {
    expect(isTimestampNonce(TIMESTAMP_NONCE_CUTOFF - 1n)).toBe(false);
    expect(isTimestampNonce(TIMESTAMP_NONCE_CUTOFF)).toBe(true);
  });

  it("first use creates the details with max_ejected_nonce = 2^40", () => {
    expect(processTimestampNonce(NOW, NOW, undefined)).toEqual({
      ok: true,
      details: { timestampNonces: [NOW], maxEjectedNonce: TIMESTAMP_NONCE_CUTOFF },
    });
  });

  it("accepts exactly ±30 s and rejects beyond", () => {
    expect(processTimestampNonce(NOW - 30_000n, NOW, undefined).ok).toBe(true);
    expect(processTimestampNonce(NOW + 30_000n, NOW, undefined).ok).toBe(true);
    expect(processTimestampNonce(NOW - 30_001n, NOW, undefined)).toEqual({
      ok: false,
      reason: `timestamp nonce ${NOW - 30_001n} not within valid time window`,
    });
    expect(processTimestampNonce(NOW + 30_001n, NOW, undefined).ok).toBe(false);
  });

  it("ejects stale nonces, raising max_ejected_nonce, and refuses anything at or below it", () => {
    const details: TimestampNonceDetails = {
      timestampNonces: [NOW - 40_000n, NOW - 1n],
      maxEjectedNonce: TIMESTAMP_NONCE_CUTOFF,
    };
    const outcome = processTimestampNonce(NOW, NOW, details);
    expect(outcome).toEqual({
      ok: true,
      details: { timestampNonces: [NOW - 1n, NOW], maxEjectedNonce: NOW - 40_000n },
    });
  });

  it("when full, a new nonce must beat the smallest kept one, which is ejected", () => {
    const kept = Array.from({ length: MAX_TIMESTAMP_NONCES }, (_, i) => NOW - 100n + BigInt(i) * 2n);
    const details = { timestampNonces: kept, maxEjectedNonce: TIMESTAMP_NONCE_CUTOFF };
    expect(processTimestampNonce(NOW - 101n, NOW, details).ok).toBe(false);
    const outcome = processTimestampNonce(NOW - 99n, NOW, details);
    expect(outcome.ok).toBe(true);
    if (outcome.ok) {
      expect(outcome.details.maxEjectedNonce).toBe(NOW - 100n);
      expect(outcome.details.timestampNonces).toHaveLength(MAX_TIMESTAMP_NONCES);
      expect(outcome.details.timestampNonces).not.toContain(NOW - 100n);
    }
  });

  it("property: a sequence of attempts keeps the invariants of the chain", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            dt: fc.integer({ min: 0, max: 5_000 }),
            offset: fc.integer({ min: -35_000, max: 35_000 }),
          }),
          {
            maxLength: 80,
          },
        ),
        (steps) => {
          let details: TimestampNonceDetails | undefined;
          let now = NOW;
          const accepted = new Set<bigint>();
          for (const { dt, offset } of steps) {
            now += BigInt(dt);
            const nonce = now + BigInt(offset);
            const before = details;
            const outcome = processTimestampNonce(nonce, now, details);
            const inWindow = nonce >= now - 30_000n && nonce <= now + 30_000n;
            if (!inWindow) expect(outcome.ok).toBe(false);
            if (accepted.has(nonce)) expect(outcome.ok).toBe(false);
            if (!outcome.ok) continue;
            details = outcome.details;
            accepted.add(nonce);
            // Kept at most 20, unique, all above max_ejected_nonce, which never decreases.
            expect(details.timestampNonces.length).toBeLessThanOrEqual(MAX_TIMESTAMP_NONCES);
            expect(new Set(details.timestampNonces).size).toBe(details.timestampNonces.length);
            for (const kept of details.timestampNonces) expect(kept > details.maxEjectedNonce).toBe(true);
            if (before !== undefined) expect(details.maxEjectedNonce >= before.maxEjectedNonce).toBe(true);
            expect(decodeNonceDetails(encodeNonceDetails(details))).toEqual(details);
          }
        },
      ),
    );
  });

  it("encodes at a fixed width whatever it holds", () => {
    expect(encodeNonceDetails({ timestampNonces: [], maxEjectedNonce: 0n }).length).toBe(
      encodeNonceDetails({ timestampNonces: Array(20).fill(NOW), maxEjectedNonce: NOW }).length,
    );
  });
});
