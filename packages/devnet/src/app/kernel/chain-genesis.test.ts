/**
 * The genesis document is built on its first read, from the state genesis left: read after blocks
 * and control changes, it is the document read right at genesis.
 */
import { describe, expect, it } from "vitest";
import { bankBalance } from "../../../test/support/app-query.js";
import { createChainApp } from "../app.js";

const GENESIS_TIME = new Date("2026-01-02T03:04:05.678Z");
const ALICE = "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9";

describe("genesis document", () => {
  it.each([
    ["local", {}],
    ["testnet", { markets: 40, fundedSubaccounts: 3 }],
  ] as const)("read late (%s) is the document read at genesis", (profile, scale) => {
    const early = createChainApp({ profile, genesisTime: GENESIS_TIME, ...scale });
    const atGenesis = early.genesisJson();
    const late = createChainApp({ profile, genesisTime: GENESIS_TIME, ...scale });
    const before = bankBalance(late, ALICE, "uusdc");
    late.control.fund(ALICE, [{ denom: "uusdc", amount: 123_456_789n }]);
    late.control.setOraclePrice(0, "12345");
    for (let i = 1; i <= 3; i++) late.produceBlock(new Date(GENESIS_TIME.getTime() + i * 1000));
    late.control.advanceTime(86_400_000);
    late.produceBlock(new Date(GENESIS_TIME.getTime() + 90_000_000));
    expect(JSON.stringify(late.genesisJson())).toBe(JSON.stringify(atGenesis));
    expect(bankBalance(late, ALICE, "uusdc")).toBe(before + 123_456_789n);
  });
});
