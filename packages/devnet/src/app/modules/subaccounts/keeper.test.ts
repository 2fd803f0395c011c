import { create } from "@bufbuild/protobuf";
import { sending } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { probedChain } from "../../../../test/support/probe-chain.js";
import { msg, signTx } from "../../../../test/support/sign-tx.js";
import { GENESIS_ACCOUNTS } from "../../genesis/genesis-accounts.js";
import { createGasMeter, defaultGasConfig, OutOfGasError } from "../../kernel/gas.js";
import { type Context, createContext } from "../../kernel/module.js";
import { CacheStore, type KvStore } from "../../kernel/store.js";
import { GasStore } from "../../kernel/store-views.js";
import { accAddressBytes } from "../../lib/addresses.js";
import { EventManager } from "../../lib/events.js";
import { ContextKv } from "../clob/kv.js";
import type { SubaccountRef, SubaccountUpdate } from "./keeper.js";

const [ALICE, BOB] = GENESIS_ACCOUNTS.map((a) => a.address) as [string, string];
const alice0: SubaccountRef = { owner: ALICE, number: 0 };
const bob0: SubaccountRef = { owner: BOB, number: 0 };
const USDC = 1_000_000n;
const BTC = 10_000_000_000n; // 1 BTC in base quantums (atomic resolution -10)

/** A chain with the walk off, BTC at $65,000, alice/0 and bob/0 holding 10,000 USDC each. */
function setup() {
  const chain = probedChain();
  chain.app.control.setOracleWalk(false);
  chain.app.control.setOraclePrice("BTC-USD", "65000");
  chain.run((ctx, k) => {
    k.subaccounts.mintInto(ctx, alice0, 10_000n * USDC);
    k.subaccounts.mintInto(ctx, bob0, 10_000n * USDC);
  });
  return chain;
}

/**
 * A fill of `size` BTC at `priceUsd` between a buyer and a seller, with the taker fee on the buyer,
 * booked as the reference chain books it: quote and fee in USDC, the size in the position.
 */
function fill(
  buyer: SubaccountRef,
  seller: SubaccountRef,
  size: bigint,
  priceUsd: bigint,
  fee = 0n,
): SubaccountUpdate[] {
  const quote = (size * priceUsd * USDC) / BTC;
  return [
    { id: buyer, usdcDelta: -quote - fee, perpetualDeltas: [{ perpetualId: 0, quantumsDelta: size }] },
    { id: seller, usdcDelta: quote, perpetualDeltas: [{ perpetualId: 0, quantumsDelta: -size }] },
  ];
}

describe("subaccounts keeper", () => {
  it("opens positions through applyUpdates: quote and fee in USDC, quote balance 0, margins, open interest", () => {
    const { run } = setup();
    run((ctx, k) => {
      k.subaccounts.applyUpdates(ctx, fill(alice0, bob0, BTC, 65_000n, 32_500_000n));
      const alice = k.subaccounts.get(ctx, alice0);
      expect(alice.usdc).toBe(10_000n * USDC - 65_000n * USDC - 32_500_000n);
      expect(alice.perpetualPositions).toEqual([
        { perpetualId: 0, quantums: BTC, fundingIndex: 0n, quoteBalance: 0n },
      ]);
      expect(k.subaccounts.get(ctx, bob0)).toMatchObject({
        usdc: 75_000n * USDC,
        perpetualPositions: [{ perpetualId: 0, quantums: -BTC, fundingIndex: 0n, quoteBalance: 0n }],
      });
      expect(k.subaccounts.netCollateral(ctx, alice0)).toBe(9_967_500_000n);
      // 1 BTC at $65,000 at the tier's fractions: initial IMF of it, maintenance that × the fraction.
      const tier = k.perpetuals.liquidityTierOf(ctx, 0);
      const initial = (65_000n * USDC * BigInt(tier.initialMarginPpm)) / 1_000_000n;
      expect(k.subaccounts.initialMarginRequirement(ctx, alice0)).toBe(initial);
      expect(k.subaccounts.maintenanceMarginRequirement(ctx, alice0)).toBe(
        (initial * BigInt(tier.maintenanceFractionPpm)) / 1_000_000n,
      );
      expect(k.subaccounts.netCollateral(ctx, bob0)).toBe(10_000n * USDC);
      expect(k.perpetuals.perpetual(ctx, 0).openInterest).toBe(BTC);
    });
  });

  it("refuses an update that leaves the subaccount under initial margin, and allows one that reduces risk", () => {
    const { app, run } = setup();
    // A long needing $6,500 of initial margin at the tier's fraction (2 BTC at 5%, 5 BTC at 2%).
    const imf = run((ctx, k) => BigInt(k.perpetuals.liquidityTierOf(ctx, 0).initialMarginPpm));
    const size = (100_000n * BTC) / imf;
    run((ctx, k) => k.subaccounts.applyUpdates(ctx, fill(alice0, bob0, size, 65_000n)));
    const tooBig = run((ctx, k) => k.subaccounts.canApplyUpdates(ctx, fill(alice0, bob0, size, 65_000n)));
    expect(tooBig.ok).toBe(false);
    expect(tooBig.ok ? "" : tooBig.reason).toMatch(/below the initial margin requirement/);
    expect(() => run((ctx, k) => k.subaccounts.applyUpdates(ctx, fill(alice0, bob0, size, 65_000n)))).toThrow(
      /failed to apply subaccount updates/,
    );
    // BTC falls until alice has lost $7,500: she is under initial margin; selling 1 BTC reduces her risk.
    const fallen = 65_000n - (7_500n * BTC) / size;
    app.control.setOraclePrice("BTC-USD", fallen.toString());
    run((ctx, k) => {
      const risk = k.subaccounts.risk(ctx, alice0);
      expect(risk.netCollateral).toBe(2_500n * USDC);
      expect(risk.netCollateral < risk.initial).toBe(true);
      expect(k.subaccounts.canApplyUpdates(ctx, fill(bob0, alice0, BTC, fallen))).toEqual({ ok: true });
      expect(
        k.subaccounts.canApplyUpdates(ctx, [{ id: alice0, usdcDelta: -1n, perpetualDeltas: [] }]).ok,
      ).toBe(false);
      expect(
        k.subaccounts.canApplyUpdates(ctx, [{ id: alice0, usdcDelta: 5n, perpetualDeltas: [] }]),
      ).toEqual({ ok: true });
      expect(
        k.subaccounts.canApplyUpdates(ctx, [
          ...fill(alice0, bob0, 1n, 1n),
          { id: alice0, usdcDelta: 0n, perpetualDeltas: [] },
        ]).ok,
      ).toBe(false);
    });
  });

  it("settles funding on touch into USDC, and removes a position that closes", () => {
    const { app, run } = setup();
    run((ctx, k) => k.subaccounts.applyUpdates(ctx, fill(alice0, bob0, BTC, 65_000n)));
    run((ctx, k) => k.perpetuals.addFundingIndex(ctx, 0, 1000n)); // longs pay 1e10 × 1000 / 1e6 = $10
    run((ctx, k) => {
      expect(k.subaccounts.get(ctx, alice0).usdc).toBe(-55_000n * USDC);
      expect(k.subaccounts.settled(ctx, alice0).usdc).toBe(-55_010n * USDC);
      expect(k.subaccounts.netCollateral(ctx, bob0)).toBe(10_010n * USDC);
      k.subaccounts.applyUpdates(ctx, [{ id: alice0, usdcDelta: 0n, perpetualDeltas: [] }]);
      expect(k.subaccounts.get(ctx, alice0).usdc).toBe(-55_010n * USDC);
      expect(k.subaccounts.get(ctx, alice0).perpetualPositions[0]?.fundingIndex).toBe(1000n);
    });
    app.control.setOraclePrice("BTC-USD", "66000");
    run((ctx, k) => {
      k.subaccounts.applyUpdates(ctx, fill(bob0, alice0, BTC, 66_000n));
      const alice = k.subaccounts.get(ctx, alice0);
      expect(alice.perpetualPositions).toEqual([]);
      expect(alice.usdc).toBe(9_990n * USDC + 1_000n * USDC);
      expect(k.subaccounts.get(ctx, bob0)).toMatchObject({
        usdc: 10_010n * USDC - 1_000n * USDC,
        perpetualPositions: [],
      });
      expect(k.perpetuals.perpetual(ctx, 0).openInterest).toBe(0n);
    });
  });

  it("sums the funding of all positions, then rounds the total down once (as the chain settles it)", () => {
    const { run } = setup();
    // Alice long 1,000 base quantums of BTC and of ETH; each index rises by 500: each position owes
    // 500 × 1,000 = 500,000 millionths (half a quote quantum), 1 quote quantum in all (not 2).
    run((ctx, k) =>
      k.subaccounts.applyUpdates(ctx, [
        {
          id: alice0,
          usdcDelta: 0n,
          perpetualDeltas: [
            { perpetualId: 0, quantumsDelta: 1_000n },
            { perpetualId: 1, quantumsDelta: 1_000n },
          ],
        },
        {
          id: bob0,
          usdcDelta: 0n,
          perpetualDeltas: [
            { perpetualId: 0, quantumsDelta: -1_000n },
            { perpetualId: 1, quantumsDelta: -1_000n },
          ],
        },
      ]),
    );
    run((ctx, k) => {
      k.perpetuals.addFundingIndex(ctx, 0, 500n);
      k.perpetuals.addFundingIndex(ctx, 1, 500n);
    });
    run((ctx, k) => {
      expect(k.subaccounts.settled(ctx, alice0).usdc).toBe(10_000n * USDC - 1n);
      expect(k.subaccounts.settled(ctx, bob0).usdc).toBe(10_000n * USDC + 1n);
      k.subaccounts.applyUpdates(ctx, [{ id: alice0, usdcDelta: 0n, perpetualDeltas: [] }]);
      const alice = k.subaccounts.get(ctx, alice0);
      expect(alice.usdc).toBe(10_000n * USDC - 1n);
      expect(alice.perpetualPositions.map((p) => [p.fundingIndex, p.quoteBalance])).toEqual([
        [500n, 0n],
        [500n, 0n],
      ]);
    });
  });

  it("closes and flips positions in USDC: a close removes the position, a flip keeps it with the new side", () => {
    const { run } = setup();
    run((ctx, k) => {
      // Alice buys 1 BTC at $65,000, sells 0.5 at $66,000 (partial close), then 1.5 at $64,000 (flip).
      k.subaccounts.applyUpdates(ctx, fill(alice0, bob0, BTC, 65_000n));
      k.subaccounts.applyUpdates(ctx, fill(bob0, alice0, BTC / 2n, 66_000n));
      expect(k.subaccounts.get(ctx, alice0)).toMatchObject({
        usdc: 10_000n * USDC - 65_000n * USDC + 33_000n * USDC,
        perpetualPositions: [{ perpetualId: 0, quantums: BTC / 2n, quoteBalance: 0n }],
      });
      k.subaccounts.applyUpdates(ctx, fill(bob0, alice0, (3n * BTC) / 2n, 64_000n));
      expect(k.subaccounts.get(ctx, alice0)).toMatchObject({
        usdc: 10_000n * USDC - 65_000n * USDC + 33_000n * USDC + 96_000n * USDC,
        perpetualPositions: [{ perpetualId: 0, quantums: -BTC, quoteBalance: 0n }],
      });
      k.subaccounts.applyUpdates(ctx, fill(alice0, bob0, BTC, 65_000n));
      const alice = k.subaccounts.get(ctx, alice0);
      expect(alice.perpetualPositions).toEqual([]);
      // +1,000 on the first half, -1,000 on the second half, -1,000 on the short.
      expect(alice.usdc).toBe(9_000n * USDC);
      expect(k.perpetuals.perpetual(ctx, 0).openInterest).toBe(0n);
    });
  });

  it("refuses a signed withdrawal that would leave an open position under initial margin (subaccounts 102)", async () => {
    const { app, run } = setup();
    run((ctx, k) => k.subaccounts.applyUpdates(ctx, fill(alice0, bob0, BTC, 65_000n)));
    const withdraw = async (quantums: bigint, sequence: bigint) => {
      const account = run((ctx, k) => k.auth.getAccount(ctx, accAddressBytes(ALICE)));
      const tx = await signTx({
        mnemonic: GENESIS_ACCOUNTS[0]!.mnemonic,
        chainId: app.info.chainId,
        accountNumber: account?.accountNumber ?? 0n,
        sequence,
        msgs: [
          msg(
            sending.MsgWithdrawFromSubaccountSchema,
            create(sending.MsgWithdrawFromSubaccountSchema, {
              recipient: ALICE,
              sender: alice0,
              assetId: 0,
              quantums,
            }),
          ),
        ],
      });
      expect(app.checkTx(tx).code).toBe(0);
      return app.produceBlock(new Date(app.latestBlock().time.getTime() + 1000)).txResults[1];
    };
    // Net collateral 10,000 USDC and the tier's initial margin on $65,000: withdrawing $1,000 more
    // than the excess is refused, $1,000 less is allowed.
    const imf = run((ctx, k) => BigInt(k.perpetuals.liquidityTierOf(ctx, 0).initialMarginPpm));
    const excess = 10_000n * USDC - (65_000n * USDC * imf) / 1_000_000n;
    const refused = await withdraw(excess + 1_000n * USDC, 0n);
    expect(refused).toMatchObject({ code: 102, codespace: "subaccounts" });
    expect(refused?.log).toMatch(/below the initial margin requirement/);
    // Her USDC is 10,000 - 65,000 (the long's price) = -55,000; equity is 10,000 at $65,000.
    expect(run((ctx, k) => k.subaccounts.get(ctx, alice0).usdc)).toBe(-55_000n * USDC);
    const allowed = await withdraw(excess - 1_000n * USDC, 1n);
    expect(allowed?.code).toBe(0);
    expect(run((ctx, k) => k.subaccounts.get(ctx, alice0).usdc)).toBe(
      -55_000n * USDC - excess + 1_000n * USDC,
    );
    expect(run((ctx, k) => k.subaccounts.netCollateral(ctx, alice0))).toBe(
      10_000n * USDC - excess + 1_000n * USDC,
    );
  });

  it("charges the simulated gas exactly when a deposit, a transfer and a withdrawal are delivered", async () => {
    const { app, run } = setup();
    const account = run((ctx, k) => k.auth.getAccount(ctx, accAddressBytes(ALICE)));
    const msgs = [
      msg(
        sending.MsgDepositToSubaccountSchema,
        create(sending.MsgDepositToSubaccountSchema, {
          sender: ALICE,
          recipient: { owner: ALICE, number: 9 },
          assetId: 0,
          quantums: 3n * USDC,
        }),
      ),
      msg(
        sending.MsgCreateTransferSchema,
        create(sending.MsgCreateTransferSchema, {
          transfer: {
            sender: { owner: ALICE, number: 9 },
            recipient: { owner: BOB, number: 4 },
            assetId: 0,
            amount: USDC,
          },
        }),
      ),
      msg(
        sending.MsgWithdrawFromSubaccountSchema,
        create(sending.MsgWithdrawFromSubaccountSchema, {
          recipient: BOB,
          sender: alice0,
          assetId: 0,
          quantums: USDC,
        }),
      ),
    ];
    const tx = await signTx({
      mnemonic: GENESIS_ACCOUNTS[0]!.mnemonic,
      chainId: app.info.chainId,
      accountNumber: account?.accountNumber ?? 0n,
      sequence: account?.sequence ?? 0n,
      msgs,
    });
    const simulated = app.simulate(tx);
    expect(simulated.ok).toBe(true);
    expect(app.checkTx(tx).code).toBe(0);
    const delivered = app.produceBlock(new Date(app.latestBlock().time.getTime() + 1000)).txResults[1];
    expect(delivered?.code).toBe(0);
    expect(delivered?.gasUsed).toBe(simulated.ok ? simulated.gasUsed : -1n);
  });

  it("lists the subaccounts holding a position from their position keys, in the order of all()", () => {
    const { run } = setup();
    run((ctx, k) => {
      const carol = { owner: ALICE, number: 7 };
      k.subaccounts.mintInto(ctx, carol, 10_000n * USDC);
      expect(k.subaccounts.withPositions(ctx)).toEqual([]);
      k.subaccounts.applyUpdates(ctx, fill(bob0, carol, BTC / 10n, 65_000n));
      const holding = k.subaccounts.all(ctx).filter((s) => s.perpetualPositions.length > 0);
      expect(holding.map((s) => s.id)).toHaveLength(2);
      expect(k.subaccounts.withPositions(ctx)).toEqual(holding);
      // Closed again: the position keys are gone, and so is the subaccount from the list.
      k.subaccounts.applyUpdates(ctx, fill(carol, bob0, BTC / 10n, 65_000n));
      expect(k.subaccounts.withPositions(ctx)).toEqual([]);
    });
  });

  it("keeps parent/child numbering and validates ids", () => {
    const { run } = setup();
    run((ctx, k) => {
      k.subaccounts.transfer(ctx, alice0, { owner: ALICE, number: 128 + 5 }, 7n);
      expect(
        k.subaccounts
          .all(ctx)
          .map((s) => `${s.id.owner === ALICE ? "alice" : "bob"}/${s.id.number}`)
          .sort(),
      ).toEqual(["alice/0", "alice/133", "bob/0"]);
      expect(() => k.subaccounts.transfer(ctx, alice0, { owner: ALICE, number: 128_001 }, 1n)).toThrow(
        /cannot exceed/,
      );
      expect(k.subaccounts.collateralPoolName(ctx, 0)).toBe("subaccounts");
    });
  });
});

describe("subaccounts keeper invariants", () => {
  it("property: fills conserve USDC, quote balances stay 0, net size is zero, open interest is the longs", () => {
    const { app, run } = setup();
    const carol: SubaccountRef = { owner: ALICE, number: 1 };
    run((ctx, k) => k.subaccounts.mintInto(ctx, carol, 10_000n * USDC));
    const ids = [alice0, bob0, carol];
    const total = (
      ctx: Parameters<Parameters<typeof run>[0]>[0],
      k: Parameters<Parameters<typeof run>[0]>[1],
    ) =>
      ids.reduce((sum, id) => {
        const view = k.subaccounts.settled(ctx, id);
        for (const p of view.perpetualPositions) expect(p.quoteBalance).toBe(0n);
        return sum + view.usdc;
      }, 0n);
    const start = run(total);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            buyer: fc.integer({ min: 0, max: 2 }),
            seller: fc.integer({ min: 0, max: 2 }),
            size: fc.bigInt({ min: 1n, max: BTC / 2n }),
            price: fc.bigInt({ min: 60_000n, max: 70_000n }),
            funding: fc.bigInt({ min: -1000n, max: 1000n }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (fills) => {
          for (const f of fills) {
            if (f.buyer === f.seller) continue;
            app.control.setOraclePrice("BTC-USD", f.price.toString());
            run((ctx, k) => {
              k.perpetuals.addFundingIndex(ctx, 0, f.funding);
              const updates = fill(
                ids[f.buyer] as SubaccountRef,
                ids[f.seller] as SubaccountRef,
                f.size,
                f.price,
              );
              if (k.subaccounts.canApplyUpdates(ctx, updates).ok) k.subaccounts.applyUpdates(ctx, updates);
            });
          }
          run((ctx, k) => {
            const sizes = ids.map((id) => k.subaccounts.get(ctx, id).perpetualPositions[0]?.quantums ?? 0n);
            expect(sizes.reduce((a, b) => a + b, 0n)).toBe(0n);
            expect(k.perpetuals.perpetual(ctx, 0).openInterest).toBe(
              sizes.reduce((a, b) => a + (b > 0n ? b : 0n), 0n),
            );
            // Funding rounds down for every payer, so the total can only shrink by rounding dust.
            const now = total(ctx, k);
            expect(now <= start).toBe(true);
            expect(start - now).toBeLessThan(1_000_000n);
          });
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("tryApplyEach (a fill's checks, run once)", () => {
  /** Runs `fn` in a metered branch of `ctx` (gas limit `limit`): its outcome, gas, events and writes. */
  function metered(ctx: Context, limit: bigint | undefined, fn: (branch: Context) => unknown) {
    const cache = new CacheStore(new ContextKv(ctx));
    // Every write and delete, in order.
    const writes: [string, Uint8Array | null][] = [];
    const recorded: KvStore = {
      get: (key) => cache.get(key),
      has: (key) => cache.has(key),
      set: (key, value) => {
        writes.push([key, value.slice()]);
        cache.set(key, value);
      },
      delete: (key) => {
        writes.push([key, null]);
        cache.delete(key);
      },
      entries: (prefix, options) => cache.entries(prefix, options),
    };
    const meter = createGasMeter(limit);
    const events = new EventManager();
    const branch = createContext({
      mode: "deliver",
      block: ctx.block,
      gasMeter: meter,
      gasConfig: defaultGasConfig,
      events,
      kv: new GasStore(recorded, meter, defaultGasConfig),
    });
    let outcome: unknown;
    try {
      outcome = fn(branch);
    } catch (error) {
      outcome = error instanceof OutOfGasError ? `out of gas: ${error.descriptor}` : String(error);
    }
    return { outcome, gas: meter.consumed, events: events.events, writes };
  }

  it("property: the same outcome, gas, events and state as checking each side, then applyUpdates", () => {
    const { run } = setup();
    // alice/0 holds a position, so fills may open, grow, reduce or flip it.
    run((ctx, k) => k.subaccounts.applyUpdates(ctx, fill(alice0, bob0, BTC / 2n, 65_000n)));
    const ids = [alice0, bob0, { owner: ALICE, number: 1 }];
    fc.assert(
      fc.property(
        fc.nat(2),
        fc.nat(2),
        fc.bigInt({ min: -3n * BTC, max: 3n * BTC }),
        fc.bigInt({ min: 50_000n, max: 80_000n }),
        fc.bigInt({ min: -10n * USDC, max: 20_000n * USDC }),
        // A check costs ~15k gas: limits up to 120k run out in the checks, in the replay, or after it.
        fc.option(fc.bigInt({ min: 0n, max: 120_000n }), { nil: undefined }),
        (a, b, size, price, fee, limit) => {
          const [first, second] = fill(ids[a] as SubaccountRef, ids[b] as SubaccountRef, size, price, fee);
          const updates = [first, second] as SubaccountUpdate[];
          run((ctx, k) => {
            const before = metered(ctx, limit, (branch) => {
              if (!k.subaccounts.canApplyUpdates(branch, [first as SubaccountUpdate]).ok) return 0;
              if (!k.subaccounts.canApplyUpdates(branch, [second as SubaccountUpdate]).ok) return 1;
              k.subaccounts.applyUpdates(branch, updates);
              return -1;
            });
            const after = metered(ctx, limit, (branch) => k.subaccounts.tryApplyEach(branch, updates));
            expect(after).toEqual(before);
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("fee tiers keeper", () => {
  it("charges tier-1 fees, then a lower taker fee from the block after the 30-day volume passes a tier, forgetting it 30 days on", () => {
    const { app, run } = setup();
    const block = () => app.produceBlock(new Date(app.latestBlock().time.getTime() + 1000));
    while (app.latestBlock().height < 2n) block();
    expect(
      run((ctx, k) => [k.feeTiers.feePpm(ctx, ALICE, true, 0), k.feeTiers.feePpm(ctx, ALICE, false, 0)]),
    ).toEqual([500, -110]);
    run((ctx, k) => k.feeTiers.recordFill(ctx, ALICE, BOB, 1_000_000n * USDC));
    // Recorded in the pending block's stats: it counts once a block ended.
    expect(run((ctx, k) => k.feeTiers.feePpm(ctx, ALICE, true, 0))).toBe(500);
    block();
    expect(run((ctx, k) => k.feeTiers.feePpm(ctx, ALICE, true, 0))).toBe(450);
    expect(run((ctx, k) => k.feeTiers.userTier(ctx, accAddressBytes(ALICE)).tier.name)).toBe("2");
    app.control.advanceTime(31 * 86_400_000);
    block();
    expect(run((ctx, k) => k.feeTiers.feePpm(ctx, ALICE, true, 0))).toBe(500);
  });
});
