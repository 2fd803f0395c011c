import { isPerpxError } from "@perpx/errors";
import { placeOrderMsg, withdrawFromSubaccountMsg } from "@perpx/node-client/tx";
import { tradingKeyFromCredential } from "@perpx/node-client/wallets";
import { describe, expect, it } from "vitest";
import { authenticatorOf } from "../src/index.js";
import { useMcpNet } from "./support.js";

const net = useMcpNet();

describe("the trading key's scope is the chain's, not only the server's", () => {
  it("cannot withdraw or touch subaccount 1 even when signing directly, bypassing the server", async () => {
    const account = await net.account();
    const { node } = account.client.context;
    const tradingKey = tradingKeyFromCredential(account.credential);
    const authenticatorId = await authenticatorOf(node, tradingKey);
    const owner = account.owner.address;
    const btc = await account.client.getMarket({ ticker: "BTC-USD" });
    const send = (messages: Parameters<typeof node.sendWithTradingKey>[0]["messages"]) =>
      node.sendWithTradingKey({ tradingKey, authenticatorId, messages });
    const before = await account.client.account();
    const goodTilBlock = Number((await node.getLatestBlock()).height) + 10;
    const order = (number: number, clientId: number) =>
      placeOrderMsg({
        subaccount: { owner, number },
        clientId,
        side: "BUY",
        market: btc,
        size: "0.001",
        price: String(Math.floor(Number(btc.oraclePrice) * 0.95)),
        kind: "short-term",
        goodTilBlock,
      });

    const withdraw = await send([
      withdrawFromSubaccountMsg({ sender: { owner, number: 0 }, recipient: owner, quantums: 1_000_000n }),
    ]).catch((error: unknown) => error);
    expect(isPerpxError(withdraw) && withdraw.code).toBe("BROADCAST_TX");
    const otherSubaccount = await send([order(1, 601)]).catch((error: unknown) => error);
    expect(isPerpxError(otherSubaccount) && otherSubaccount.code).toBe("BROADCAST_TX");

    // The same key may place on subaccount 0: the refusals above are the scope, not a broken key.
    const allowed = await send([order(0, 602)]);
    expect(allowed.shortTerm).toBe(true);
    const after = await account.client.account();
    expect(after.usdc).toBe(before.usdc);
  });
});
