/**
 * Final settlement, in process: a market whose clob pair is in FINAL_SETTLEMENT has its positions
 * closed against offsetting ones at the oracle price, in a `MatchPerpetualDeleveraging` with
 * `is_final_settlement` of the next block (the devnet has no governance message that moves a pair
 * to final settlement yet, so the probe writes the status).
 */
import { create, fromBinary } from "@bufbuild/protobuf";
import { clob, cosmosTx } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { CLOB, getPair, setPair } from "../src/app/modules/clob/state.js";
import { GENESIS_ACCOUNTS } from "../src/index.js";
import { probedChain } from "./support/probe-chain.js";

const [alice, bob] = GENESIS_ACCOUNTS.map((a) => ({ owner: a.address, number: 0 }));
const BTC = 10_000_000_000n;

describe("final settlement", () => {
  it("closes a market's positions against each other at the oracle price", () => {
    const chain = probedChain();
    const { app } = chain;
    const mine = () => app.produceBlock(new Date(app.latestBlock().time.getTime() + 1_000));
    app.control.setOracleWalk(false);
    app.control.setOraclePrice("BTC-USD", "50000");
    const a = alice as { owner: string; number: number };
    const b = bob as { owner: string; number: number };
    chain.run((ctx, keepers) => {
      keepers.subaccounts.mintInto(ctx, a, 10_000_000_000n);
      keepers.subaccounts.mintInto(ctx, b, 10_000_000_000n);
      keepers.subaccounts.applyUpdates(ctx, [
        { id: a, usdcDelta: -50_000_000_000n, perpetualDeltas: [{ perpetualId: 0, quantumsDelta: BTC }] },
        { id: b, usdcDelta: 50_000_000_000n, perpetualDeltas: [{ perpetualId: 0, quantumsDelta: -BTC }] },
      ]);
      const pair = getPair(ctx.store(CLOB), 0) as clob.ClobPair;
      setPair(
        ctx.store(CLOB),
        create(clob.ClobPairSchema, { ...pair, status: clob.ClobPair_Status.FINAL_SETTLEMENT }),
      );
    });
    app.control.setOraclePrice("BTC-USD", "52000");
    mine(); // commits; the memclob settles after it
    const block = mine();
    const body = fromBinary(
      cosmosTx.TxBodySchema,
      fromBinary(cosmosTx.TxRawSchema, block.txs[0] as Uint8Array).bodyBytes,
    );
    const ops = fromBinary(
      clob.MsgProposedOperationsSchema,
      (body.messages[0] as { value: Uint8Array }).value,
    );
    const settled = ops.operationsQueue
      .map((o) => (o.operation.case === "match" ? o.operation.value.match : undefined))
      .filter((m) => m?.case === "matchPerpetualDeleveraging")
      .map((m) => m?.value as clob.MatchPerpetualDeleveraging);
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ perpetualId: 0, isFinalSettlement: true });
    expect(settled[0]?.fills.map((f) => f.fillAmount)).toEqual([BTC]);
    const views = chain.run((ctx, keepers) => [a, b].map((id) => keepers.subaccounts.get(ctx, id)));
    // At $52,000: the long receives $52,000 for its BTC, the short pays it.
    expect(views.map((v) => [v.usdc, v.perpetualPositions.length])).toEqual([
      [12_000_000_000n, 0],
      [8_000_000_000n, 0],
    ]);
    const event = block.txResults[0]?.events.find((e) => e.type === "perpx.clob.deleveraging");
    expect(event?.attributes.find((x) => x.key === "is_final_settlement")?.value).toBe("true");
  });
});
