import { create } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import {
  affiliates,
  encodeSerializableInt,
  isSerializableIntError,
  perpetuals,
  ratelimit,
  subaccounts,
} from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { affiliateAmounts, limiterCapacities, perpetualAmounts, subaccountBalances } from "./amounts.js";

const integer = fc.bigInt({ min: -(2n ** 128n), max: 2n ** 128n });
const sint = encodeSerializableInt;

describe("subaccountBalances", () => {
  it("reads every amount back (property)", () => {
    const position = fc.record({
      perpetualId: fc.nat({ max: 1_000 }),
      quantums: integer,
      fundingIndex: integer,
      quoteBalance: integer,
    });
    fc.assert(
      fc.property(integer, fc.array(position, { maxLength: 4 }), (usdc, positions) => {
        const subaccount = create(subaccounts.SubaccountSchema, {
          id: { owner: "perpx1a", number: 0 },
          assetPositions: [
            { assetId: 0, quantums: sint(usdc) },
            { assetId: 7, quantums: sint(1n) },
          ],
          perpetualPositions: positions.map((p) => ({
            perpetualId: p.perpetualId,
            quantums: sint(p.quantums),
            fundingIndex: sint(p.fundingIndex),
            quoteBalance: sint(p.quoteBalance),
          })),
        });
        expect(subaccountBalances(subaccount)).toEqual({ usdcQuantums: usdc, perpetuals: positions });
      }),
    );
  });

  it("reads a missing subaccount, or one without USDC, as zero", () => {
    expect(subaccountBalances(undefined)).toEqual({ usdcQuantums: 0n, perpetuals: [] });
    expect(subaccountBalances(create(subaccounts.SubaccountSchema, {}))).toEqual({
      usdcQuantums: 0n,
      perpetuals: [],
    });
  });

  it("throws SerializableIntError for bytes that are no SerializableInt", () => {
    const bad = create(subaccounts.SubaccountSchema, {
      assetPositions: [{ assetId: 0, quantums: new Uint8Array([9]) }],
    });
    let caught: unknown;
    try {
      subaccountBalances(bad);
    } catch (error) {
      caught = error;
    }
    expect(isSerializableIntError(caught)).toBe(true);
  });
});

describe("the other readers", () => {
  it("read perpetual, limiter and affiliate amounts back (property)", () => {
    fc.assert(
      fc.property(integer, integer, integer, integer, integer, integer, (a, b, c, d, e, f) => {
        const perpetual = create(perpetuals.PerpetualSchema, {
          params: { id: 3 },
          fundingIndex: sint(a),
          openInterest: sint(b),
        });
        expect(perpetualAmounts(perpetual)).toEqual({ perpetualId: 3, fundingIndex: a, openInterest: b });

        const capacity = create(ratelimit.LimiterCapacitySchema, {
          limiter: {
            period: create(DurationSchema, { seconds: 3_600n }),
            baselineMinimum: sint(c),
            baselineTvlPpm: 10_000,
          },
          capacity: sint(d),
        });
        expect(limiterCapacities([capacity, create(ratelimit.LimiterCapacitySchema, {})])).toEqual([
          { periodSeconds: 3_600n, baselineMinimum: c, baselineTvlPpm: 10_000, capacity: d },
          { periodSeconds: 0n, baselineMinimum: 0n, baselineTvlPpm: 0, capacity: 0n },
        ]);

        const info = create(affiliates.AffiliateInfoResponseSchema, {
          referredVolume: sint(c),
          stakedAmount: sint(d),
          referredVolume30dRolling: sint(e),
          attributedVolume30dRolling: sint(f),
        });
        expect(affiliateAmounts(info)).toEqual({
          referredVolume: c,
          stakedAmount: d,
          referredVolume30d: e,
          attributedVolume30d: f,
        });
      }),
    );
  });
});
