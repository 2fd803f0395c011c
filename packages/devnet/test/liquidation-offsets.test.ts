/**
 * Which subaccount, which position and which offsetting account the liquidation pass takes first,
 * as the reference chain (orders signed with cosmjs and broadcast over RPC; blocks and their
 * proposed operations read back over RPC, subaccounts over ABCI). The chain draws each offset as
 * the first `Intn(n)` of Go's `math/rand` seeded with the committed block's Unix time in seconds;
 * the tests produce that block in a chosen second (one where the draw differs from a rule that
 * turns with the height) and compute the expected subaccounts from it:
 *
 * - of 52 liquidatable subaccounts (in the daemon's order, the chain's subaccount key), 50 get a
 *   liquidation order: those from the offset on;
 * - a subaccount liquidatable in two markets has the position at the offset liquidated first;
 * - a deleveraging takes the offsetting accounts the daemon saw on the other side from the offset
 *   on;
 * - two liquidation orders alike in price distance and notional go by their order hash (SHA-256 of
 *   the `PerpetualLiquidationInfo` bytes): only the first finds the one slice a bid offers.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { sha256 } from "@noble/hashes/sha2.js";
import { clob, subaccounts } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { GoRand } from "../src/app/modules/clob/pseudo-rand.js";
import {
  chainOrder,
  type LiquidationNet,
  matchesAt,
  mineInSecond,
  quantums,
  type Ref,
  refText,
  riskOf,
  secondWhere,
  startLiquidationNet,
  subaccountOf,
  subticks,
} from "./support/liquidation-wire.js";

const IOC = clob.Order_TimeInForce.IOC;
const BTC = { clobPairId: 0 };
const ETH = { clobPairId: 1 };

/** Runs `fn` on a fresh devnet and stops it. */
async function withNet(fn: (net: LiquidationNet) => Promise<void>): Promise<void> {
  const net = await startLiquidationNet();
  try {
    await fn(net);
  } finally {
    await net.devnet.stop();
  }
}

/** The chain's first draw after a block of that second: `rand.New(rand.NewSource(s)).Intn(n)`. */
const draw = (seconds: bigint, n: number) => new GoRand(seconds).intn(n);

/** Each victim buys `size` BTC at $50,000 from the liquidity provider's one sell; then a block. */
async function openBtcLongs(net: LiquidationNet, victims: readonly Ref[], size: number): Promise<void> {
  const [lp] = net.signers;
  const all = quantums.btc(size) * BigInt(victims.length);
  expect(
    await net.place(lp, 0, { ...BTC, side: "sell", quantums: all, subticks: subticks.btc(50_000) }),
  ).toBe(0);
  for (const v of victims) {
    const signer = net.signers.find((s) => s.address === v.owner);
    if (signer === undefined) throw new Error("no signer");
    const code = await net.place(signer, v.number, {
      ...BTC,
      quantums: quantums.btc(size),
      subticks: subticks.btc(50_000),
      timeInForce: IOC,
    });
    expect(code).toBe(0);
  }
  net.devnet.mine(1);
}

describe("pseudo-random offsets of the liquidation pass", () => {
  it("gives liquidation orders to the 50 candidates from the offset on", async () => {
    await withNet(async (net) => {
      const { devnet } = net;
      const [lp, ...owners] = net.signers;
      devnet.app.control.fundSubaccount(lp.address, 0, 1_000_000_000_000n);
      // 52 subaccounts: numbers 1..18 of the three owners, the first 52 of them.
      const victims = owners
        .flatMap((o) => Array.from({ length: 18 }, (_, i) => ({ owner: o.address, number: i + 1 })))
        .slice(0, 52);
      expect(victims).toHaveLength(52);
      for (const v of victims) devnet.app.control.fundSubaccount(v.owner, v.number, 400_000_000n); // $400
      await openBtcLongs(net, victims, 0.1);
      // BTC to $46,500: each is liquidatable at positive equity; a bid takes every first slice.
      devnet.app.control.setOraclePrice("BTC-USD", "46500");
      expect(
        await net.place(lp, 0, {
          ...BTC,
          side: "buy",
          quantums: quantums.btc(2),
          subticks: subticks.btc(46_450),
        }),
      ).toBe(0);
      // (all 52 alike: the first and the last stand for them)
      for (const v of [victims[0], victims[51]] as Ref[]) {
        const risk = await riskOf(devnet, v, { 0: 46_500 });
        expect(risk.netCollateral > 0n && risk.netCollateral < risk.maintenance).toBe(true);
      }
      const list = chainOrder(victims);
      const next = net.height() + 1;
      const second = secondWhere(devnet, (s) => draw(s, list.length) !== next % list.length);
      mineInSecond(devnet, second); // the daemon read the new price before it; the pass runs after it
      const start = draw(second, list.length);
      const expected = Array.from({ length: 50 }, (_, i) => refText(list[(start + i) % list.length]));
      devnet.mine(1);
      const { liquidations } = await matchesAt(devnet, net.height());
      expect(liquidations.map((m) => refText(m.liquidated)).sort()).toEqual([...expected].sort());
    });
  });

  it("liquidates first the position at the offset into the subaccount's positions", async () => {
    await withNet(async (net) => {
      const { devnet } = net;
      const [lp, owner] = net.signers;
      devnet.app.control.fundSubaccount(lp.address, 0, 1_000_000_000_000n);
      const victim: Ref = { owner: owner.address, number: 1 };
      devnet.app.control.fundSubaccount(victim.owner, victim.number, 300_000_000n); // $300
      // 0.1 BTC at $50,000 and 1 ETH at $3,000.
      expect(
        await net.place(lp, 0, {
          ...BTC,
          side: "sell",
          quantums: quantums.btc(0.1),
          subticks: subticks.btc(50_000),
        }),
      ).toBe(0);
      expect(
        await net.place(lp, 0, {
          ...ETH,
          side: "sell",
          quantums: quantums.eth(1),
          subticks: subticks.eth(3000),
        }),
      ).toBe(0);
      expect(
        await net.place(owner, 1, {
          ...BTC,
          quantums: quantums.btc(0.1),
          subticks: subticks.btc(50_000),
          timeInForce: IOC,
        }),
      ).toBe(0);
      expect(
        await net.place(owner, 1, {
          ...ETH,
          quantums: quantums.eth(1),
          subticks: subticks.eth(3000),
          timeInForce: IOC,
        }),
      ).toBe(0);
      devnet.mine(1);
      const held = (await subaccountOf(devnet, victim)).positions;
      expect([...held.keys()]).toEqual([0, 1]);
      // Both 3% down: liquidatable at positive equity; bids in both markets take a slice.
      devnet.app.control.setOraclePrice("BTC-USD", "48500");
      devnet.app.control.setOraclePrice("ETH-USD", "2910");
      const risk = await riskOf(devnet, victim, { 0: 48_500, 1: 2910 });
      expect(risk.netCollateral > 0n && risk.netCollateral < risk.maintenance).toBe(true);
      expect(
        await net.place(lp, 0, {
          ...BTC,
          side: "buy",
          quantums: quantums.btc(0.1),
          subticks: subticks.btc(48_400),
        }),
      ).toBe(0);
      expect(
        await net.place(lp, 0, {
          ...ETH,
          side: "buy",
          quantums: quantums.eth(1),
          subticks: subticks.eth(2903),
        }),
      ).toBe(0);
      // The positions by perpetual id; one liquidation per subaccount per block, from the offset.
      const positions = [...held.keys()];
      const next = net.height() + 1;
      const second = secondWhere(devnet, (s) => draw(s, positions.length) !== next % positions.length);
      mineInSecond(devnet, second);
      devnet.mine(1);
      const { liquidations } = await matchesAt(devnet, net.height());
      expect(liquidations.map((m) => [refText(m.liquidated), m.perpetualId])).toEqual([
        [refText(victim), positions[draw(second, positions.length)]],
      ]);
    });
  });

  it("deleverages against the offsetting accounts from the offset into the daemon's list", async () => {
    await withNet(async (net) => {
      const { devnet } = net;
      const [lp, owner] = net.signers;
      // Four shorts of 0.1 BTC (the provider's subaccounts 1..4) against one 0.4 BTC long.
      const shorts: Ref[] = [1, 2, 3, 4].map((number) => ({ owner: lp.address, number }));
      for (const s of shorts) {
        devnet.app.control.fundSubaccount(s.owner, s.number, 10_000_000_000n);
        const code = await net.place(lp, s.number, {
          ...BTC,
          side: "sell",
          quantums: quantums.btc(0.1),
          subticks: subticks.btc(50_000),
        });
        expect(code).toBe(0);
      }
      const victim: Ref = { owner: owner.address, number: 1 };
      devnet.app.control.fundSubaccount(victim.owner, victim.number, 500_000_000n); // $500
      expect(
        await net.place(owner, 1, {
          ...BTC,
          quantums: quantums.btc(0.4),
          subticks: subticks.btc(50_000),
          timeInForce: IOC,
        }),
      ).toBe(0);
      devnet.mine(1);
      for (const s of shorts)
        expect((await subaccountOf(devnet, s)).positions.get(0)).toBe(-quantums.btc(0.1));
      // BTC to $47,500: the long is at negative equity and no bid rests, so it is deleveraged.
      devnet.app.control.setOraclePrice("BTC-USD", "47500");
      expect((await riskOf(devnet, victim, { 0: 47_500 })).netCollateral < 0n).toBe(true);
      const list = chainOrder(shorts);
      const next = net.height() + 1;
      const second = secondWhere(devnet, (s) => draw(s, list.length) !== next % list.length);
      mineInSecond(devnet, second);
      const start = draw(second, list.length);
      devnet.mine(1);
      const { deleveragings } = await matchesAt(devnet, net.height());
      const filled = deleveragings.filter((m) => m.fills.length > 0);
      expect(filled.map((m) => refText(m.liquidated))).toEqual([refText(victim)]);
      expect(filled[0]?.fills.map((f) => [refText(f.offsettingSubaccountId), f.fillAmount])).toEqual(
        list.map((_, i) => [refText(list[(start + i) % list.length]), quantums.btc(0.1)]),
      );
    });
  });

  it("orders liquidations alike in distance and notional by their order hash", async () => {
    await withNet(async (net) => {
      const { devnet } = net;
      const [lp, owner] = net.signers;
      devnet.app.control.fundSubaccount(lp.address, 0, 1_000_000_000_000n);
      /** SHA-256 of `PerpetualLiquidationInfo{subaccount_id, perpetual_id: 0}` (0 leaves field 2 out). */
      const hashOf = (ref: Ref) => {
        const id = toBinary(subaccounts.SubaccountIdSchema, create(subaccounts.SubaccountIdSchema, ref));
        return Buffer.from(sha256(Uint8Array.from([0x0a, id.length, ...id]))).toString("hex");
      };
      // Two of the owner's subaccounts whose hash order differs from their `owner/number` text's.
      const refs: Ref[] = Array.from({ length: 20 }, (_, i) => ({ owner: owner.address, number: i + 1 }));
      const pair = refs
        .flatMap((a) => refs.map((b) => [a, b] as const))
        .find(([a, b]) => refText(a) < refText(b) && hashOf(a) > hashOf(b));
      if (pair === undefined) throw new Error("no such pair");
      const victims = [...pair];
      for (const v of victims) devnet.app.control.fundSubaccount(v.owner, v.number, 400_000_000n); // $400
      await openBtcLongs(net, victims, 0.1);
      // BTC to $46,500; a bid for one slice only: $1,000 of BTC (the $1,000 minimum is above 10%
      // of $4,650), down to the 0.0001 BTC step.
      devnet.app.control.setOraclePrice("BTC-USD", "46500");
      const step = quantums.btc(0.0001);
      const slice = ((1_000n * 10_000_000_000n) / 46_500n / step) * step;
      expect(
        await net.place(lp, 0, { ...BTC, side: "buy", quantums: slice, subticks: subticks.btc(46_450) }),
      ).toBe(0);
      const [a, b] = victims.map((v) => riskOf(devnet, v, { 0: 46_500 }));
      expect(await a).toEqual(await b); // alike: same distance from the oracle, same notional
      const first = [...victims].sort((x, y) => (hashOf(x) < hashOf(y) ? -1 : 1))[0];
      devnet.mine(2);
      const { liquidations } = await matchesAt(devnet, net.height());
      expect(liquidations.map((m) => [refText(m.liquidated), m.totalSize])).toEqual([
        [refText(first), slice],
      ]);
    });
  });
});
