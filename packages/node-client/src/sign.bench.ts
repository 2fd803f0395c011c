/**
 * Compose + sign a place-order transaction (builder -> protobuf-es messages + hand-written envelope
 * -> secp256k1) with each signer backend, beside the raw cost of one signature over SHA-256 of the
 * same SignDoc with each backend. The workspace bench (`bench/`) adds the incumbent client and the
 * ratio summary. Run: `npx vitest bench --run --project node-client`.
 */
import { bench, describe } from "vitest";
import { signCosmos } from "./crypto/secp256k1.js";
import { placeOrderMsg } from "./messages/clob.js";
import { encodeAuthInfo, encodeSignDoc, encodeTxBody } from "./tx/encode.js";
import { signTx } from "./tx/sign.js";
import { LocalWallet } from "./wallet/localWallet.js";

const PRIVATE_KEY = "1f".repeat(32);
const wallet = LocalWallet.fromPrivateKey(PRIVATE_KEY, { backend: "native" });
const jsWallet = LocalWallet.fromPrivateKey(PRIVATE_KEY, { backend: "js" });
const keyBytes = Uint8Array.from(Buffer.from(PRIVATE_KEY, "hex"));
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
    timeInForce: "GTC",
  });
}

const signBytes = encodeSignDoc({
  bodyBytes: encodeTxBody({ messages: [order()] }),
  authInfoBytes: encodeAuthInfo({ publicKey: wallet.publicKey, keyType: "secp256k1", sequence: 0n, fee }),
  chainId: "perpx-local-1",
  accountNumber: 0n,
});

const options = { time: 3_000, warmupTime: 500 };

function composeAndSign(signer: LocalWallet) {
  return signTx({
    signer,
    messages: [order()],
    chainId: "perpx-local-1",
    accountNumber: 0n,
    sequence: 0n,
    fee,
  });
}

describe("place-order transaction", () => {
  bench("perpx: compose + sign, native backend", () => composeAndSign(wallet).then(() => undefined), options);
  bench("perpx: compose + sign, js backend", () => composeAndSign(jsWallet).then(() => undefined), options);
  bench(
    "raw: one native secp256k1 signature over SHA-256 of the SignDoc",
    () => {
      signCosmos(keyBytes, signBytes, { backend: "native" });
    },
    options,
  );
  bench(
    "raw: one noble secp256k1 signature over SHA-256 of the SignDoc",
    () => {
      signCosmos(keyBytes, signBytes, { backend: "js" });
    },
    options,
  );
});
