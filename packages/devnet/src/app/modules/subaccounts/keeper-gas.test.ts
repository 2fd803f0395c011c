import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { probedChain } from "../../../../test/support/probe-chain.js";
import { GENESIS_ACCOUNTS } from "../../genesis/genesis-accounts.js";
import { createGasMeter, defaultGasConfig, OutOfGasError } from "../../kernel/gas.js";
import { type Context, createContext } from "../../kernel/module.js";
import { CacheStore } from "../../kernel/store.js";
import { GasStore } from "../../kernel/store-views.js";
import { encodeU64 } from "../../lib/codec.js";
import { EventManager } from "../../lib/events.js";
import { ContextKv } from "../clob/kv.js";
import { CLOB, keys } from "../clob/state.js";
import type { SubaccountRef, SubaccountUpdate } from "./keeper.js";

const [ALICE, BOB] = GENESIS_ACCOUNTS.map((a) => a.address) as [string, string];
const alice0: SubaccountRef = { owner: ALICE, number: 0 };
const bob0: SubaccountRef = { owner: BOB, number: 0 };
const USDC = 1_000_000n;
const BTC = 10_000_000_000n;
const ETH = 1_000_000_000n;

const trade = (id: SubaccountRef, perpetualId: number, quantums: bigint, usdc: bigint): SubaccountUpdate => ({
  id,
  usdcDelta: usdc,
  perpetualDeltas: [{ perpetualId, quantumsDelta: quantums }],
});

/** Runs `fn` in a metered branch of `ctx` with gas limit `limit`: how it ended and the gas it used. */
function metered(ctx: Context, limit: bigint | undefined, fn: (branch: Context) => unknown): string {
  const meter = createGasMeter(limit);
  const branch = createContext({
    mode: "deliver",
    block: ctx.block,
    gasMeter: meter,
    gasConfig: defaultGasConfig,
    events: new EventManager(),
    kv: new GasStore(new CacheStore(new ContextKv(ctx)), meter, defaultGasConfig),
  });
  let outcome: string;
  try {
    outcome = JSON.stringify(fn(branch), (_, v) => (typeof v === "bigint" ? v.toString() : v));
  } catch (error) {
    outcome = error instanceof OutOfGasError ? `out of gas: ${error.message}` : String(error);
  }
  return `${outcome} ${meter.consumed}`;
}

describe("subaccounts keeper gas", () => {
  it("charges the gas it charged before its reads were memoized (checks, fills, risk, leverage; every limit)", () => {
    const chain = probedChain();
    chain.app.control.setOracleWalk(false);
    chain.app.control.setOraclePrice("BTC-USD", "65000");
    chain.app.control.setOraclePrice("ETH-USD", "3000");
    // alice/0: long BTC and short ETH, with a leverage choice on BTC; bob/0 the other sides.
    chain.run((ctx, k) => {
      k.subaccounts.mintInto(ctx, alice0, 20_000n * USDC);
      k.subaccounts.mintInto(ctx, bob0, 20_000n * USDC);
      k.subaccounts.applyUpdates(ctx, [
        trade(alice0, 0, BTC / 10n, -6_500n * USDC),
        trade(bob0, 0, -BTC / 10n, 6_500n * USDC),
      ]);
      k.subaccounts.applyUpdates(ctx, [
        trade(alice0, 1, -2n * ETH, 6_000n * USDC),
        trade(bob0, 1, 2n * ETH, -6_000n * USDC),
      ]);
      ctx.store(CLOB).set(keys.leverage(ALICE, 0, 0), encodeU64(100_000n));
    });
    const fills: SubaccountUpdate[][] = [
      [trade(alice0, 0, BTC / 100n, -650n * USDC - 325_000n), trade(bob0, 0, -BTC / 100n, 650n * USDC)],
      [trade(bob0, 1, -ETH, 3_000n * USDC), trade(alice0, 1, ETH, -3_000n * USDC - 1_500_000n)],
      [trade(alice0, 0, 10n * BTC, -650_000n * USDC), trade(bob0, 0, -10n * BTC, 650_000n * USDC)],
      [trade(alice0, 2, BTC, -USDC), trade(bob0, 2, -BTC, USDC)],
      [trade({ owner: ALICE, number: 1 }, 1, ETH, -3_000n * USDC), trade(bob0, 1, -ETH, 3_000n * USDC)],
    ];
    const lines: string[] = [];
    chain.run((ctx, k) => {
      const gasOf = (limit: bigint | undefined) => {
        for (const updates of fills) {
          lines.push(metered(ctx, limit, (c) => k.subaccounts.tryApplyEach(c, updates)));
          lines.push(metered(ctx, limit, (c) => k.subaccounts.canApplyUpdates(c, updates)));
          lines.push(metered(ctx, limit, (c) => k.subaccounts.applyUpdates(c, updates)));
        }
        lines.push(metered(ctx, limit, (c) => k.subaccounts.risk(c, alice0)));
        lines.push(metered(ctx, limit, (c) => k.subaccounts.settled(c, alice0)));
        lines.push(
          metered(ctx, limit, (c) => k.subaccounts.checkLeverage(c, alice0, new Map([[1, 200_000]]))),
        );
        lines.push(metered(ctx, limit, (c) => k.subaccounts.checkLeverage(c, bob0, new Map([[0, 1]]))));
      };
      gasOf(undefined);
      for (let limit = 0n; limit <= 160_000n; limit += 997n) gasOf(limit);
    });
    // Pinned from the keeper before its reads were memoized: the first lines in full (a failure
    // shows what changed), then a digest of all 3,078 (their outcomes and gas used).
    expect(lines.slice(0, 4)).toEqual(["-1 248859", '{"ok":true} 90088', "undefined 158771", "-1 248859"]);
    expect(lines).toHaveLength(3078);
    expect(createHash("sha256").update(lines.join("\n")).digest("hex")).toBe(
      "b3988dfd9d3d695ad32219006d96c3a6d4e41ac1d741d2c3b9838885d8b7a9f8",
    );
  });
});
