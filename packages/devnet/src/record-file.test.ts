import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { concatList } from "./app/lib/codec.js";
import { decodeRecords, encodeRecord, readRecordAt, scanRecords } from "./record-file.js";

const dir = mkdtempSync(join(tmpdir(), "perpx-record-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** Scans `bytes` as a file, from byte `from`, with chunks of `chunkBytes`. */
function scanFile(bytes: Uint8Array, from: number, chunkBytes: number, limit?: number) {
  const path = join(dir, `f${files++}`);
  writeFileSync(path, bytes);
  const fd = openSync(path, "r");
  try {
    const scanned = scanRecords(fd, from, bytes.length, limit, chunkBytes);
    const payloads = scanned.payloadStarts.map((start) => readRecordAt(fd, start));
    return { ...scanned, payloads };
  } finally {
    closeSync(fd);
  }
}

describe("records scanned from a file", () => {
  it("property: a chunked scan finds what decoding the whole file finds, whatever the chunk size and damage", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 12 }),
        fc.integer({ min: 8, max: 700 }),
        fc.nat(),
        fc.option(fc.nat(), { nil: undefined }),
        (payloads, chunkBytes, cut, flip) => {
          const prefix = new Uint8Array([9, 9, 9]);
          const whole = concatList([prefix, ...payloads.map(encodeRecord)]);
          const bytes = whole.slice(0, prefix.length + (cut % (whole.length - prefix.length + 1)));
          if (flip !== undefined && bytes.length > prefix.length) {
            const at = prefix.length + (flip % (bytes.length - prefix.length));
            bytes[at] = (bytes[at] as number) ^ 0x40;
          }
          const expected = decodeRecords(bytes.subarray(prefix.length));
          const scanned = scanFile(bytes, prefix.length, chunkBytes);
          expect(scanned.end).toBe(prefix.length + expected.end);
          expect(scanned.payloads).toEqual(expected.records.map((r) => r.slice()));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("stops at `limit` records", () => {
    const bytes = concatList([1, 2, 3].map((n) => encodeRecord(new Uint8Array(n))));
    const scanned = scanFile(bytes, 0, 16, 2);
    expect(scanned.payloadStarts).toEqual([8, 17]);
    expect(scanned.end).toBe(19);
  });
});
