/**
 * When the liquidation pass acts, and how many deleveragings it tries, as the reference chain
 * (orders signed with cosmjs and broadcast over RPC; blocks and their proposed operations read back
 * over RPC, subaccounts, perpetuals and tiers over ABCI):
 *
 * - candidates come from the liquidation daemon, which reads the last committed block: a subaccount
 *   made liquidatable inside block N (here by a governance proposal moving its market to a tier
 *   with a higher margin) is liquidated by the pass after block N + 1, so its fill is in block
 *   N + 2, not N + 1;
 * - the pass attempts the first 10 deleveraging entries (the liquidation orders that filled
 *   nothing, in the order they were placed), whether or not an entry can be deleveraged: ten
 *   positive-equity subaccounts whose orders sort first use up the turns, and a subaccount at
 *   negative equity behind them waits until they leave the list.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { clob, perpetuals } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { GOV_AUTHORITY } from "../src/app/kernel/governance.js";
import {
  type LiquidationNet,
  matchesAt,
  perpetualOf,
  quantums,
  type Ref,
  refText,
  riskOf,
  startLiquidationNet,
  subaccountOf,
  subticks,
} from "./support/liquidation-wire.js";

const IOC = clob.Order_TimeInForce.IOC;

/** Runs `fn` on a fresh devnet and stops it. */
async function withNet(fn: (net: LiquidationNet) => Promise<void>): Promise<void> {
  const net = await startLiquidationNet();
  try {
    await fn(net);
  } finally {
    await net.devnet.stop();
  }
}

describe("liquidation timing", () => {
  it("liquidates a subaccount that became liquidatable in block N with the pass after N + 1 (fills in N + 2)", async () => {
    await withNet(async (net) => {
      const { devnet } = net;
      const [lp, owner] = net.signers;
      const victim: Ref = { owner: owner.address, number: 1 };
      devnet.app.control.fundSubaccount(lp.address, 0, 1_000_000_000_000n);
      devnet.app.control.fundSubaccount(victim.owner, victim.number, 200_000_000n); // $200
      // A 1 ETH long at $3,000 (Large-Cap: $60 initial margin), and a bid that can take it.
      const eth = { clobPairId: 1, quantums: quantums.eth(1) };
      expect(await net.place(lp, 0, { ...eth, side: "sell", subticks: subticks.eth(3000) })).toBe(0);
      expect(
        await net.place(owner, 1, { ...eth, side: "buy", subticks: subticks.eth(3000), timeInForce: IOC }),
      ).toBe(0);
      devnet.mine(1);
      expect((await subaccountOf(devnet, victim)).positions.get(1)).toBe(eth.quantums);
      expect(await net.place(lp, 0, { ...eth, side: "buy", subticks: subticks.eth(2990) })).toBe(0);
      devnet.mine(1);
      const liquidatable = async () => {
        const risk = await riskOf(devnet, victim, { 1: 3000 });
        return risk.maintenance > 0n && risk.netCollateral < risk.maintenance;
      };
      expect(await liquidatable()).toBe(false);
      // Governance moves ETH-USD to Long-Tail (20% initial margin, half of it maintenance): the
      // proposal runs inside the next block, N.
      const { params } = await perpetualOf(devnet, 1);
      const longTail = 2;
      const proposal = devnet.app.control.submitProposal([
        {
          typeUrl: `/${perpetuals.MsgUpdatePerpetualParamsSchema.typeName}`,
          value: toBinary(
            perpetuals.MsgUpdatePerpetualParamsSchema,
            create(perpetuals.MsgUpdatePerpetualParamsSchema, {
              authority: GOV_AUTHORITY,
              perpetualParams: { ...params, liquidityTier: longTail },
            }),
          ),
        },
      ]);
      const [blockN] = devnet.mine(1);
      expect(devnet.app.control.proposal(proposal)?.status).toBe("passed");
      expect((await perpetualOf(devnet, 1)).tier.id).toBe(longTail);
      expect(await liquidatable()).toBe(true);
      // The daemon reads block N after it commits; the pass after N + 1 uses that reading.
      const expected = Number(blockN?.height) + 2;
      let liquidatedAt: number | undefined;
      for (let blocks = 0; liquidatedAt === undefined; blocks++) {
        expect(blocks).toBeLessThan(6); // a hang guard
        devnet.mine(1);
        const { liquidations } = await matchesAt(devnet, net.height());
        if (liquidations.some((m) => refText(m.liquidated) === refText(victim))) liquidatedAt = net.height();
      }
      expect(liquidatedAt).toBe(expected);
    });
  });
});

describe("deleveraging attempts per block", () => {
  it("counts every unfilled liquidation against the 10 attempts, deleveragable or not", async () => {
    await withNet(async (net) => {
      const { devnet } = net;
      const [lp, solOwner, btcOwner] = net.signers;
      devnet.app.control.fundSubaccount(lp.address, 0, 1_000_000_000_000n);
      // Ten 10 SOL longs at $150 (Small-Cap: 10% initial margin, 5% maintenance) with $184 each,
      // and a 0.1 BTC long at $50,000 with $200; the makers' sells are used up, so no bid rests.
      const solVictims: Ref[] = Array.from({ length: 10 }, (_, i) => ({
        owner: solOwner.address,
        number: i + 1,
      }));
      const btcVictim: Ref = { owner: btcOwner.address, number: 1 };
      for (const v of solVictims) devnet.app.control.fundSubaccount(v.owner, v.number, 184_000_000n);
      devnet.app.control.fundSubaccount(btcVictim.owner, btcVictim.number, 200_000_000n);
      const sol = { clobPairId: 2, subticks: subticks.sol(150) };
      expect(await net.place(lp, 0, { ...sol, side: "sell", quantums: quantums.sol(100) })).toBe(0);
      for (const v of solVictims) {
        expect(
          await net.place(solOwner, v.number, { ...sol, quantums: quantums.sol(10), timeInForce: IOC }),
        ).toBe(0);
      }
      const btc = { clobPairId: 0, subticks: subticks.btc(50_000), quantums: quantums.btc(0.1) };
      expect(await net.place(lp, 0, { ...btc, side: "sell" })).toBe(0);
      expect(await net.place(btcOwner, 1, { ...btc, timeInForce: IOC })).toBe(0);
      devnet.mine(1);
      expect((await subaccountOf(devnet, btcVictim)).positions.get(0)).toBe(btc.quantums);
      // SOL to $135 (the longs keep positive equity) and BTC to $47,500 (negative equity).
      let usd: Record<number, number> = { 0: 47_500, 2: 135 };
      devnet.app.control.setOraclePrice("SOL-USD", "135");
      devnet.app.control.setOraclePrice("BTC-USD", "47500");
      /**
       * The chain's deleveraging entries of a pass in which no liquidation fills: the liquidatable
       * subaccounts' orders, sorted by the distance of the fillable price from the oracle, which
       * is (1 − TNC/TMMR, within [0, 1]) × maintenance fraction × 1.5 of the oracle (bankruptcy
       * adjustment 1, spread-to-maintenance ratio 1.5); the first 10 are attempted, and those at
       * negative equity are deleveraged.
       */
      const expectedDeleveraged = async (): Promise<string[]> => {
        const entries: { ref: Ref; distance: number; negative: boolean }[] = [];
        for (const ref of [...solVictims, btcVictim]) {
          const risk = await riskOf(devnet, ref, usd);
          if (risk.maintenance === 0n || risk.netCollateral >= risk.maintenance) continue;
          const adjust = Math.min(1, Math.max(0, 1 - Number(risk.netCollateral) / Number(risk.maintenance)));
          const mmf = [...risk.mmfPpm.values()][0] as number;
          entries.push({
            ref,
            distance: (adjust * mmf * 1.5) / 1_000_000,
            negative: risk.netCollateral < 0n,
          });
        }
        entries.sort((a, b) => b.distance - a.distance);
        return entries
          .slice(0, 10)
          .filter((e) => e.negative)
          .map((e) => refText(e.ref));
      };
      const first = await expectedDeleveraged();
      expect(first).toEqual([]); // the ten SOL orders sort first and use the ten turns
      devnet.mine(1); // the daemon saw the new prices before it; the pass after it places the orders
      devnet.mine(1);
      const atFirst = await matchesAt(devnet, net.height());
      expect(atFirst.liquidations).toEqual([]); // nothing rests to fill them
      const filled = (m: clob.MatchPerpetualDeleveraging) => m.fills.length > 0;
      expect(atFirst.deleveragings.filter(filled).map((m) => refText(m.liquidated))).toEqual(first);
      // The BTC subaccount is still at negative equity: the pass gates withdrawals for it.
      expect(atFirst.deleveragings.filter((m) => !filled(m)).map((m) => refText(m.liquidated))).toEqual([
        refText(btcVictim),
      ]);
      // SOL back at $150: the SOL subaccounts leave the daemon's list, and the BTC one's entry
      // comes within the first 10 (the pass after the next block, so its match two blocks on).
      usd = { 0: 47_500, 2: 150 };
      devnet.app.control.setOraclePrice("SOL-USD", "150");
      const second = await expectedDeleveraged();
      expect(second).toEqual([refText(btcVictim)]);
      devnet.mine(1);
      expect((await matchesAt(devnet, net.height())).deleveragings.filter(filled)).toEqual([]);
      devnet.mine(1);
      const atSecond = await matchesAt(devnet, net.height());
      expect(atSecond.deleveragings.filter(filled).map((m) => refText(m.liquidated))).toEqual(second);
      expect((await subaccountOf(devnet, btcVictim)).positions.size).toBe(0);
    });
  });
});
