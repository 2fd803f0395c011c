import { describe, expect, test } from "vitest";
import { allocBytes, ProtoWriter } from "./wire.js";

describe("allocBytes", () => {
  test("small outputs are zeroed, disjoint views; large ones have their own buffer", () => {
    const a = allocBytes(100);
    const b = allocBytes(37);
    expect([...a].every((byte) => byte === 0)).toBe(true);
    a.fill(0xaa);
    b.fill(0xbb);
    expect([...a].every((byte) => byte === 0xaa)).toBe(true);
    expect([...b].every((byte) => byte === 0xbb)).toBe(true);
    expect(b.length).toBe(37);
    const large = allocBytes(5000);
    expect(large.byteOffset).toBe(0);
    expect(large.buffer.byteLength).toBe(5000);
  });

  test("a slab whose buffer was transferred away is replaced", () => {
    const a = allocBytes(8);
    const buffer = a.buffer as ArrayBuffer;
    structuredClone(buffer, { transfer: [buffer] });
    expect(a.buffer.byteLength).toBe(0);
    const b = allocBytes(8);
    expect(b.length).toBe(8);
    b[0] = 1;
    expect(b[0]).toBe(1);
  });

  test("writer outputs stay intact while later outputs are written", () => {
    const writer = new ProtoWriter(16);
    const outputs = Array.from({ length: 2000 }, (_, i) => writer.string(1, `m${i}`).finish());
    outputs.forEach((bytes, i) => {
      expect(new TextDecoder().decode(bytes.subarray(2))).toBe(`m${i}`);
    });
  });
});
