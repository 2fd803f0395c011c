/** The SDK's rules a tx meets at CheckTx and delivery: failures and their codes, key types, nonces. */
import { create, toBinary } from "@bufbuild/protobuf";
import { makeAuthInfoBytes } from "@cosmjs/proto-signing";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { cosmosBank, cosmosSecp256k1, cosmosTx, ethSecp256k1, packAny } from "@perpx/proto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ALICE,
  any,
  BOB,
  body,
  CARL,
  CHAIN_ID,
  FEE_COLLECTOR,
  genesisSigners,
  newApp,
  nextBlock,
  run,
  type Signer,
  send,
  txRaw,
} from "../../../test/support/app-harness.js";
import { accountInfo, bankBalance } from "../../../test/support/app-query.js";
import { GENESIS_USDC_BALANCE } from "../genesis/genesis-accounts.js";
import { bech32Of } from "../lib/addresses.js";

let alice: Signer;
let bob: Signer;

beforeAll(async () => {
  ({ alice, bob } = await genesisSigners());
});

describe("failures", () => {
  it("wrong sequence: code 32 with expected and got, nothing changes", async () => {
    const app = newApp();
    const tx = await alice.sign({ msgs: [send(ALICE, BOB, 1000n)], sequence: 5n, accountNumber: 0n });
    const { check } = run(app, tx);
    expect(check.code).toBe(32);
    expect(check.codespace).toBe("sdk");
    expect(check.log).toBe("account sequence mismatch, expected 0, got 5: incorrect account sequence");
    expect(bankBalance(app, ALICE)).toBe(GENESIS_USDC_BALANCE);
  });

  it("bad signature (signed for another chain id): code 4, nothing changes", async () => {
    const app = newApp();
    const tx = await alice.sign({
      msgs: [send(ALICE, BOB, 1000n)],
      sequence: 0n,
      accountNumber: 0n,
      chainId: "other-1",
    });
    const { check } = run(app, tx);
    expect(check.code).toBe(4);
    expect(check.log).toBe(
      `signature verification failed; please verify account number (0) and chain-id (${CHAIN_ID}): (unable to verify single signer signature): unauthorized`,
    );
    expect(bankBalance(app, ALICE)).toBe(GENESIS_USDC_BALANCE);
    expect(accountInfo(app, ALICE).sequence).toBe(0n);
  });

  it("a signature by another key: code 8 (key does not match the signer)", async () => {
    const app = newApp();
    const bodyBytes = body({ msgs: [send(ALICE, BOB, 1n)], sequence: 0n, accountNumber: 0n });
    const authInfoBytes = makeAuthInfoBytes(
      [{ pubkey: bob.pubkeyAny, sequence: 0n }],
      [{ denom: "uusdc", amount: "5000" }],
      200_000,
      undefined,
      undefined,
    );
    const tx = txRaw(bodyBytes, authInfoBytes, new Uint8Array(64));
    const check = app.checkTx(tx);
    expect(check.code).toBe(8);
    expect(check.log).toContain("pubKey does not match signer address");
  });

  it("too-low fee: code 13 with got and required", async () => {
    const app = newApp();
    const tx = await alice.sign({
      msgs: [send(ALICE, BOB, 1000n)],
      sequence: 0n,
      accountNumber: 0n,
      fee: [{ denom: "uusdc", amount: "1" }],
      gas: 200_000n,
    });
    const { check } = run(app, tx);
    expect(check.code).toBe(13);
    expect(check.log).toBe(
      "insufficient fees; got: 1uusdc required: 5000000000000000aperpx,5000uusdc: insufficient fee",
    );
    expect(bankBalance(app, ALICE)).toBe(GENESIS_USDC_BALANCE);
  });

  it("a fee in the native denom alone is enough", async () => {
    const app = newApp();
    const tx = await alice.sign({
      msgs: [send(ALICE, BOB, 1n)],
      sequence: 0n,
      accountNumber: 0n,
      fee: [{ denom: "aperpx", amount: "5000000000000000" }],
      gas: 200_000n,
    });
    expect(run(app, tx).deliver?.code).toBe(0);
  });

  it("overspend: delivered with code 5; the fee is charged and the sequence bumped, nothing else", async () => {
    const app = newApp();
    const tx = await alice.sign({
      msgs: [send(ALICE, BOB, GENESIS_USDC_BALANCE * 2n)],
      sequence: 0n,
      accountNumber: 0n,
    });
    const { check, deliver } = run(app, tx);
    expect(check.code).toBe(0);
    expect(deliver?.code).toBe(5);
    expect(deliver?.log).toBe(
      `failed to execute message; message index: 0: spendable balance ${GENESIS_USDC_BALANCE - 5000n}uusdc is smaller than ${GENESIS_USDC_BALANCE * 2n}uusdc: insufficient funds`,
    );
    expect(bankBalance(app, ALICE)).toBe(GENESIS_USDC_BALANCE - 5000n);
    expect(bankBalance(app, BOB)).toBe(GENESIS_USDC_BALANCE);
    expect(accountInfo(app, ALICE).sequence).toBe(1n);
    expect(
      deliver?.events.some((e) => e.type === "transfer" && e.attributes.some((a) => a.value === BOB)),
    ).toBe(false);
  });

  it("out of gas in the messages: delivered with code 11; out of gas in the ante step: refused", async () => {
    const app = newApp();
    const simulated = app.simulate(
      await alice.sign({ msgs: [send(ALICE, BOB, 1n)], sequence: 0n, accountNumber: 0n }),
    );
    if (!simulated.ok) throw new Error(simulated.result.log);
    const tight = simulated.gasUsed - 1000n;
    const tx = await alice.sign({
      msgs: [send(ALICE, BOB, 1n)],
      sequence: 0n,
      accountNumber: 0n,
      gas: tight,
      fee: [{ denom: "uusdc", amount: "10000" }],
    });
    const { check, deliver } = run(app, tx);
    expect(check.code, check.log).toBe(0);
    expect(deliver?.code).toBe(11);
    expect(deliver?.log).toMatch(
      new RegExp(`^out of gas in location: \\w+; gasWanted: ${tight}, gasUsed: \\d+: out of gas$`),
    );
    expect(deliver?.gasUsed).toBeGreaterThan(tight);
    expect(bankBalance(app, ALICE)).toBe(GENESIS_USDC_BALANCE - 10000n);
    expect(bankBalance(app, BOB)).toBe(GENESIS_USDC_BALANCE);

    const tiny = await alice.sign({
      msgs: [send(ALICE, BOB, 1n)],
      sequence: 1n,
      accountNumber: 0n,
      gas: 100n,
      fee: [{ denom: "uusdc", amount: "10" }],
    });
    const refused = app.checkTx(tiny);
    expect(refused.code).toBe(11);
    expect(refused.log).toContain("out of gas in location: txSize");
  });

  it("unknown message: code 6 at CheckTx", async () => {
    const app = newApp();
    const tx = await alice.sign({
      msgs: [{ typeUrl: "/perpx.nothing.v1.MsgNothing", value: new Uint8Array() }],
      sequence: 0n,
      accountNumber: 0n,
    });
    const check = app.checkTx(tx);
    expect(check.code).toBe(6);
    expect(check.log).toContain("unrecognized");
    expect(check.log).toContain("message type");
  });

  it("invalid address (7) and invalid coins (10) at CheckTx", async () => {
    const app = newApp();
    const badAddress = await alice.sign({
      msgs: [send(ALICE, "perpx1notanaddress", 1n)],
      sequence: 0n,
      accountNumber: 0n,
    });
    expect(app.checkTx(badAddress).code).toBe(7);
    const zero = await alice.sign({ msgs: [send(ALICE, BOB, 0n)], sequence: 0n, accountNumber: 0n });
    expect(app.checkTx(zero).code).toBe(10);
  });

  it("a failing second message rolls back the first", async () => {
    const app = newApp();
    const tx = await alice.sign({
      msgs: [send(ALICE, BOB, 10n), send(ALICE, CARL, GENESIS_USDC_BALANCE * 2n)],
      sequence: 0n,
      accountNumber: 0n,
    });
    const { deliver } = run(app, tx);
    expect(deliver?.code).toBe(5);
    expect(deliver?.log).toMatch(/^failed to execute message; message index: 1: /);
    expect(bankBalance(app, BOB)).toBe(GENESIS_USDC_BALANCE);
    expect(bankBalance(app, CARL)).toBe(GENESIS_USDC_BALANCE);
    expect(bankBalance(app, ALICE)).toBe(GENESIS_USDC_BALANCE - 5000n);
  });
});

describe("eth_secp256k1 keys", () => {
  it("verifies a tx signed with Keccak-256 and a 65-byte signature", async () => {
    const app = newApp();
    const secret = sha256(new TextEncoder().encode("eth test key"));
    const compressed = secp256k1.getPublicKey(secret, true);
    const address = keccak_256(secp256k1.getPublicKey(secret, false).subarray(1)).subarray(12);
    const owner = bech32Of(address);
    app.control.fund(owner, [{ denom: "uusdc", amount: 1_000_000n }]);
    const number = accountInfo(app, owner).accountNumber;
    const pubkey = packAny(ethSecp256k1.PubKeySchema, create(ethSecp256k1.PubKeySchema, { key: compressed }));
    const bodyBytes = body({ msgs: [send(owner, BOB, 10n)], sequence: 0n, accountNumber: number });
    const authInfoBytes = makeAuthInfoBytes(
      [{ pubkey, sequence: 0n }],
      [{ denom: "uusdc", amount: "5000" }],
      200_000,
      undefined,
      undefined,
    );
    const signDoc = toBinary(
      cosmosTx.SignDocSchema,
      create(cosmosTx.SignDocSchema, { bodyBytes, authInfoBytes, chainId: CHAIN_ID, accountNumber: number }),
    );
    const signature = secp256k1.sign(keccak_256(signDoc), secret, { prehash: false, format: "recovered" });
    expect(signature.length).toBe(65);
    const rsv = new Uint8Array([...signature.subarray(1), signature[0] as number]);
    const { check, deliver } = run(app, txRaw(bodyBytes, authInfoBytes, rsv));
    expect(check.code, check.log).toBe(0);
    expect(deliver?.code, deliver?.log).toBe(0);
    expect(bankBalance(app, owner)).toBe(1_000_000n - 10n - 5000n);
    expect(accountInfo(app, owner).pubKey?.typeUrl).toBe("/cosmos.evm.crypto.v1.ethsecp256k1.PubKey");

    // The same key read as a Cosmos secp256k1 key names another address: refused.
    const wrong = packAny(
      cosmosSecp256k1.PubKeySchema,
      create(cosmosSecp256k1.PubKeySchema, { key: compressed }),
    );
    const wrongAuth = makeAuthInfoBytes(
      [{ pubkey: wrong, sequence: 1n }],
      [{ denom: "uusdc", amount: "5000" }],
      200_000,
      undefined,
      undefined,
    );
    expect(app.checkTx(txRaw(bodyBytes, wrongAuth, rsv.subarray(0, 64))).code).toBe(8);
  });
});

describe("timestamp nonces", () => {
  it("accepts a fresh nonce within 30 s without bumping the sequence, and rejects reuse and stale ones", async () => {
    const app = newApp();
    const now = BigInt(app.latestBlock().time.getTime());
    const first = await alice.sign({ msgs: [send(ALICE, BOB, 1n)], sequence: now + 10n, accountNumber: 0n });
    expect(run(app, first).deliver?.code).toBe(0);
    expect(accountInfo(app, ALICE).sequence).toBe(0n);
    // Reuse: same nonce, different body.
    const reuse = await alice.sign({ msgs: [send(ALICE, BOB, 2n)], sequence: now + 10n, accountNumber: 0n });
    const rejected = app.checkTx(reuse);
    expect(rejected.code).toBe(32);
    expect(rejected.log).toBe(`timestamp nonce ${now + 10n} rejected: incorrect account sequence`);
    const stale = await alice.sign({
      msgs: [send(ALICE, BOB, 3n)],
      sequence: now - 60_000n,
      accountNumber: 0n,
    });
    const old = app.checkTx(stale);
    expect(old.code).toBe(32);
    expect(old.log).toBe(
      `timestamp nonce ${now - 60_000n} not within valid time window: incorrect account sequence`,
    );
    // The regular sequence still works.
    const regular = await alice.sign({ msgs: [send(ALICE, BOB, 4n)], sequence: 0n, accountNumber: 0n });
    expect(run(app, regular).deliver?.code).toBe(0);
  });
});

describe("more of the SDK's rules", () => {
  it("garbage bytes: code 2 (tx parse error)", () => {
    const app = newApp();
    const result = app.checkTx(new Uint8Array([0xff, 0xff, 0xff]));
    expect([result.codespace, result.code]).toEqual(["sdk", 2]);
    expect(result.log).toMatch(/tx parse error$/);
  });

  it("memo over 256 bytes: code 12; past the timeout height: code 30", async () => {
    const app = newApp();
    const long = await alice.sign({
      msgs: [send(ALICE, BOB, 1n)],
      sequence: 0n,
      accountNumber: 0n,
      memo: "x".repeat(257),
    });
    const memo = app.checkTx(long);
    expect(memo.code).toBe(12);
    expect(memo.log).toBe("maximum number of characters is 256 but received 257 characters: memo too large");
    nextBlock(app);
    const bodyBytes = toBinary(
      cosmosTx.TxBodySchema,
      create(cosmosTx.TxBodySchema, { messages: [send(ALICE, BOB, 1n)], timeoutHeight: 1n }),
    );
    const authInfoBytes = makeAuthInfoBytes(
      [{ pubkey: alice.pubkeyAny, sequence: 0n }],
      [{ denom: "uusdc", amount: "5000" }],
      200_000,
      undefined,
      undefined,
    );
    const timedOut = app.checkTx(txRaw(bodyBytes, authInfoBytes, new Uint8Array(64)));
    expect(timedOut.code).toBe(30);
    expect(timedOut.log).toBe("block height: 2, timeout height: 1: tx timeout height");
  });

  it("a critical extension option: code 31", () => {
    const app = newApp();
    const bodyBytes = toBinary(
      cosmosTx.TxBodySchema,
      create(cosmosTx.TxBodySchema, {
        messages: [send(ALICE, BOB, 1n)],
        extensionOptions: [
          { $typeName: "google.protobuf.Any", typeUrl: "/x.y.Ext", value: new Uint8Array() },
        ],
      }),
    );
    const authInfoBytes = makeAuthInfoBytes(
      [{ pubkey: alice.pubkeyAny, sequence: 0n }],
      [],
      200_000,
      undefined,
      undefined,
    );
    expect(app.checkTx(txRaw(bodyBytes, authInfoBytes, new Uint8Array(64))).code).toBe(31);
  });

  it("MultiSend: one input, several outputs, a transfer event per output; mismatched sums refused", async () => {
    const app = newApp();
    const coin = (amount: bigint) => [
      { $typeName: "cosmos.base.v1beta1.Coin" as const, denom: "uusdc", amount: amount.toString() },
    ];
    const multi = (outputs: [string, bigint][], input: bigint) =>
      any(
        cosmosBank.MsgMultiSendSchema,
        create(cosmosBank.MsgMultiSendSchema, {
          inputs: [{ $typeName: "cosmos.bank.v1beta1.Input", address: ALICE, coins: coin(input) }],
          outputs: outputs.map(([address, amount]) => ({
            $typeName: "cosmos.bank.v1beta1.Output" as const,
            address,
            coins: coin(amount),
          })),
        }),
      );
    const bad = await alice.sign({
      msgs: [
        multi(
          [
            [BOB, 1n],
            [CARL, 2n],
          ],
          4n,
        ),
      ],
      sequence: 0n,
      accountNumber: 0n,
    });
    const refused = app.checkTx(bad);
    expect([refused.codespace, refused.code]).toEqual(["bank", 4]);
    const good = await alice.sign({
      msgs: [
        multi(
          [
            [BOB, 1n],
            [CARL, 2n],
          ],
          3n,
        ),
      ],
      sequence: 0n,
      accountNumber: 0n,
    });
    const { deliver } = run(app, good);
    expect(deliver?.code, deliver?.log).toBe(0);
    expect(bankBalance(app, BOB)).toBe(GENESIS_USDC_BALANCE + 1n);
    expect(bankBalance(app, CARL)).toBe(GENESIS_USDC_BALANCE + 2n);
    expect(bankBalance(app, ALICE)).toBe(GENESIS_USDC_BALANCE - 3n - 5000n);
    const transfers = deliver?.events.filter(
      (e) => e.type === "transfer" && e.attributes.some((a) => a.key === "msg_index"),
    );
    expect(transfers?.map((e) => e.attributes.find((a) => a.key === "recipient")?.value)).toEqual([
      BOB,
      CARL,
    ]);
  });

  it("refuses sends to module accounts (code 4) at delivery, charging the fee", async () => {
    const app = newApp();
    const tx = await alice.sign({ msgs: [send(ALICE, FEE_COLLECTOR, 1n)], sequence: 0n, accountNumber: 0n });
    const { deliver } = run(app, tx);
    expect(deliver?.code).toBe(4);
    expect(deliver?.log).toContain("is not allowed to receive funds");
  });
});
