/**
 * A human-unit order up to its signed tx (the composite's plan: conversions, kind, expiry, client id
 * -> message -> sign) beside the node client's raw path (a wire order -> message -> sign), same key
 * and backend, rounds of `BATCH` calls interleaved; the medians of the rounds' per-call CPU times (`per-call.ts`).
 * Run alone: `npx vitest bench --run --project bench table/human-units`.
 */
import { placeOrderMsg, signTx } from "@perpx/node-client/tx";
import { LocalWallet } from "@perpx/node-client/wallets";
import { bench, describe } from "vitest";
import { ClientIds } from "../../packages/composite-client/src/clientIds.js";
import { planOrder } from "../../packages/composite-client/src/orderPlan.js";
import { btc } from "../../packages/composite-client/test/fixtures/btc-market.js";
import { fmt, interleave, median, ONE_CALL, once, QUICK, report } from "./harness.js";
import { perCall } from "./per-call.js";

const wallet = LocalWallet.fromPrivateKey("1f".repeat(32), { backend: "native" });
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

function human() {
  const wire = planOrder(
    { market: "BTC-USD", side: "BUY", size: "0.001", price: "28688", goodTil: { blocks: 20 } },
    { market: btc, height: 1_000n, nowMs: Date.now(), clientId: ids.next("bench"), subaccount },
  );
  return sign(placeOrderMsg(wire));
}

function raw() {
  rawId = (rawId + 1) >>> 0;
  return sign(
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
}

describe("human-unit placeOrder to the signed tx vs the raw path", () => {
  bench(
    "human units (interleaved with wire units)",
    once(async () => {
      const rounds = QUICK ? 20 : 60;
      const batch = 200;
      const values = await interleave(
        rounds,
        { human: perCall(batch, human, "cpu"), raw: perCall(batch, raw, "cpu") },
        3,
      );
      const ratio = median(values.human) / median(values.raw);
      report({
        id: "7-human-units",
        metric: "human-unit placeOrder to the signed tx",
        floor: `${fmt(median(values.raw) * 1000, "µs")} (wire units: message + sign)`,
        ours: fmt(median(values.human) * 1000, "µs"),
        ratio: `${ratio.toFixed(2)}x`,
        goal: "<= 1.1x",
        met: ratio <= 1.1,
        note: `${rounds} interleaved rounds of ${batch} calls, medians of the per-call CPU times of the process`,
      });
    }),
    ONE_CALL,
  );
});
