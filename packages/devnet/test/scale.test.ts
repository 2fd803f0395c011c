/**
 * A devnet at the real network's scale (`markets` and `fundedSubaccounts`), over the wire: the
 * generated markets are listed by every module with consistent parameters, the funded subaccounts
 * hold their USDC, and two of them trade a generated market with orders signed by the keys
 * `fundedSubaccountKey` derives.
 */
import { clob } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perpetualsGenesis } from "../src/app/genesis/genesis-exchange.js";
import { DEFAULT_MARKETS } from "../src/app/genesis/genesis-markets.js";
import {
  type Devnet,
  FUNDED_SUBACCOUNT_QUANTUMS,
  fundedSubaccountKey,
  GENESIS_ACCOUNTS,
  isDevnetError,
  startDevnet,
} from "../src/index.js";
import { keySigner, placeMsg, signMsgs } from "./support/clob-tx.js";
import type { Loose } from "./support/loose.js";
import { accountOf, broadcastSync, restGet, subaccountOverRest } from "./support/wire.js";

const MARKETS = 250;
const FUNDED = 2_000;
let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 0, markets: MARKETS, fundedSubaccounts: FUNDED });
}, 60_000);
afterAll(() => devnet?.stop());

const rest = (path: string) => restGet(devnet.endpoints.nodeRest, path);
const all = "pagination.limit=1000";

describe("a devnet with 250 markets and 2,000 funded subaccounts", () => {
  it("lists 250 markets in prices, perpetuals and clob, the defaults first and unchanged", async () => {
    const [params, perps, pairs, tiers] = await Promise.all([
      rest(`/perpx/prices/v1/all_market_params?${all}`),
      rest(`/perpx/perpetuals/v1/all_perpetuals?${all}`),
      rest(`/perpx/clob/v1/clob_pair_all?${all}`),
      rest("/perpx/perpetuals/v1/all_liquidity_tiers"),
    ]);
    const marketParams = params.body.market_params as Loose[];
    const perpetuals = perps.body.perpetual as Loose[];
    const clobPairs = pairs.body.clob_pair as Loose[];
    expect(marketParams).toHaveLength(MARKETS);
    expect(perpetuals).toHaveLength(MARKETS);
    expect(clobPairs).toHaveLength(MARKETS);
    expect(marketParams.slice(0, 3).map((m) => m.pair)).toEqual(DEFAULT_MARKETS.map((m) => m.pair));
    expect(new Set(marketParams.map((m) => m.pair)).size).toBe(MARKETS);
    expect((tiers.body.liquidity_tiers as Loose[]).map((t) => t.name)).toEqual(
      perpetualsGenesis(DEFAULT_MARKETS).liquidityTiers.map((t) => t.name),
    );
    for (let id = 0; id < MARKETS; id++) {
      const perp = perpetuals[id].params;
      const pair = clobPairs[id];
      expect(perp.ticker).toBe(marketParams[id].pair);
      expect(perp.market_id).toBe(id);
      expect(pair.perpetual_clob_metadata.perpetual_id).toBe(id);
      expect(pair.status).toBe("STATUS_ACTIVE");
      if (id >= 3) {
        // The listing's rule: atomic resolution -6 - floor(log10 price), price exponent floor(log10 price) - 9.
        expect(perp.atomic_resolution).toBe(-6 - (marketParams[id].exponent + 9));
        expect(pair.subticks_per_tick).toBe(1_000_000);
        expect(pair.step_base_quantums).toBe("1000000");
        expect(pair.quantum_conversion_exponent).toBe(-9);
        expect(perp.market_type).toBe(
          perp.liquidity_tier === 4 ? "PERPETUAL_MARKET_TYPE_ISOLATED" : "PERPETUAL_MARKET_TYPE_CROSS",
        );
      }
    }
    const prices = await rest(`/perpx/prices/v1/all_market_prices?${all}`);
    expect((prices.body.market_prices as Loose[]).every((p) => BigInt(p.price) > 0n)).toBe(true);
  });

  it("funds subaccount 0 of every funded account, whose account follows the test accounts", async () => {
    for (const index of [0, 1_234, FUNDED - 1]) {
      const { address } = fundedSubaccountKey(index);
      expect((await subaccountOverRest(devnet.endpoints.nodeRest, address)).usdc).toBe(
        FUNDED_SUBACCOUNT_QUANTUMS,
      );
      expect((await accountOf(devnet.endpoints.nodeRest, address)).accountNumber).toBe(
        BigInt(GENESIS_ACCOUNTS.length + index),
      );
    }
    const beyond = fundedSubaccountKey(FUNDED).address;
    expect((await subaccountOverRest(devnet.endpoints.nodeRest, beyond)).usdc).toBe(0n);
  });

  it("lets two funded subaccounts trade a generated market with short-term orders", async () => {
    const marketId = 50;
    const [param, pair] = await Promise.all([
      rest(`/perpx/prices/v1/market_price/${marketId}`),
      rest(`/perpx/clob/v1/clob_pair/${marketId}`),
    ]);
    const tick = BigInt(pair.body.clob_pair.subticks_per_tick);
    // For a listed market, subticks = price mantissa (exponent + resolution - qce + 6 = 0).
    const subticks = (BigInt(param.body.market_price.price) / tick) * tick;
    const quantums = 10n * BigInt(pair.body.clob_pair.step_base_quantums);
    const [maker, taker] = await Promise.all(
      [17, 1_999].map((i) => keySigner(fundedSubaccountKey(i).privateKey, GENESIS_ACCOUNTS.length + i)),
    );
    const goodTilBlock = Number(devnet.app.latestBlock().height) + 10;
    const order = (owner: string, side: "buy" | "sell", timeInForce: clob.Order_TimeInForce) =>
      placeMsg({
        owner,
        clientId: 1,
        side,
        quantums,
        subticks,
        clobPairId: marketId,
        goodTilBlock,
        timeInForce,
      });
    const ask = await signMsgs(
      maker!,
      devnet.chainId,
      0n,
      [order(maker!.address, "sell", clob.Order_TimeInForce.UNSPECIFIED)],
      0n,
    );
    expect((await broadcastSync(devnet.endpoints.nodeRpc, ask)).code).toBe(0);
    const bid = await signMsgs(
      taker!,
      devnet.chainId,
      0n,
      [order(taker!.address, "buy", clob.Order_TimeInForce.IOC)],
      0n,
    );
    expect((await broadcastSync(devnet.endpoints.nodeRpc, bid)).code).toBe(0);
    devnet.mine(1);
    const [sold, bought] = await Promise.all(
      [maker!, taker!].map((s) => subaccountOverRest(devnet.endpoints.nodeRest, s.address)),
    );
    expect(sold?.positions).toMatchObject([{ perpetualId: marketId, quantums: -quantums }]);
    expect(bought?.positions).toMatchObject([{ perpetualId: marketId, quantums }]);
  });

  it("refuses a market count or a subaccount count out of range before starting", async () => {
    for (const options of [
      { markets: 2 },
      { markets: 501 },
      { fundedSubaccounts: -1 },
      { fundedSubaccounts: 0.5 },
    ]) {
      const failure = await startDevnet({ ports: "free", ...options }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isDevnetError(failure) && failure.reason === "out-of-range").toBe(true);
    }
  });
});
