import { describe, expect, it } from "vitest";
import type { Module } from "./module.js";
import { volatileKeys } from "./volatile-keys.js";

describe("volatileKeys", () => {
  it("answers which keys are volatile as the modules do, from one shared predicate that keeps only its last answer", () => {
    let asked = 0;
    const module: Module = {
      name: "vol",
      volatileKey(key) {
        asked++;
        return key.startsWith("mem/");
      },
    };
    const modules = [module, { name: "other" } as Module];
    const isVolatile = volatileKeys(modules);
    expect(volatileKeys(modules)).toBe(isVolatile);
    // The same key twice in a row (a write through the CheckTx state): asked once.
    expect(isVolatile("vol/mem/1")).toBe(true);
    expect(isVolatile("vol/mem/1")).toBe(true);
    expect(asked).toBe(1);
    expect([
      isVolatile("vol/disk/1"),
      isVolatile("other/mem/1"),
      isVolatile("mem/1"),
      isVolatile("/vol/mem/"),
      isVolatile("vol/mem/1"),
    ]).toEqual([false, false, false, false, true]);
    expect(asked).toBe(3);
    for (let i = 0; i < 1_000; i++)
      expect(isVolatile(`vol/${i % 2 === 0 ? "mem" : "disk"}/${i}`)).toBe(i % 2 === 0);
    expect(volatileKeys([module])("vol/mem/2")).toBe(true);
  });
});
