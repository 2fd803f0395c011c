import { subaccounts, toCosmosJson } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fundedSubaccountKey } from "../../genesis/funded-subaccounts.js";
import { subaccountJson, subaccountProto } from "./views.js";

const int = fc.bigInt({ min: -(1n << 200n), max: 1n << 200n });

describe("subaccountJson", () => {
  it("writes what toCosmosJson writes for the subaccount's proto (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 0, max: 127_999 }),
        int,
        fc.array(
          fc.record({
            perpetualId: fc.integer({ min: 0, max: 1_000 }),
            quantums: int,
            fundingIndex: int,
            quoteBalance: int,
          }),
          {
            maxLength: 4,
          },
        ),
        (index, number, usdc, perpetualPositions) => {
          const view = {
            id: { owner: fundedSubaccountKey(index).address, number },
            usdc,
            perpetualPositions,
          };
          expect(subaccountJson(view)).toEqual(
            toCosmosJson(subaccounts.SubaccountSchema, subaccountProto(view)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
