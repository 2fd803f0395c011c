/** `ProtoWriter.encode` (its shared buffer) against a writer of its own, nested and after a throw. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProtoWriter } from "./proto-writer.js";

/** Some fields, as one writer writes them (a nested message, and bytes past the shared buffer's size). */
function writeFields(w: ProtoWriter, text: string, value: bigint, blob: Uint8Array): void {
  w.string(1, text)
    .uint64(2, value)
    .message(3, (m) => m.uint32(1, text.length).bytes(2, blob))
    .raw(blob)
    .lengthPrefixed((m) => m.string(1, text));
}

describe("ProtoWriter.encode", () => {
  it("property: writes what a writer of its own writes, in an array of the exact size", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        fc.uint8Array({ maxLength: 1500 }),
        (text, value, blob) => {
          const own = new ProtoWriter();
          writeFields(own, text, value, blob);
          const reference = own.finish();
          const encoded = ProtoWriter.encode((w) => writeFields(w, text, value, blob));
          expect(encoded).toEqual(reference);
          expect(encoded.buffer.byteLength).toBe(encoded.length);
          // An encode inside another one writes into a buffer of its own.
          const outer = ProtoWriter.encode((w) => {
            w.string(1, text);
            w.bytes(
              2,
              ProtoWriter.encode((inner) => writeFields(inner, text, value, blob)),
            );
          });
          expect(outer).toEqual(new ProtoWriter().string(1, text).bytes(2, reference).finish());
        },
      ),
    );
  });

  it("keeps working after a write that throws", () => {
    expect(() =>
      ProtoWriter.encode((w) => {
        w.string(1, "half");
        throw new Error("stop");
      }),
    ).toThrow("stop");
    expect(ProtoWriter.encode((w) => w.uint32(1, 300))).toEqual(Uint8Array.of(8, 172, 2));
  });
});
