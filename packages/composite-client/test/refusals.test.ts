import { isInvalidOrderError } from "@perpx/core";
import { isBroadcastTxError } from "@perpx/node-client";
import { placeOrderMsg } from "@perpx/node-client/tx";
import { describe, expect, it } from "vitest";
import type { HumanOrder } from "../src/index.js";
import { fundedWallet, recordingSigner, useDevnet } from "./support.js";

const net = useDevnet();

describe("orders the chain would refuse are refused before signing", () => {
  it("names the field of each, and signs nothing", async () => {
    const { signer, signed } = recordingSigner(await fundedWallet(net.devnet));
    const client = await net.connect({ signer });
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    const trigger = (Number(btc.oraclePrice) * 0.9).toFixed(0);
    const base = { market: "BTC-USD", side: "SELL", size: "0.001", price, rounding: "down" } as const;
    const refusals: [HumanOrder, string][] = [
      [{ ...base, reduceOnly: true }, "reduceOnly"], // long-term
      [{ ...base, reduceOnly: true, goodTil: { blocks: 10 } }, "reduceOnly"], // short-term GTC
      [{ ...base, reduceOnly: true, postOnly: true }, "reduceOnly"],
      [{ ...base, type: "STOP_LIMIT", triggerPrice: trigger, reduceOnly: true }, "reduceOnly"],
      [{ ...base, timeInForce: "FILL_OR_KILL" }, "timeInForce"],
      [{ ...base, postOnly: true, timeInForce: "IOC" }, "timeInForce"],
      [{ ...base, type: "MARKET", postOnly: true, slippage: "1%" }, "postOnly"],
      [{ ...base, goodTil: { blocks: 41 } }, "goodTil.blocks"],
      [{ ...base, goodTil: { seconds: 96 * 86_400 } }, "goodTil.seconds"],
      [{ ...base, type: "STOP_LIMIT" }, "triggerPrice"],
    ];
    for (const [order, field] of refusals) {
      const error = await client.placeOrder(order).catch((e: unknown) => e);
      expect(isInvalidOrderError(error) && error.field, JSON.stringify(order)).toBe(field);
    }
    expect(signed).toEqual([]);
  });

  it("the chain does refuse them: the same orders signed by hand come back with its codes", async () => {
    const wallet = await fundedWallet(net.devnet);
    const client = await net.connect({ wallet });
    await client.deposit({ amount: "100" });
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const subaccount = client.subaccount;
    const common = {
      subaccount,
      side: "SELL",
      clobPairId: btc.clobPairId,
      quantums: btc.stepBaseQuantums,
      subticks: btc.subticksPerTick * 1_000n,
    } as const;
    const height = Number(client.height());
    const expiry = Math.floor(Date.now() / 1000) + 600;
    const refused = async (message: ReturnType<typeof placeOrderMsg>) => {
      const error = await client.context.node
        .sendTx({ signer: wallet, messages: [message] })
        .catch((e: unknown) => e);
      return isBroadcastTxError(error) ? error.abciCode : error;
    };
    const reduceOnlyLongTerm = placeOrderMsg({
      ...common,
      clientId: 71_001,
      reduceOnly: true,
      kind: "long-term",
      goodTilBlockTime: expiry,
    });
    expect(await refused(reduceOnlyLongTerm)).toBe(9003);
    const reduceOnlyGtc = placeOrderMsg({
      ...common,
      clientId: 71_002,
      reduceOnly: true,
      kind: "short-term",
      goodTilBlock: height + 10,
    });
    expect(await refused(reduceOnlyGtc)).toBe(9003);
    const fillOrKill = placeOrderMsg({
      ...common,
      clientId: 71_003,
      timeInForce: "FILL_OR_KILL",
      kind: "short-term",
      goodTilBlock: height + 10,
    });
    expect(await refused(fillOrKill)).toBe(48);
  });
});
