/** The devnet control operations on the chain application. */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { cosmosBank } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { GENESIS_TIME, newApp } from "../../../test/support/app-harness.js";
import { accountInfo, bankBalance } from "../../../test/support/app-query.js";
import { GENESIS_USDC_BALANCE } from "../genesis/genesis-accounts.js";
import { bech32Of } from "../lib/addresses.js";

describe("control", () => {
  it("fund mints into an account (creating it) with events in the next block; advanceTime shifts block time", () => {
    const app = newApp();
    const stranger = bech32Of(new Uint8Array(20).fill(9));
    app.control.fund(stranger, [{ denom: "uusdc", amount: 42n }]);
    expect(bankBalance(app, stranger)).toBe(42n);
    expect(accountInfo(app, stranger).accountNumber).toBeGreaterThan(4n);
    app.control.advanceTime(3_600_000);
    const block = app.produceBlock(new Date(GENESIS_TIME.getTime() + 1000));
    expect(block.time.getTime()).toBe(GENESIS_TIME.getTime() + 1000 + 3_600_000);
    const types = block.finalizeBlockEvents.map((e) => e.type);
    expect(types).toContain("coinbase");
    expect(types).toContain("transfer");
    const supply = app.query(
      "/cosmos.bank.v1beta1.Query/SupplyOf",
      toBinary(
        cosmosBank.QuerySupplyOfRequestSchema,
        create(cosmosBank.QuerySupplyOfRequestSchema, { denom: "uusdc" }),
      ),
    );
    expect(fromBinary(cosmosBank.QuerySupplyOfResponseSchema, supply.value).amount?.amount).toBe(
      (GENESIS_USDC_BALANCE * 5n + 42n).toString(),
    );
  });

  it("block times never go backwards", () => {
    const app = newApp();
    const block = app.produceBlock(new Date(0));
    expect(block.time.getTime()).toBe(GENESIS_TIME.getTime() + 1);
  });
});
