/** The indexer's deterministic UUIDs: a pure function of the key, before and after its memory fills. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { subaccountUuid, uuidOf } from "./ids.js";

/** The UUID of a key worked out independently (SHA-256, version 5 and variant bits). */
function expected(key: string): string {
  const bytes = createHash("sha256").update(key, "utf8").digest().subarray(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const h = bytes.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

describe("uuidOf", () => {
  it("names each key the same way however often and in whatever order it is asked", () => {
    const keys = Array.from({ length: 10_000 }, (_, i) => `order/perpx1maker/${i % 7}/${i}/0/0`);
    for (const key of keys) expect(uuidOf(key)).toBe(expected(key));
    // Again, past the keys it remembers, then the first ones again.
    for (const key of keys.toReversed()) expect(uuidOf(key)).toBe(expected(key));
    for (const key of keys.slice(0, 100)) expect(uuidOf(key)).toBe(expected(key));
    expect(uuidOf("candle/é☃/1MIN/x")).toBe(expected("candle/é☃/1MIN/x"));
    expect(subaccountUuid("perpx1abc", 3)).toBe(expected("subaccount/perpx1abc/3"));
  });
});
