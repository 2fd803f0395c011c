import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asciiText } from "./ascii-texts.js";

/** The reference: latin1 text of ASCII bytes, undefined when one is not ASCII. */
const reference = (bytes: Uint8Array): string | undefined =>
  bytes.some((b) => b >= 0x80) ? undefined : Buffer.from(bytes).toString("latin1");

describe("asciiText", () => {
  it("property: the latin1 text of ASCII bytes (undefined otherwise), the same string when read again", () => {
    const ascii = fc.uint8Array({ max: 0x7f, maxLength: 80 });
    const any = fc.uint8Array({ maxLength: 80 });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(ascii, ascii, any), { minLength: 1, maxLength: 40 }),
        fc.nat(5),
        (texts, pad) => {
          for (const bytes of [...texts, ...texts]) {
            // Within a larger buffer, at an offset.
            const buf = new Uint8Array(pad + bytes.length + 3).fill(0x41);
            buf.set(bytes, pad);
            const got = asciiText(buf, pad, pad + bytes.length);
            expect(got).toBe(reference(bytes));
            if (got !== undefined) expect(asciiText(bytes, 0, bytes.length)).toBe(got);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps its own copy of the bytes: a later change of the buffer read is not mistaken for the text", () => {
    const buf = new Uint8Array([0x2f, 0x61, 0x62]);
    expect(asciiText(buf, 0, 3)).toBe("/ab");
    buf[2] = 0x63;
    expect(asciiText(buf, 0, 3)).toBe("/ac");
  });
});
