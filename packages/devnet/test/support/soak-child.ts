/**
 * The soak run, in a child process started with `--expose-gc` (see `test/soak.test.ts`): a devnet
 * with a small pruning window takes a steady flow of signed transfers for a bounded time; the heap
 * is measured after a full GC once the window has filled, and again at the end. Prints one JSON line.
 *
 * Arguments: a JSON object `{ keepRecent, warmBlocks, seconds, minTxs, maxSeconds, txsPerBlock }`:
 * the flow runs `seconds`, and longer (up to `maxSeconds`) until `minTxs` txs went through.
 */
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { Bip39, EnglishMnemonic, Slip10, Slip10Curve, stringToPath } from "@cosmjs/crypto";
import { encodePubkey, makeAuthInfoBytes, makeSignBytes, makeSignDoc } from "@cosmjs/proto-signing";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { GENESIS_ACCOUNTS } from "../../src/app/genesis-accounts.js";
import { startDevnet } from "../../src/devnet.js";
import { body, send, txRaw } from "./app-harness.js";

interface SoakConfig {
  keepRecent: number;
  warmBlocks: number;
  seconds: number;
  minTxs: number;
  maxSeconds: number;
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

function signTransfer(sender: (typeof senders)[number], memo: string): Uint8Array {
  const bodyBytes = body({
    msgs: [send(sender.address, recipient, amount++)],
    sequence: 0n,
    accountNumber: 0n,
    memo,
  });
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey: sender.key.pubkeyAny, sequence: sender.sequence }],
    [{ denom: "uusdc", amount: "5000" }],
    200_000,
    undefined,
    undefined,
  );
  const doc = makeSignDoc(bodyBytes, authInfoBytes, devnet.chainId, sender.accountNumber);
  const signature = secp256k1.sign(makeSignBytes(doc), sender.key.privkey);
  return txRaw(bodyBytes, authInfoBytes, signature);
}
const recipient = GENESIS_ACCOUNTS[5]?.address ?? GENESIS_ACCOUNTS[4]!.address;
let txs = 0;
let amount = 1n;

/** One block of `txsPerBlock` transfers (round robin over the senders, distinct amounts and memos). */
function block(): void {
  for (let i = 0; i < config.txsPerBlock; i++) {
    const sender = senders[i % senders.length]!;
    const tx = signTransfer(sender, `soak ${txs}`);
    const result = devnet.app.checkTx(tx);
    if (result.code !== 0) throw new Error(`CheckTx ${result.code}: ${result.log}`);
    sender.sequence++;
    txs++;
  }
  const [produced] = devnet.mine(1);
  if (produced?.txResults.some((r) => r.code !== 0)) throw new Error("a transfer failed in its block");
}

for (let i = 0; i < config.warmBlocks; i++) block();
const warm = await settledHeap();
const warmTxs = txs;
const started = Date.now();
const elapsed = () => Date.now() - started;
while (
  elapsed() < config.seconds * 1000 ||
  (txs - warmTxs < config.minTxs && elapsed() < config.maxSeconds * 1000)
) {
  block();
}
const end = await settledHeap();
process.stdout.write(
  `${JSON.stringify({
    warmHeap: warm.heap,
    endHeap: end.heap,
    warmRss: warm.rss,
    endRss: end.rss,
    txs: txs - warmTxs,
    seconds: elapsed() / 1000,
    warmTxs,
    height: devnet.app.latestBlock().height.toString(),
    baseHeight: devnet.app.baseHeight().toString(),
  })}\n`,
);
await devnet.stop();
process.exit(0);
