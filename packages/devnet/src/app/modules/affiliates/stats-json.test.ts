/**
 * The affiliate stats' hand-spelled JSON against the reference, `JSON.stringify` / `JSON.parse`:
 * the same bytes for any fill (any strings, any amounts) and any count.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromUtf8, utf8 } from "../../lib/codec.js";
import { decodeCount, encodeCount, storedFillJson } from "./stats-json.js";

const amount = fc.bigInt({ min: -(1n << 80n), max: 1n << 80n });
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constant("perpx1qyqszqgpqyqszqgpqyqszqgpqyqszqgpmz98xe"),
);
const fill = fc.record({
  taker: text,
  maker: text,
  notional: amount,
  affiliateFee: amount,
  attributions: fc.array(
    fc.record({ role: fc.constantFrom("taker" as const, "maker" as const), referrer: text, volume: amount }),
    { maxLength: 3 },
  ),
});

describe("storedFillJson", () => {
  it("spells JSON.stringify of the stored fill", () => {
    fc.assert(
      fc.property(fill, (f) => {
        const reference = JSON.stringify({
          taker: f.taker,
          maker: f.maker,
          notional: f.notional.toString(),
          affiliateFee: f.affiliateFee.toString(),
          attributions: f.attributions.map((a) => ({
            role: a.role,
            referrer: a.referrer,
            volume: a.volume.toString(),
          })),
        });
        expect(storedFillJson(f)).toBe(reference);
      }),
    );
  });
});

describe("the block's fill count", () => {
  it("encodes as utf8(JSON.stringify(n)) and decodes back", () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })), (n) => {
        const bytes = encodeCount(n);
        expect(bytes).toEqual(utf8(JSON.stringify(n)));
        expect(decodeCount(bytes)).toBe(n);
      }),
    );
  });

  it("decodes any bytes as JSON.parse does (the same value, or a throw)", () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 20 }),
      fc.stringMatching(/^-?[0-9]{0,20}(\.[0-9]{0,3})?(e[0-9]{1,2})?$/).map(utf8),
      fc.double().map((d) => utf8(JSON.stringify(d))),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        let reference: { value: unknown } | "throws";
        try {
          reference = { value: JSON.parse(fromUtf8(b)) };
        } catch {
          reference = "throws";
        }
        if (reference === "throws") expect(() => decodeCount(b)).toThrow();
        else expect(decodeCount(b)).toBe(reference.value);
      }),
    );
  });
});
