/**
 * Revenue shares of fills against a running devnet, each expected amount computed from the state
 * by the real chain's formulas (`GetAllRevShares`, `DistributeFees`, x/stats): a referee's taker
 * fee pays its affiliate the tier's share, capped by the program's 30-day revenue per referred
 * user; the order router earns only on a fill without an affiliate share; unconditional
 * recipients and the market mapper take their shares of the net fee less the affiliate's; the fee
 * collector gets exactly the rest; referred and attributed volumes count from the next block; and
 * the indexer's fills and affiliate snapshot carry the shares.
 */
import { create, type DescMessage, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { addressBytesToBech32 } from "@perpx/address";
import { affiliates, clob, decodeSerializableInt, feetiers, perpetuals, revshare } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOV_AUTHORITY } from "../src/app/kernel/governance.js";
import { FEE_COLLECTOR } from "./support/app-harness.js";
import { bankBalance, queryApp } from "./support/app-query.js";
import { placeMsg, signMsgs, type TestSigner } from "./support/clob-tx.js";
import {
  BTC_PRICE_SUBTICKS,
  deliver,
  getIndexer,
  type IndexedChain,
  registerAffiliateMsg,
  signerAddresses,
  startFundedChain,
} from "./support/indexer-chain.js";
import { RecordingClient } from "./support/indexer-ws.js";

let chain: IndexedChain;
let alice: string; // the affiliate
let bob: string; // referred by Alice: the taker
let carol: string; // the maker
let clientId = 1;
// Addresses with no other business on the chain.
const ROUTER = addressBytesToBech32(new Uint8Array(20).fill(21));
const TREASURY = addressBytesToBech32(new Uint8Array(20).fill(22));
const MAPPER = addressBytesToBech32(new Uint8Array(20).fill(23));
const QUANTUMS = 100_000_000n; // 0.01 BTC at $65,000: 650,000,000 quote quantums

const ceilDiv = (a: bigint, b: bigint) => (a >= 0n ? (a + b - 1n) / b : a / b);
const floorPpm = (value: bigint, ppm: number | bigint) => (value * BigInt(ppm)) / 1_000_000n;

function query<Req extends DescMessage, Res extends DescMessage>(
  path: string,
  request: Req,
  init: MessageInitShape<Req>,
  response: Res,
) {
  return queryApp(chain.devnet.app, path, request, init, response);
}

const feeParams = () =>
  query(
    "/perpx.feetiers.v1.Query/PerpetualFeeParams",
    feetiers.QueryPerpetualFeeParamsRequestSchema,
    {},
    feetiers.QueryPerpetualFeeParamsResponseSchema,
  ).params as feetiers.PerpetualFeeParams;

/** A user's fee ppm as the chain picks its tier (the affiliates' referee floor included). */
function feePpm(user: string, taker: boolean): number {
  const { tier } = query(
    "/perpx.feetiers.v1.Query/UserFeeTier",
    feetiers.QueryUserFeeTierRequestSchema,
    { user },
    feetiers.QueryUserFeeTierResponseSchema,
  );
  return taker ? (tier?.takerFeePpm ?? 0) : (tier?.makerFeePpm ?? 0);
}

function affiliateInfo(address: string) {
  const info = query(
    "/perpx.affiliates.v1.Query/AffiliateInfo",
    affiliates.AffiliateInfoRequestSchema,
    { address },
    affiliates.AffiliateInfoResponseSchema,
  );
  return {
    referred: decodeSerializableInt(info.referredVolume30dRolling),
    attributed: decodeSerializableInt(info.attributedVolume30dRolling),
  };
}

const affiliateParameters = () =>
  query(
    "/perpx.affiliates.v1.Query/AffiliateParameters",
    affiliates.AffiliateParametersRequestSchema,
    {},
    affiliates.AffiliateParametersResponseSchema,
  ).parameters as affiliates.AffiliateParameters;

/** The affiliate's share (ppm) by the tiers and its 30-day referred volume, as `GetTierForAffiliate`. */
function affiliateSharePpm(affiliate: string): number {
  const tiers =
    query(
      "/perpx.affiliates.v1.Query/AllAffiliateTiers",
      affiliates.AllAffiliateTiersRequestSchema,
      {},
      affiliates.AllAffiliateTiersResponseSchema,
    ).tiers?.tiers ?? [];
  const volume = affiliateInfo(affiliate).referred;
  let share = tiers[0]?.takerFeeSharePpm ?? 0;
  for (const tier of tiers) {
    if (volume < tier.reqReferredVolumeQuoteQuantums) break;
    share = tier.takerFeeSharePpm;
  }
  return share;
}

/** Passes a governance proposal of `messages` (typed) in the next block. */
function govern(messages: { schema: DescMessage; value: object }[]): void {
  const id = chain.devnet.app.control.submitProposal(
    messages.map((m) => ({
      typeUrl: `/${m.schema.typeName}`,
      value: toBinary(m.schema, create(m.schema, { authority: GOV_AUTHORITY, ...m.value } as never)),
    })),
  );
  chain.devnet.mine(1);
  expect(chain.devnet.app.control.proposal(id)).toMatchObject({ status: "passed" });
}

/** A short-term order of signer `i` at $65,000 checked into the memclob (routed by `router`). */
async function place(i: number, side: "buy" | "sell", router = ""): Promise<void> {
  const signer = chain.signers[i] as TestSigner;
  const message = placeMsg({
    owner: signer.address,
    clientId: clientId++,
    side,
    quantums: QUANTUMS,
    subticks: BTC_PRICE_SUBTICKS,
    goodTilBlock: Number(chain.devnet.app.latestBlock().height) + 10,
  });
  (message.value as clob.MsgPlaceOrder).order = {
    ...((message.value as clob.MsgPlaceOrder).order as clob.Order),
    orderRouterAddress: router,
  };
  const result = chain.devnet.app.checkTx(await signMsgs(signer, chain.devnet.chainId, 0n, [message], 0n));
  expect(result.code, result.log).toBe(0);
}

/** Carol rests a sell, Bob takes it (routed by `router`); the fill's block; balances around it. */
async function fill(router = "") {
  const watched = [alice, ROUTER, TREASURY, MAPPER, FEE_COLLECTOR];
  await place(2, "sell");
  await place(1, "buy", router);
  const before = watched.map((a) => bankBalance(chain.devnet.app, a));
  const [block] = chain.devnet.mine(1);
  const event = block?.txResults[0]?.events.find((e) => e.type === "perpx.clob.order_fill");
  expect(event).toBeDefined();
  const attrs = Object.fromEntries((event?.attributes ?? []).map((a) => [a.key, a.value]));
  const delta = Object.fromEntries(
    watched.map((a, i) => [a, bankBalance(chain.devnet.app, a) - (before[i] as bigint)]),
  );
  return { attrs, delta };
}

beforeAll(async () => {
  chain = await startFundedChain([undefined, 100_000_000_000n, 100_000_000_000n]);
  [alice, bob, carol] = signerAddresses(chain);
  await deliver(chain, 1, [registerAffiliateMsg(bob, alice)]);
});

afterAll(async () => {
  await chain?.devnet.stop();
});

/** The fees of one of our fills by the tiers: Bob takes, Carol makes. */
function fees() {
  const pair = query(
    "/perpx.clob.v1.Query/ClobPair",
    clob.QueryGetClobPairRequestSchema,
    { id: 0 },
    clob.QueryClobPairResponseSchema,
  ).clobPair;
  const exponent = pair?.quantumConversionExponent ?? 0;
  const product = QUANTUMS * BTC_PRICE_SUBTICKS;
  const quote = exponent >= 0 ? product * 10n ** BigInt(exponent) : product / 10n ** BigInt(-exponent);
  return {
    quote,
    taker: ceilDiv(quote * BigInt(feePpm(bob, true)), 1_000_000n),
    maker: ceilDiv(quote * BigInt(feePpm(carol, false)), 1_000_000n),
  };
}

describe("revenue shares", () => {
  const paid: bigint[] = [];

  it("pays a referee's affiliate its tier's share of the taker fee; the fee collector gets the rest", async () => {
    expect(feeParams().tiers.length).toBeGreaterThan(2);
    const expected = fees();
    const share = floorPpm(expected.taker, affiliateSharePpm(alice));
    expect(share).toBeGreaterThan(0n);
    const { attrs, delta } = await fill();
    expect(attrs).toMatchObject({
      quote_quantums: expected.quote.toString(),
      taker_fee: expected.taker.toString(),
      maker_fee: expected.maker.toString(),
    });
    expect(delta[alice]).toBe(share);
    // No unconditional recipient, and the market mapper's share expired at genesis (the reference's).
    expect([delta[TREASURY], delta[MAPPER]]).toEqual([0n, 0n]);
    expect(delta[FEE_COLLECTOR]).toBe(expected.taker + expected.maker - share);
    paid.push(share);
  });

  it("counts the referred and attributed volume from the block's end", () => {
    const { quote } = fees();
    expect(affiliateInfo(alice).referred).toBe(quote);
    expect(affiliateInfo(bob).attributed).toBe(quote);
    expect(affiliateInfo(carol)).toEqual({ referred: 0n, attributed: 0n });
  });

  it("caps the share at the 30-day revenue per referred user; a router earns only without it", async () => {
    const earned = paid.reduce((a, b) => a + b, 0n);
    const cap = earned + 1_000n;
    govern([
      {
        schema: affiliates.MsgUpdateAffiliateParametersSchema,
        value: {
          affiliateParameters: {
            ...affiliateParameters(),
            maximum30dAffiliateRevenuePerReferredUserQuoteQuantums: cap,
          },
        },
      },
      {
        schema: revshare.MsgSetOrderRouterRevShareSchema,
        value: { orderRouterRevShare: { address: ROUTER, sharePpm: 500_000 } },
      },
    ]);
    // What is left under the cap, though the tier's share is more; the router gets nothing.
    const first = fees();
    expect(floorPpm(first.taker, affiliateSharePpm(alice))).toBeGreaterThan(cap - earned);
    const capped = await fill(ROUTER);
    expect(capped.delta[alice]).toBe(cap - earned);
    expect(capped.delta[ROUTER]).toBe(0n);
    expect(capped.attrs.taker_order_router_fee_quantums).toBe("0");
    expect(capped.delta[FEE_COLLECTOR]).toBe(first.taker + first.maker - (cap - earned));
    paid.push(cap - earned);
    // The cap reached: no affiliate share, and the router its share of min(taker, taker + maker).
    const second = fees();
    const side = second.maker < 0n ? second.taker + second.maker : second.taker;
    const routed = floorPpm(side, 500_000);
    const after = await fill(ROUTER);
    expect(after.delta[alice]).toBe(0n);
    expect(after.delta[ROUTER]).toBe(routed);
    expect(after.attrs.taker_order_router_fee_quantums).toBe(routed.toString());
    expect(after.delta[FEE_COLLECTOR]).toBe(second.taker + second.maker - routed);
  });

  it("pays unconditional recipients and the market mapper their shares of the net fee less the affiliate's", async () => {
    const { perpetual } = query(
      "/perpx.perpetuals.v1.Query/Perpetual",
      perpetuals.QueryPerpetualRequestSchema,
      { id: 0 },
      perpetuals.QueryPerpetualResponseSchema,
    );
    const marketId = perpetual?.params?.marketId ?? 0;
    // The reference genesis: the market mapper's share of a genesis market expired at genesis.
    const genesisDetails = query(
      "/perpx.revshare.v1.Query/MarketMapperRevShareDetails",
      revshare.QueryMarketMapperRevShareDetailsSchema,
      { marketId },
      revshare.QueryMarketMapperRevShareDetailsResponseSchema,
    ).details;
    const now = BigInt(chain.devnet.app.latestBlock().time.getTime()) / 1000n;
    expect(genesisDetails?.expirationTs).toBeLessThanOrEqual(now);
    govern([
      {
        schema: affiliates.MsgUpdateAffiliateParametersSchema,
        value: {
          affiliateParameters: {
            ...affiliateParameters(),
            maximum30dAffiliateRevenuePerReferredUserQuoteQuantums: 10_000_000_000n,
          },
        },
      },
      {
        schema: revshare.MsgUpdateUnconditionalRevShareConfigSchema,
        value: { config: { configs: [{ address: TREASURY, sharePpm: 100_000 }] } },
      },
      {
        schema: revshare.MsgSetMarketMapperRevenueShareSchema,
        value: { params: { address: MAPPER, revenueSharePpm: 200_000, validDays: 30 } },
      },
      {
        schema: revshare.MsgSetMarketMapperRevShareDetailsForMarketSchema,
        value: { marketId, params: { expirationTs: now + 86_400n } },
      },
    ]);
    const socket = await RecordingClient.connect(chain.devnet.endpoints.indexerWs);
    socket.send({ type: "subscribe", channel: "v4_subaccounts", id: `${bob}/0` });
    await socket.waitFrames(1);
    const expected = fees();
    const affiliate = floorPpm(expected.taker, affiliateSharePpm(alice));
    const net = expected.taker + expected.maker - affiliate;
    const { delta } = await fill(ROUTER);
    const sentFills = () =>
      socket
        .ofType("channel_data")
        .flatMap((f) => (f.contents as { fills?: { affiliateRevShare: string }[] }).fills ?? []);
    await expect.poll(() => sentFills().length, { timeout: 60_000 }).toBeGreaterThan(0);
    expect(sentFills().map((f) => f.affiliateRevShare)).toEqual([(Number(affiliate) / 1e6).toString()]);
    socket.close();
    expect(delta[alice]).toBe(affiliate);
    expect(delta[ROUTER]).toBe(0n);
    expect(delta[TREASURY]).toBe(floorPpm(net, 100_000));
    expect(delta[MAPPER]).toBe(floorPpm(net, 200_000));
    expect(delta[FEE_COLLECTOR]).toBe(net - floorPpm(net, 100_000) - floorPpm(net, 200_000));
    paid.push(affiliate);
  });

  it("shows each fill's affiliate share on both sides, and sums them in the affiliate's snapshot", async () => {
    const fills = async (address: string) =>
      (
        (await getIndexer(chain, `/v4/fills?address=${address}&subaccountNumber=0`)).body as {
          fills: { affiliateRevShare: string; createdAtHeight: string }[];
        }
      ).fills;
    const usdc = (q: bigint) => (Number(q) / 1e6).toString();
    const taken = await fills(bob);
    const made = await fills(carol);
    // Newest first: the last fill (affiliate paid), the routed one (none), the capped one, the first.
    expect(taken.slice(0, 4).map((f) => f.affiliateRevShare)).toEqual(
      [paid[2] as bigint, 0n, paid[1] as bigint, paid[0] as bigint].map(usdc),
    );
    expect(made.slice(0, 4).map((f) => f.affiliateRevShare)).toEqual(
      taken.slice(0, 4).map((f) => f.affiliateRevShare),
    );
    const snapshot = (await getIndexer(chain, `/v4/affiliates/snapshot?addressFilter=${alice}`)).body as {
      affiliateList: { affiliateEarnings: number }[];
    };
    expect(snapshot.affiliateList[0]?.affiliateEarnings).toBe(Number(paid.reduce((a, b) => a + b, 0n)) / 1e6);
  });

  it("keeps the volumes 29 days, and drops them once their stats epoch ended 30 days before the block", () => {
    const referred = affiliateInfo(alice).referred;
    expect(referred).toBeGreaterThan(0n);
    const day = 86_400_000;
    chain.devnet.app.control.advanceTime(29 * day);
    // The epochs catch up one a block; a bound that only catches a hang.
    chain.devnet.mine(50);
    expect(affiliateInfo(alice).referred).toBe(referred);
    chain.devnet.app.control.advanceTime(2 * day);
    for (let i = 0; i < 500 && affiliateInfo(alice).referred > 0n; i++) chain.devnet.mine(1);
    expect(affiliateInfo(alice)).toEqual({ referred: 0n, attributed: 0n });
    expect(affiliateInfo(bob)).toEqual({ referred: 0n, attributed: 0n });
  });
});
