/**
 * Compose + sign one place-order tx (`placeOrderMsg` + `signTx`, native backend) beside the raw
 * native secp256k1 signature over SHA-256 of the same sign doc (the floor), rounds of
 * `BATCH` calls interleaved; the medians of the rounds' per-call CPU times (`per-call.ts`).
 * Run alone: `npx vitest bench --run --project bench table/sign`.
 */
import {
  encodeAuthInfo,
  encodeSignDoc,
  encodeTxBody,
  placeOrderMsg,
  signCosmos,
  signTx,
} from "@perpx/node-client/tx";
import { LocalWallet } from "@perpx/node-client/wallets";
import { bench, describe } from "vitest";
import { fmt, interleave, median, ONE_CALL, once, QUICK, report } from "./harness.js";
import { perCall } from "./per-call.js";

const PRIVATE_KEY = "1f".repeat(32);
const KEY_BYTES = Uint8Array.from(Buffer.from(PRIVATE_KEY, "hex"));
const wallet = LocalWallet.fromPrivateKey(PRIVATE_KEY, { backend: "native" });
const fee = { amount: [], gasLimit: 1_000_000n };
let clientId = 0;

function order() {
  clientId = (clientId + 1) >>> 0;
  return placeOrderMsg({
    subaccount: { owner: wallet.address, number: 0 },
    clientId,
    clobPairId: 0,
    side: "BUY",
    quantums: 1_000_000n,
    subticks: 2_868_800_000n,
    kind: "short-term",
    goodTilBlock: 1_000_000,
  });
}

const signBytes = encodeSignDoc({
  bodyBytes: encodeTxBody({ messages: [order()] }),
  authInfoBytes: encodeAuthInfo({ publicKey: wallet.publicKey, keyType: "secp256k1", sequence: 0n, fee }),
  chainId: "perpx-local-1",
  accountNumber: 0n,
});

describe("compose + sign one place-order tx vs the raw native signature", () => {
  bench(
    "compose + sign (interleaved with the raw signature)",
    once(async () => {
      const rounds = QUICK ? 20 : 60;
      const batch = 200;
      const { ours, raw } = await interleave(
        rounds,
        {
          ours: perCall(
            batch,
            () =>
              signTx({
                signer: wallet,
                messages: [order()],
                chainId: "perpx-local-1",
                accountNumber: 0n,
                sequence: 0n,
                fee,
              }),
            "cpu",
          ),
          raw: perCall(batch, () => signCosmos(KEY_BYTES, signBytes, { backend: "native" }), "cpu"),
        },
        3,
      );
      const ratio = median(ours) / median(raw);
      report({
        id: "5-sign",
        metric: "compose + sign one place-order tx",
        floor: `${fmt(median(raw) * 1000, "µs")} (raw native signature)`,
        ours: fmt(median(ours) * 1000, "µs"),
        ratio: `${ratio.toFixed(2)}x`,
        goal: "<= 1.3x",
        met: ratio <= 1.3,
        note: `${rounds} interleaved rounds of ${batch} calls, medians of the per-call CPU times of the process`,
      });
    }),
    ONE_CALL,
  );
});
