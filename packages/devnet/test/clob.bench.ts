/**
 * Orders matched per second through the whole pipeline: signed short-term order txs in through
 * CheckTx (what RPC `broadcast_tx_sync` calls), one block, fills out of the block's tx results.
 * Each iteration rests N asks from one account and crosses them with N IOC buys from another, so
 * every buy produces one fill: orders matched per second = hz × N.
 *
 * Every round is signed before the benchmark starts (module top level), so the timings hold
 * verification, matching and the block, not signing. The keys are derived once and the txs signed
 * with `@noble/curves` (the same deterministic RFC 6979 signatures as cosmjs's `signDirect`, which
 * re-derives the HD key on every call).
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { Bip39, EnglishMnemonic, Slip10, Slip10Curve, stringToPath } from "@cosmjs/crypto";
import { encodePubkey, makeAuthInfoBytes } from "@cosmjs/proto-signing";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { clob, cosmosTx, sending } from "@perpx/proto";
import { afterAll, bench, describe } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import { type OrderSpec, placeMsg, signMsgs, testSigner } from "./support/clob-tx.js";

/** Matched orders per iteration (2 × N txs). */
const N = 200;
const ITERATIONS = 5;
const WARMUP_ITERATIONS = 1;
/** Rounds beyond the iterations, should the bench runner call the task once more than asked. */
const SPARE_ROUNDS = 2;

interface FastSigner {
  readonly address: string;
  readonly accountNumber: number;
  readonly privkey: Uint8Array;
  readonly pubkey: Uint8Array;
}

async function fastSigner(mnemonic: string, address: string, accountNumber: number): Promise<FastSigner> {
  const seed = await Bip39.mnemonicToSeed(new EnglishMnemonic(mnemonic));
  const { privkey } = Slip10.derivePath(Slip10Curve.Secp256k1, seed, stringToPath("m/44'/118'/0'/0/0"));
  return { address, accountNumber, privkey, pubkey: secp256k1.getPublicKey(privkey, true) };
}

/** A free (no fee) SIGN_MODE_DIRECT tx of one short-term order. */
function signOrder(signer: FastSigner, chainId: string, spec: OrderSpec): Uint8Array {
  const m = placeMsg(spec);
  const bodyBytes = toBinary(
    cosmosTx.TxBodySchema,
    create(cosmosTx.TxBodySchema, {
      messages: [
        {
          $typeName: "google.protobuf.Any" as const,
          typeUrl: `/${m.schema.typeName}`,
          value: toBinary(m.schema, m.value),
        },
      ],
    }),
  );
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey: encodePubkey(encodeSecp256k1Pubkey(signer.pubkey)), sequence: 0 }],
    [],
    1_000_000,
    undefined,
    undefined,
  );
  const signDoc = toBinary(
    cosmosTx.SignDocSchema,
    create(cosmosTx.SignDocSchema, {
      bodyBytes,
      authInfoBytes,
      chainId,
      accountNumber: BigInt(signer.accountNumber),
    }),
  );
  // SHA-256 prehash, low-S, 64-byte r||s: what the chain verifies for a secp256k1 key.
  const signature = secp256k1.sign(signDoc, signer.privkey);
  return toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] }),
  );
}

const devnet: Devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
devnet.app.control.setOracleWalk(false);
const [makerAccount, takerAccount] = devnet.accounts;
if (makerAccount === undefined || takerAccount === undefined) throw new Error("two genesis accounts needed");
for (const [accountNumber, account] of [makerAccount, takerAccount].entries()) {
  const signer = await testSigner(account.mnemonic, accountNumber);
  const deposit = create(sending.MsgDepositToSubaccountSchema, {
    sender: signer.address,
    recipient: { owner: signer.address, number: 0 },
    assetId: 0,
    quantums: 500_000_000_000n,
  });
  const result = devnet.app.checkTx(
    await signMsgs(signer, devnet.chainId, 0n, [
      { schema: sending.MsgDepositToSubaccountSchema, value: deposit } as Parameters<
        typeof signMsgs
      >[3][number],
    ]),
  );
  if (result.code !== 0) throw new Error(`deposit refused: ${result.log}`);
}
devnet.mine(1);

const maker = await fastSigner(makerAccount.mnemonic, makerAccount.address, 0);
const taker = await fastSigner(takerAccount.mnemonic, takerAccount.address, 1);
// One good-til-block for every round: within the 20-block window of the first round's CheckTx and
// still ahead of the last round's block.
const goodTilBlock = Number(devnet.app.latestBlock().height) + 20;
let clientId = 1;
/** Pre-signed rounds, one per iteration (warm-up included), consumed in order. */
const rounds: Uint8Array[][] = Array.from({ length: WARMUP_ITERATIONS + ITERATIONS + SPARE_ROUNDS }, () => {
  const common = { quantums: 1_000_000n, subticks: 6_500_000_000n, goodTilBlock };
  const asks = Array.from({ length: N }, () =>
    signOrder(maker, devnet.chainId, {
      ...common,
      owner: maker.address,
      clientId: clientId++,
      side: "sell",
    }),
  );
  const buys = Array.from({ length: N }, () =>
    signOrder(taker, devnet.chainId, {
      ...common,
      owner: taker.address,
      clientId: clientId++,
      side: "buy",
      timeInForce: clob.Order_TimeInForce.IOC,
    }),
  );
  return [...asks, ...buys];
});

afterAll(async () => {
  await devnet.stop();
});

describe(`clob pipeline (orders matched/s = hz × ${N})`, () => {
  bench(
    `${N} matched orders: ${2 * N} signed short-term txs through CheckTx, one block, fills`,
    // Async on purpose: tinybench calls a synchronous task once more to find out whether it is async.
    async () => {
      const txs = rounds.shift();
      if (txs === undefined) throw new Error("no pre-signed round left: raise the number of rounds");
      for (const tx of txs) {
        const result = devnet.app.checkTx(tx);
        if (result.code !== 0) throw new Error(`CheckTx refused an order: ${result.log}`);
      }
      const [block] = devnet.mine(1);
      let fills = 0;
      for (const result of block?.txResults ?? []) {
        if (result.code !== 0) throw new Error(`an order tx failed: ${result.log}`);
        for (const e of result.events) if (e.type === "perpx.clob.order_fill") fills++;
      }
      if (fills !== N) throw new Error(`expected ${N} fills, got ${fills}`);
    },
    { iterations: ITERATIONS, time: 0, warmupIterations: WARMUP_ITERATIONS, warmupTime: 0 },
  );
});
