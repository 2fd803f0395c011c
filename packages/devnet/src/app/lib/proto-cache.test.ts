import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { perpetuals } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromBinaryCached } from "./proto-cache.js";

const params = fc.record({
  id: fc.nat(1000),
  ticker: fc.string({ maxLength: 12 }),
  marketId: fc.nat(1000),
  atomicResolution: fc.integer({ min: -12, max: 0 }),
  defaultFundingPpm: fc.integer({ min: -1_000_000, max: 1_000_000 }),
  liquidityTier: fc.nat(5),
});

describe("fromBinaryCached", () => {
  it("property: gives what fromBinary gives, shared and frozen for the same bytes", () => {
    fc.assert(
      fc.property(params, (fields) => {
        const bytes = toBinary(
          perpetuals.PerpetualParamsSchema,
          create(perpetuals.PerpetualParamsSchema, fields),
        );
        const first = fromBinaryCached(perpetuals.PerpetualParamsSchema, bytes);
        expect(first).toEqual(fromBinary(perpetuals.PerpetualParamsSchema, bytes));
        // The same content in another buffer hits the same entry.
        expect(fromBinaryCached(perpetuals.PerpetualParamsSchema, bytes.slice())).toBe(first);
        expect(Object.isFrozen(first)).toBe(true);
        expect(() => {
          (first as { ticker: string }).ticker = "changed";
        }).toThrow(TypeError);
      }),
    );
  });

  it("property: the same array asked again, or another with its content, gives the same message", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(params, fc.boolean()), { maxLength: 8 }), (asks) => {
        const arrays: Uint8Array[] = [];
        for (const [fields, again] of asks) {
          const fresh = toBinary(
            perpetuals.PerpetualParamsSchema,
            create(perpetuals.PerpetualParamsSchema, fields),
          );
          const bytes = again && arrays.length > 0 ? (arrays[arrays.length - 1] as Uint8Array) : fresh;
          arrays.push(bytes);
          const got = fromBinaryCached(perpetuals.PerpetualParamsSchema, bytes);
          expect(got).toEqual(fromBinary(perpetuals.PerpetualParamsSchema, bytes));
          expect(fromBinaryCached(perpetuals.PerpetualParamsSchema, bytes)).toBe(got);
          expect(fromBinaryCached(perpetuals.PerpetualParamsSchema, bytes.slice())).toBe(got);
        }
      }),
    );
  });

  it("decodes changed bytes afresh, and keeps schemas apart", () => {
    const a = toBinary(
      perpetuals.PerpetualParamsSchema,
      create(perpetuals.PerpetualParamsSchema, { id: 1, ticker: "A" }),
    );
    const b = toBinary(
      perpetuals.PerpetualParamsSchema,
      create(perpetuals.PerpetualParamsSchema, { id: 1, ticker: "B" }),
    );
    expect(fromBinaryCached(perpetuals.PerpetualParamsSchema, a).ticker).toBe("A");
    expect(fromBinaryCached(perpetuals.PerpetualParamsSchema, b).ticker).toBe("B");
    const empty = new Uint8Array(0);
    expect(fromBinaryCached(perpetuals.LiquidityTierSchema, empty).$typeName).toBe(
      "perpx.perpetuals.v1.LiquidityTier",
    );
    expect(fromBinaryCached(perpetuals.PerpetualParamsSchema, empty).$typeName).toBe(
      "perpx.perpetuals.v1.PerpetualParams",
    );
  });
});
