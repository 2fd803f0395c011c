/**
 * The client's public types, checked by `vitest --typecheck` and the package's `tsc`: answers are
 * the contract's types (strings for amounts), params refuse unknown enumeration values, and
 * `withDecimals` types exactly the converted fields.
 */

import type { Exact } from "@perpx/core";
import type { FillResponseObject, OrdersResponse, PerpetualMarketsResponse } from "@perpx/core/indexer";
import { describe, expectTypeOf, it } from "vitest";
import { createIndexerClient, getFills, type IndexerClient } from "../src/index.js";
import { FILL_DECIMAL_FIELDS, withDecimals } from "../src/rest.js";

const client: IndexerClient = createIndexerClient({ baseUrl: "http://127.0.0.1:3002" });
const SUB = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };

describe("indexer client types", () => {
  it("answers with the contract's types", () => {
    expectTypeOf(client.getPerpetualMarkets()).resolves.toEqualTypeOf<PerpetualMarketsResponse>();
    expectTypeOf(client.getOrders(SUB)).resolves.toEqualTypeOf<OrdersResponse>();
    expectTypeOf(getFills(client, SUB)).resolves.toHaveProperty("fills");
    expectTypeOf<Awaited<ReturnType<IndexerClient["getHeight"]>>["height"]>().toEqualTypeOf<string>();
  });

  it("refuses unknown enumeration values and missing parameters", () => {
    // @ts-expect-error not an order status
    void client.getOrders({ ...SUB, status: ["OPENED"] });
    // @ts-expect-error resolution is required
    void client.getCandles({ ticker: "BTC-USD" });
    // @ts-expect-error subaccountNumber is required
    void client.getFills({ address: SUB.address });
  });

  it("iterates rows typed as the contract's", () => {
    const rows = client.iterateFills(SUB);
    expectTypeOf(rows).toEqualTypeOf<AsyncGenerator<FillResponseObject, void, undefined>>();
  });

  it("types exactly the fields withDecimals converts", () => {
    const fill = {} as FillResponseObject;
    const converted = withDecimals(fill, FILL_DECIMAL_FIELDS);
    expectTypeOf(converted.price).toEqualTypeOf<Exact>();
    expectTypeOf(converted.builderFee).toEqualTypeOf<Exact | undefined>();
    expectTypeOf(converted.id).toEqualTypeOf<string>();
    expectTypeOf(converted.createdAtHeight).toEqualTypeOf<string>();
  });
});
