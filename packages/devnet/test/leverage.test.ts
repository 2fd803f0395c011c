/**
 * Leverage over the wire (txs signed with cosmjs, broadcast with RPC `broadcast_tx_sync`): an
 * out-of-range `MsgUpdateLeverage` is clob 11002, more leverage than the tier allows subaccounts
 * 701, and a chosen leverage raises the initial margin a stateful order must meet (clob 3007), as
 * the real chain's `max(tier IMF, custom IMF)` has it.
 */
import { create } from "@bufbuild/protobuf";
import { clob, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpetualsGenesis } from "../src/app/genesis/genesis-exchange.js";
import { DEFAULT_MARKETS } from "../src/app/genesis/genesis-markets.js";
import { type Devnet, startDevnet } from "../src/index.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, signWire } from "./support/wire.js";

let devnet: Devnet;
let clientId = 1;
/** BTC-USD's initial margin fraction in the genesis (its liquidity tier's). */
const TIER_IMF_PPM =
  perpetualsGenesis(DEFAULT_MARKETS).liquidityTiers[DEFAULT_MARKETS[0]?.liquidityTier ?? -1]
    ?.initialMarginPpm ?? 0;
const who = () => devnet.accounts[2] as { address: string; mnemonic: string };

/** Broadcasts, mines a block, and answers CheckTx's refusal or the delivery result. */
async function deliver(msgs: TestMsg[], feeUusdc = 0n) {
  const account = await accountOf(devnet.endpoints.nodeRest, who().address);
  const tx = await signWire(who().mnemonic, msgs, { chainId: devnet.chainId, ...account, feeUusdc });
  const answer = await broadcastSync(devnet.endpoints.nodeRpc, tx);
  if (answer.code !== 0) return answer;
  const [block] = devnet.mine(1);
  const result = block!.txResults.at(-1)!;
  return { code: result.code, codespace: result.codespace, log: result.log };
}

function leverage(customImfPpm: number): TestMsg {
  return msg(
    clob.MsgUpdateLeverageSchema,
    create(clob.MsgUpdateLeverageSchema, {
      subaccountId: { owner: who().address, number: 0 },
      clobPairLeverage: [{ clobPairId: 0, customImfPpm }],
    }),
  );
}

/** A long-term buy of 0.1 BTC at $65,000 ($6,500 notional). */
function longTermBuy(): TestMsg {
  return msg(
    clob.MsgPlaceOrderSchema,
    create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: {
          subaccountId: { owner: who().address, number: 0 },
          clientId: clientId++,
          orderFlags: 64,
          clobPairId: 0,
        },
        side: clob.Order_Side.BUY,
        quantums: 1_000_000_000n,
        subticks: 6_500_000_000n,
        goodTilOneof: {
          case: "goodTilBlockTime",
          value: Math.floor(devnet.app.latestBlock().time.getTime() / 1000) + 600,
        },
      },
    }),
  );
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  devnet.mine(1);
  // $1,000 of collateral: enough for $6,500 at the tier's fraction, not at 50% (2x).
  const funded = await deliver(
    [
      msg(
        sending.MsgDepositToSubaccountSchema,
        create(sending.MsgDepositToSubaccountSchema, {
          sender: who().address,
          recipient: { owner: who().address, number: 0 },
          assetId: 0,
          quantums: 1_000_000_000n,
        }),
      ),
    ],
    25_000n,
  );
  expect(funded.code, funded.log).toBe(0);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("leverage", () => {
  it("refuses an out-of-range fraction with clob 11002 and too much leverage with subaccounts 701", async () => {
    const zero = await deliver([leverage(0)]);
    expect([zero.codespace, zero.code]).toEqual(["clob", 11002]);
    expect(zero.log).toContain(
      "imf ppm for clob pair 0 must be between (0, 1,000,000]: Invalid update leverage",
    );
    const tooHigh = await deliver([leverage(TIER_IMF_PPM / 2)]);
    expect([tooHigh.codespace, tooHigh.code]).toEqual(["subaccounts", 701]);
    expect(tooHigh.log).toContain(
      `${TIER_IMF_PPM / 2} is less than minimum allowed imf (${TIER_IMF_PPM}) for perpetual 0 resulting in higher than allowed leverage: leverage exceeds maximum allowed`,
    );
  });

  it("raises the initial margin of an order to the chosen fraction", async () => {
    const chosen = await deliver([leverage(500_000)]);
    expect(chosen.code, chosen.log).toBe(0);
    const refused = await deliver([longTermBuy()]);
    expect([refused.codespace, refused.code]).toEqual(["clob", 3007]);
    // Back to the tier's fraction: the same order fits.
    expect((await deliver([leverage(TIER_IMF_PPM)])).code).toBe(0);
    const placed = await deliver([longTermBuy()]);
    expect(placed.code, placed.log).toBe(0);
  });
});
