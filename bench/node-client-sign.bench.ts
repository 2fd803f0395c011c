/**
 * Compose + sign a place-order transaction, in one run:
 * - the incumbent client `@dydxprotocol/v4-client-js` (its Composer and LocalWallet.signTransaction);
 * - `@perpx/node-client` (placeOrderMsg + signTx) with the native backend (libsecp256k1) and with
 *   the js backend (noble);
 * - one raw secp256k1 signature over SHA-256 of the same SignDoc, native and noble (the floors).
 * After the run a summary prints each rate and the two ratios issue 5 asks for: ours / incumbent
 * (goal >= 5) and raw native / ours native (issue 9: goal <= 1.1), from per-call timings taken here.
 * Run: `pnpm bench` (or `npx vitest bench --run --project bench`).
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  LocalWallet as IncumbentWallet,
  Order_Side,
  Order_TimeInForce,
  OrderFlags,
} from "@dydxprotocol/v4-client-js";
import {
  encodeAuthInfo,
  encodeSignDoc,
  encodeTxBody,
  placeOrderMsg,
  signCosmos,
  signTx,
} from "@perpx/node-client/tx";
import { LocalWallet } from "@perpx/node-client/wallets";
import { afterAll, bench, describe } from "vitest";
import { Timings } from "./timings.js";

const PRIVATE_KEY = "1f".repeat(32);
const KEY_BYTES = Uint8Array.from(Buffer.from(PRIVATE_KEY, "hex"));

// The incumbent's Composer is not exported by its package's exports map; load its own file.
const require = createRequire(import.meta.url);
const incumbentRoot = dirname(require.resolve("@dydxprotocol/v4-client-js"));
const { Composer } = require(join(incumbentRoot, "clients/modules/composer.js")) as {
  Composer: new () => { composeMsgPlaceOrder: (...args: unknown[]) => unknown };
};
const composer = new Composer();
// The incumbent's own `long` (it is its dependency, not ours).
const Long = createRequire(require.resolve("@dydxprotocol/v4-client-js"))("long") as {
  fromNumber(n: number): unknown;
};
const incumbent = await IncumbentWallet.fromPrivateKey(PRIVATE_KEY, "dydx");
const incumbentFee = { amount: [], gas: "1000000" };

const wallet = LocalWallet.fromPrivateKey(PRIVATE_KEY, { backend: "native" });
const jsWallet = LocalWallet.fromPrivateKey(PRIVATE_KEY, { backend: "js" });
const fee = { amount: [], gasLimit: 1_000_000n };
let clientId = 0;

function perpxOrder() {
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
  bodyBytes: encodeTxBody({ messages: [perpxOrder()] }),
  authInfoBytes: encodeAuthInfo({ publicKey: wallet.publicKey, keyType: "secp256k1", sequence: 0n, fee }),
  chainId: "perpx-local-1",
  accountNumber: 0n,
});

const options = { time: 3_000, warmupTime: 500 };
const timings = new Timings();

function composeAndSign(signer: LocalWallet) {
  return signTx({
    signer,
    messages: [perpxOrder()],
    chainId: "perpx-local-1",
    accountNumber: 0n,
    sequence: 0n,
    fee,
  });
}

describe("compose + sign a place-order transaction", () => {
  bench(
    "incumbent @dydxprotocol/v4-client-js",
    timings.async("incumbent", async () => {
      clientId = (clientId + 1) >>> 0;
      const message = composer.composeMsgPlaceOrder(
        incumbent.address,
        0,
        clientId,
        0,
        OrderFlags.SHORT_TERM,
        1_000_000,
        0,
        Order_Side.SIDE_BUY,
        Long.fromNumber(1_000_000),
        Long.fromNumber(2_868_800_000),
        Order_TimeInForce.TIME_IN_FORCE_UNSPECIFIED,
        false,
        0,
      );
      await incumbent.signTransaction(
        [message as never],
        { sequence: 0, accountNumber: 0, chainId: "dydx-mainnet-1" },
        incumbentFee as never,
      );
    }),
    options,
  );

  bench(
    "@perpx/node-client (native backend)",
    timings.async("ours native", () => composeAndSign(wallet)),
    options,
  );

  bench(
    "@perpx/node-client (js backend)",
    timings.async("ours js", () => composeAndSign(jsWallet)),
    options,
  );

  bench(
    "raw native secp256k1 signature (floor)",
    timings.sync("raw native", () => signCosmos(KEY_BYTES, signBytes, { backend: "native" })),
    options,
  );

  bench(
    "raw noble secp256k1 signature",
    timings.sync("raw noble", () => signCosmos(KEY_BYTES, signBytes, { backend: "js" })),
    options,
  );
});

afterAll(() => {
  console.log(
    timings.summary([
      {
        label: "ours (native) / incumbent, ops/s",
        numerator: "ours native",
        denominator: "incumbent",
        goal: ">= 5",
      },
      {
        label: "raw native / ours (native), ops/s",
        numerator: "raw native",
        denominator: "ours native",
        goal: "<= 1.1",
      },
      { label: "ours (js) / incumbent, ops/s", numerator: "ours js", denominator: "incumbent" },
    ]),
  );
});
