/**
 * The soak run, in a child process started with `--expose-gc` (see `test/soak.test.ts`): a devnet
 * with a small pruning window takes a steady flow of signed transfers for a bounded time; the heap
 * is measured after a full GC once the window has filled, and again at the end. Prints one JSON line.
 *
 * Arguments: a JSON object `{ flow, keepRecent, warmBlocks, txs, txsPerBlock }`: after the warm-up
 * blocks, the flow runs until `txs` txs went through (a count, not a clock: a loaded machine only
 * takes longer).
 * `flow` is `"transfers"` (bank sends from four accounts) or `"orders"` (half the txs short-term
 * orders, asks resting and IOC buys crossing them, one fill per pair; half bank sends).
 */
import { create } from "@bufbuild/protobuf";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { Bip39, EnglishMnemonic, Slip10, Slip10Curve, stringToPath } from "@cosmjs/crypto";
import { encodePubkey, makeAuthInfoBytes, makeSignBytes, makeSignDoc } from "@cosmjs/proto-signing";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { clob, sending } from "@perpx/proto";
import { GENESIS_ACCOUNTS } from "../../src/app/genesis/genesis-accounts.js";
import { startDevnet } from "../../src/devnet.js";
import { any, body, send, txRaw } from "./app-harness.js";
import { placeMsg } from "./clob-tx.js";

interface SoakConfig {
  flow?: "transfers" | "orders";
  keepRecent: number;
  warmBlocks: number;
  txs: number;
  txsPerBlock: number;
}

const config = JSON.parse(process.argv[2] ?? "{}") as SoakConfig;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");

async function settledHeap(): Promise<{ heap: number; rss: number }> {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss };
}

const devnet = await startDevnet({
  ports: "free",
  blockTimeMs: 0,
  pruning: { keepRecent: config.keepRecent },
});
/** A genesis account's key, derived once; signing is noble's secp256k1 (cosmjs's wallet is slow). */
async function keyOf(mnemonic: string) {
  const seed = await Bip39.mnemonicToSeed(new EnglishMnemonic(mnemonic));
  const { privkey } = Slip10.derivePath(Slip10Curve.Secp256k1, seed, stringToPath("m/44'/118'/0'/0/0"));
  return { privkey, pubkeyAny: encodePubkey(encodeSecp256k1Pubkey(secp256k1.getPublicKey(privkey, true))) };
}

const senders = await Promise.all(
  GENESIS_ACCOUNTS.slice(0, 4).map(async (account, i) => ({
    address: account.address,
    key: await keyOf(account.mnemonic),
    accountNumber: i,
    sequence: 0,
  })),
);

function sign(
  sender: (typeof senders)[number],
  msgs: { typeUrl: string; value: Uint8Array }[],
  memo: string,
  fee = true,
): Uint8Array {
  const bodyBytes = body({ msgs, sequence: 0n, accountNumber: 0n, memo });
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey: sender.key.pubkeyAny, sequence: sender.sequence }],
    fee ? [{ denom: "uusdc", amount: "5000" }] : [],
    fee ? 200_000 : 1_000_000,
    undefined,
    undefined,
  );
  const doc = makeSignDoc(bodyBytes, authInfoBytes, devnet.chainId, sender.accountNumber);
  const signature = secp256k1.sign(makeSignBytes(doc), sender.key.privkey);
  return txRaw(bodyBytes, authInfoBytes, signature);
}

function signTransfer(sender: (typeof senders)[number], memo: string): Uint8Array {
  return sign(sender, [send(sender.address, recipient, amount++)], memo);
}

let clientId = 1;
/** A short-term order tx (free, sequence unused): an ask of `maker`, or an IOC buy of `taker`. */
function signOrder(sender: (typeof senders)[number], side: "buy" | "sell"): Uint8Array {
  const m = placeMsg({
    owner: sender.address,
    clientId: clientId++,
    side,
    quantums: 1_000_000n,
    subticks: 6_500_000_000n,
    goodTilBlock: Number(devnet.app.latestBlock().height) + 10,
    ...(side === "buy" ? { timeInForce: clob.Order_TimeInForce.IOC } : {}),
  });
  return sign(sender, [any(m.schema, m.value as never)], "", false);
}

if (config.flow === "orders") {
  for (const sender of senders.slice(0, 2)) {
    const deposit = any(
      sending.MsgDepositToSubaccountSchema,
      create(sending.MsgDepositToSubaccountSchema, {
        sender: sender.address,
        recipient: { owner: sender.address, number: 0 },
        assetId: 0,
        quantums: 500_000_000_000n,
      }),
    );
    const result = devnet.app.checkTx(sign(sender, [deposit], "deposit"));
    if (result.code !== 0) throw new Error(`deposit refused: ${result.log}`);
    sender.sequence++;
  }
  devnet.app.control.setOracleWalk(false);
  devnet.mine(1);
}
const recipient = GENESIS_ACCOUNTS[5]?.address ?? GENESIS_ACCOUNTS[4]!.address;
let txs = 0;
let amount = 1n;

/** Queues `count` transfers (round robin over the senders from `first` on). */
function transfers(count: number, first: number): void {
  for (let i = 0; i < count; i++) {
    const sender = senders[first + (i % (senders.length - first))]!;
    const result = devnet.app.checkTx(signTransfer(sender, `soak ${txs}`));
    if (result.code !== 0) throw new Error(`CheckTx ${result.code}: ${result.log}`);
    sender.sequence++;
    txs++;
  }
}

/** Queues `pairs` resting asks and as many crossing IOC buys. */
function orders(pairs: number): void {
  for (let i = 0; i < pairs; i++) {
    for (const [sender, side] of [
      [senders[0]!, "sell"],
      [senders[1]!, "buy"],
    ] as const) {
      const result = devnet.app.checkTx(signOrder(sender, side));
      if (result.code !== 0) throw new Error(`CheckTx ${result.code}: ${result.log}`);
      txs++;
    }
  }
}

/** One block of the flow; checks every tx succeeded and every buy filled. */
function block(): void {
  const pairs = config.flow === "orders" ? Math.floor(config.txsPerBlock / 4) : 0;
  if (pairs > 0) orders(pairs);
  transfers(config.txsPerBlock - 2 * pairs, pairs > 0 ? 2 : 0);
  const [produced] = devnet.mine(1);
  let fills = 0;
  for (const r of produced?.txResults ?? []) {
    if (r.code !== 0) throw new Error(`a tx failed in its block: ${r.log}`);
    for (const e of r.events) if (e.type === "perpx.clob.order_fill") fills++;
  }
  if (fills !== pairs) throw new Error(`expected ${pairs} fills, got ${fills}`);
}

for (let i = 0; i < config.warmBlocks; i++) block();
const warm = await settledHeap();
const warmTxs = txs;
const started = Date.now();
while (txs - warmTxs < config.txs) block();
const end = await settledHeap();
process.stdout.write(
  `${JSON.stringify({
    warmHeap: warm.heap,
    endHeap: end.heap,
    warmRss: warm.rss,
    endRss: end.rss,
    txs: txs - warmTxs,
    seconds: (Date.now() - started) / 1000,
    warmTxs,
    height: devnet.app.latestBlock().height.toString(),
    baseHeight: devnet.app.baseHeight().toString(),
  })}\n`,
);
await devnet.stop();
process.exit(0);
