/**
 * A human-unit order up to its signed transaction (plan: conversions, kind, expiry, client id ->
 * message -> sign) beside the node client's raw path (a wire order -> message -> sign), with the
 * same key and backend. Goal: the composite path under 1.1x the raw one. Run:
 * `npx vitest bench --run --project composite-client`.
 */
import { placeOrderMsg, signTx } from "@perpx/node-client/tx";
import { LocalWallet } from "@perpx/node-client/wallets";
import { bench, describe } from "vitest";
import { btc } from "../test/fixtures/btc-market.js";
import { ClientIds } from "./clientIds.js";
import { planOrder } from "./orderPlan.js";

const wallet = LocalWallet.fromPrivateKey("1f".repeat(32), { backend: "js" });
const subaccount = { owner: wallet.address, number: 0 };
const fee = { amount: [], gasLimit: 1_000_000n };
const ids = new ClientIds();
let rawId = 0;

const sign = (message: ReturnType<typeof placeOrderMsg>) =>
  signTx({
    signer: wallet,
    messages: [message],
    chainId: "perpx-local-1",
    accountNumber: 0n,
    sequence: 0n,
    fee,
  });

const options = { time: 3_000, warmupTime: 500 };

describe("place-order up to the signed transaction", () => {
  bench(
    "composite: human units (plan + message + sign)",
    async () => {
      const wire = planOrder(
        { market: "BTC-USD", side: "BUY", size: "0.001", price: "28688", goodTil: { blocks: 20 } },
        { market: btc, height: 1_000n, nowMs: Date.now(), clientId: ids.next("bench"), subaccount },
      );
      await sign(placeOrderMsg(wire));
    },
    options,
  );
  bench(
    "node client: wire units (message + sign)",
    async () => {
      rawId = (rawId + 1) >>> 0;
      await sign(
        placeOrderMsg({
          subaccount,
          clientId: rawId,
          clobPairId: 0,
          side: "BUY",
          quantums: 10_000_000n,
          subticks: 28_688_000_000n,
          kind: "short-term",
          goodTilBlock: 1_020,
        }),
      );
    },
    options,
  );
});
