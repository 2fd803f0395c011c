import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet, encodePubkey, makeAuthInfoBytes, makeSignDoc } from "@cosmjs/proto-signing";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import {
  cosmosAuth,
  cosmosBank,
  cosmosNode,
  cosmosSecp256k1,
  cosmosTendermint,
  cosmosTx,
  cosmosTxSigning,
  cosmosUpgrade,
  ethSecp256k1,
  ibcChannel,
  packAny,
} from "@perpx/proto";
import { beforeAll, describe, expect, it } from "vitest";
import { accountInfo, bankBalance } from "../../test/support/app-query.js";
import { chainState } from "../../test/support/chain-state.js";
import { bech32Of, moduleAddress } from "./addresses.js";
import { createChainApp } from "./app.js";
import type { PersistentChainApp, TxResult } from "./contract.js";
import { GENESIS_ACCOUNTS, GENESIS_USDC_BALANCE } from "./genesis-accounts.js";

/** SIGN_MODE_UNSPECIFIED, as cosmjs's simulation sends it (cosmjs types its own enum). */
const UNSPECIFIED_MODE = cosmosTxSigning.SignMode.UNSPECIFIED as number as Parameters<
  typeof makeAuthInfoBytes
>[5];

const GENESIS_TIME = new Date("2026-01-01T00:00:00Z");
const CHAIN_ID = "perpx-local-1";
const [ALICE, BOB, CARL] = GENESIS_ACCOUNTS.map((a) => a.address) as [string, string, string];
const FEE_COLLECTOR = bech32Of(moduleAddress("fee_collector"));

type Signer = Awaited<ReturnType<typeof walletSigner>>;

/** A cosmjs wallet that signs SIGN_MODE_DIRECT txs whose body is built with @perpx/proto. */
async function walletSigner(mnemonic: string) {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(mnemonic, { prefix: "perpx" });
  const [account] = await wallet.getAccounts();
  if (account === undefined) throw new Error("no account");
  return {
    address: account.address,
    pubkeyAny: encodePubkey(encodeSecp256k1Pubkey(account.pubkey)),
    async sign(options: TxOptions): Promise<Uint8Array> {
      const bodyBytes = body(options);
      const authInfoBytes = makeAuthInfoBytes(
        [{ pubkey: this.pubkeyAny, sequence: options.sequence }],
        options.fee ?? [{ denom: "uusdc", amount: "5000" }],
        Number(options.gas ?? 200_000n),
        undefined,
        undefined,
      );
      const doc = makeSignDoc(bodyBytes, authInfoBytes, options.chainId ?? CHAIN_ID, options.accountNumber);
      const { signature } = await wallet.signDirect(account.address, doc);
      return txRaw(bodyBytes, authInfoBytes, Buffer.from(signature.signature, "base64"));
    },
  };
}

interface TxOptions {
  msgs: { typeUrl: string; value: Uint8Array }[];
  sequence: bigint;
  accountNumber: bigint;
  fee?: { denom: string; amount: string }[];
  gas?: bigint;
  chainId?: string;
  memo?: string;
}

function any<Desc extends DescMessage>(schema: Desc, value: MessageShape<Desc>) {
  return packAny(schema, value);
}

function body(options: TxOptions): Uint8Array {
  return toBinary(
    cosmosTx.TxBodySchema,
    create(cosmosTx.TxBodySchema, {
      messages: options.msgs.map((m) => ({ $typeName: "google.protobuf.Any" as const, ...m })),
      memo: options.memo ?? "",
    }),
  );
}

function txRaw(bodyBytes: Uint8Array, authInfoBytes: Uint8Array, signature: Uint8Array): Uint8Array {
  return toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] }),
  );
}

function send(from: string, to: string, amount: bigint, denom = "uusdc") {
  return any(
    cosmosBank.MsgSendSchema,
    create(cosmosBank.MsgSendSchema, {
      fromAddress: from,
      toAddress: to,
      amount: [{ $typeName: "cosmos.base.v1beta1.Coin", denom, amount: amount.toString() }],
    }),
  );
}

function newApp(profile: "local" | "testnet" | "mainnet" = "local"): PersistentChainApp {
  return createChainApp({ profile, genesisTime: GENESIS_TIME });
}

let clock = GENESIS_TIME.getTime();
function nextBlock(app: PersistentChainApp) {
  clock += 1000;
  return app.produceBlock(new Date(clock));
}

/** Checks and delivers one tx; returns the CheckTx result and the delivery result (if it was queued). */
function run(app: PersistentChainApp, tx: Uint8Array): { check: TxResult; deliver: TxResult | undefined } {
  const check = app.checkTx(tx);
  if (check.code !== 0) return { check, deliver: undefined };
  const block = nextBlock(app);
  const index = block.txs.length - 1;
  return { check, deliver: block.txResults[index] };
}

let alice: Signer;
let bob: Signer;

beforeAll(async () => {
  alice = await walletSigner((GENESIS_ACCOUNTS[0] as { mnemonic: string }).mnemonic);
  bob = await walletSigner((GENESIS_ACCOUNTS[1] as { mnemonic: string }).mnemonic);
});

describe("genesis and queries", () => {
  it("starts at height 1 on the local profile with funded accounts and module accounts", () => {
    const app = newApp();
    expect(app.latestBlock().height).toBe(1n);
    expect(app.info.chainId).toBe(CHAIN_ID);
    expect(app.info.evmChainId).toBe(31337);
    expect(bankBalance(app, ALICE)).toBe(GENESIS_USDC_BALANCE);
    expect(accountInfo(app, ALICE).accountNumber).toBe(0n);
    expect(accountInfo(app, CARL).accountNumber).toBe(2n);
    const res = app.query(
      "/cosmos.auth.v1beta1.Query/ModuleAccountByName",
      toBinary(
        cosmosAuth.QueryModuleAccountByNameRequestSchema,
        create(cosmosAuth.QueryModuleAccountByNameRequestSchema, { name: "fee_collector" }),
      ),
    );
    expect(res.code).toBe(0);
    const any = fromBinary(cosmosAuth.QueryModuleAccountByNameResponseSchema, res.value).account;
    expect(any?.typeUrl).toBe("/cosmos.auth.v1beta1.ModuleAccount");
    expect(
      fromBinary(cosmosAuth.ModuleAccountSchema, any?.value ?? new Uint8Array()).baseAccount?.address,
    ).toBe(FEE_COLLECTOR);
  });

  it("answers an unknown account with code 22 and the log cosmjs turns into null", () => {
    const app = newApp();
    const stranger = bech32Of(new Uint8Array(20).fill(7));
    const res = app.query(
      "/cosmos.auth.v1beta1.Query/Account",
      toBinary(
        cosmosAuth.QueryAccountRequestSchema,
        create(cosmosAuth.QueryAccountRequestSchema, { address: stranger }),
      ),
    );
    expect(res.code).toBe(22);
    expect(res.codespace).toBe("sdk");
    expect(res.log).toBe(`rpc error: code = NotFound desc = account ${stranger} not found: key not found`);
    expect(res.height).toBe(1n);
  });

  it("answers an unknown path with code 6 and always reports the latest height", () => {
    const app = newApp();
    nextBlock(app);
    const res = app.query("/cosmos.nothing.v1.Query/Nothing", new Uint8Array());
    expect(res.code).toBe(6);
    expect(res.height).toBe(2n);
  });

  it("serves node config, node info, the IBC channel and the upgrade history of testnet", () => {
    const app = newApp("testnet");
    expect(app.latestBlock().height).toBe(5_016_945n);
    expect(app.info.initialHeight).toBe(5_016_945n);
    expect(app.info.appVersion).toBe("v27.5");
    const applied = (name: string) =>
      fromBinary(
        cosmosUpgrade.QueryAppliedPlanResponseSchema,
        app.query(
          "/cosmos.upgrade.v1beta1.Query/AppliedPlan",
          toBinary(
            cosmosUpgrade.QueryAppliedPlanRequestSchema,
            create(cosmosUpgrade.QueryAppliedPlanRequestSchema, { name }),
          ),
        ).value,
      ).height;
    expect(applied("v27.0")).toBe(4_403_000n);
    expect(applied("v9.9")).toBe(0n);
    const info = fromBinary(
      cosmosTendermint.GetNodeInfoResponseSchema,
      app.query("/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo", new Uint8Array()).value,
    );
    expect(info.applicationVersion?.version).toBe("v27.5");
    expect(info.defaultNodeInfo?.network).toBe("perpx-testnet-1");
    const config = fromBinary(
      cosmosNode.ConfigResponseSchema,
      app.query("/cosmos.base.node.v1beta1.Service/Config", new Uint8Array()).value,
    );
    expect(config.minimumGasPrice).toBe("25000000000.000000000000000000aperpx,0.025000000000000000uusdc");
    const channels = fromBinary(
      ibcChannel.QueryChannelsResponseSchema,
      app.query("/ibc.core.channel.v1.Query/Channels", new Uint8Array()).value,
    );
    expect(channels.channels).toHaveLength(1);
    expect(channels.channels[0]?.channelId).toBe("channel-0");
    expect(channels.channels[0]?.state).toBe(ibcChannel.State.OPEN);
    expect(channels.channels[0]?.counterparty?.channelId).toBe("channel-0");
  });
});

describe("bank send", () => {
  it("moves balances and the fee, bumps the sequence, sets the public key, and is searchable", async () => {
    const app = newApp();
    const tx = await alice.sign({ msgs: [send(ALICE, BOB, 1000n)], sequence: 0n, accountNumber: 0n });
    const { check, deliver } = run(app, tx);
    expect(check.code, check.log).toBe(0);
    expect(deliver?.code, deliver?.log).toBe(0);
    expect(bankBalance(app, ALICE)).toBe(GENESIS_USDC_BALANCE - 1000n - 5000n);
    expect(bankBalance(app, BOB)).toBe(GENESIS_USDC_BALANCE + 1000n);
    expect(bankBalance(app, FEE_COLLECTOR)).toBe(5000n);
    const info = accountInfo(app, ALICE);
    expect(info.sequence).toBe(1n);
    expect(info.pubKey?.typeUrl).toBe("/cosmos.crypto.secp256k1.PubKey");
    const types = deliver?.events.map((e) => e.type) ?? [];
    for (const type of ["coin_spent", "coin_received", "transfer", "tx", "message"])
      expect(types).toContain(type);
    const acc = deliver?.events.find((e) => e.attributes.some((a) => a.key === "acc_seq"));
    expect(acc?.attributes[0]?.value).toBe(`${ALICE}/0`);
    const action = deliver?.events.find((e) => e.attributes.some((a) => a.key === "action"));
    expect(action?.attributes.map((a) => [a.key, a.value])).toEqual([
      ["action", "/cosmos.bank.v1beta1.MsgSend"],
      ["sender", ALICE],
      ["module", "bank"],
      ["msg_index", "0"],
    ]);
    expect(app.searchTxs(`message.sender='${ALICE}'`, "asc")).toHaveLength(1);
    expect(app.searchTxs(`transfer.recipient='${BOB}' AND tx.height=2`, "asc")).toHaveLength(1);
    expect(app.searchTxs(`transfer.recipient='${CARL}'`, "asc")).toHaveLength(0);
    const hash = sha256(tx);
    expect(app.tx(hash)?.height).toBe(2n);
    const getTx = app.query(
      "/cosmos.tx.v1beta1.Service/GetTx",
      toBinary(
        cosmosTx.GetTxRequestSchema,
        create(cosmosTx.GetTxRequestSchema, { hash: Buffer.from(hash).toString("hex") }),
      ),
    );
    expect(getTx.code, getTx.log).toBe(0);
    expect(fromBinary(cosmosTx.GetTxResponseSchema, getTx.value).txResponse?.height).toBe(2n);
    const byEvents = fromBinary(
      cosmosTx.GetTxsEventResponseSchema,
      app.query(
        "/cosmos.tx.v1beta1.Service/GetTxsEvent",
        toBinary(
          cosmosTx.GetTxsEventRequestSchema,
          create(cosmosTx.GetTxsEventRequestSchema, { query: `message.sender='${ALICE}'` }),
        ),
      ).value,
    );
    expect(byEvents.total).toBe(1n);
    // The event index (built when a search needs it) takes in the blocks committed since.
    const second = await alice.sign({ msgs: [send(ALICE, CARL, 7n)], sequence: 1n, accountNumber: 0n });
    expect(run(app, second).deliver?.code).toBe(0);
    expect(app.searchTxs(`message.sender='${ALICE}'`, "asc").map((t) => t.height)).toEqual([2n, 3n]);
    expect(app.searchTxs(`transfer.recipient='${CARL}'`, "asc").map((t) => t.height)).toEqual([3n]);
  });

  it("rejects a duplicate of a queued tx with code 19", async () => {
    const app = newApp();
    const tx = await alice.sign({ msgs: [send(ALICE, BOB, 1n)], sequence: 0n, accountNumber: 0n });
    expect(app.checkTx(tx).code).toBe(0);
    expect(app.checkTx(tx).code).toBe(19);
    expect(app.pendingTxCount()).toBe(1);
  });

  it("queues consecutive sequences of one account within a block", async () => {
    const app = newApp();
    for (let sequence = 0n; sequence < 3n; sequence++) {
      const tx = await alice.sign({ msgs: [send(ALICE, BOB, 1n)], sequence, accountNumber: 0n });
      expect(app.checkTx(tx).code).toBe(0);
    }
    const block = nextBlock(app);
    // The first tx of every block is the proposer's operations.
    expect(block.txResults.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(accountInfo(app, ALICE).sequence).toBe(3n);
  });
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
      `signature verification failed; please verify account number (0) and chain-id (${CHAIN_ID}): unauthorized`,
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

describe("simulation", () => {
  it("estimates exactly the gas delivery uses with that limit", async () => {
    const app = newApp();
    const unsigned = toBinary(
      cosmosTx.TxRawSchema,
      create(cosmosTx.TxRawSchema, {
        bodyBytes: body({ msgs: [send(ALICE, BOB, 7n)], sequence: 0n, accountNumber: 0n }),
        authInfoBytes: makeAuthInfoBytes(
          [{ pubkey: alice.pubkeyAny, sequence: 0n }],
          [],
          0,
          undefined,
          undefined,
          UNSPECIFIED_MODE,
        ),
        signatures: [new Uint8Array()],
      }),
    );
    const sim = app.query(
      "/cosmos.tx.v1beta1.Service/Simulate",
      toBinary(cosmosTx.SimulateRequestSchema, create(cosmosTx.SimulateRequestSchema, { txBytes: unsigned })),
    );
    expect(sim.code, sim.log).toBe(0);
    const gasUsed = fromBinary(cosmosTx.SimulateResponseSchema, sim.value).gasInfo?.gasUsed ?? 0n;
    expect(gasUsed).toBeGreaterThan(0n);
    const fee = (gasUsed * 25n + 999n) / 1000n;
    const tx = await alice.sign({
      msgs: [send(ALICE, BOB, 7n)],
      sequence: 0n,
      accountNumber: 0n,
      gas: gasUsed,
      fee: [{ denom: "uusdc", amount: fee.toString() }],
    });
    const { check, deliver } = run(app, tx);
    expect(check.code, check.log).toBe(0);
    expect(deliver?.code, deliver?.log).toBe(0);
    expect(deliver?.gasUsed).toBe(gasUsed);
  });

  it("reports a simulation failure as code 6 with the cause in the log", async () => {
    const app = newApp();
    const tx = await alice.sign({ msgs: [send(ALICE, BOB, 7n)], sequence: 3n, accountNumber: 0n });
    const sim = app.query(
      "/cosmos.tx.v1beta1.Service/Simulate",
      toBinary(cosmosTx.SimulateRequestSchema, create(cosmosTx.SimulateRequestSchema, { txBytes: tx })),
    );
    expect(sim.code).toBe(6);
    expect(sim.log).toContain("account sequence mismatch, expected 0, got 3");
    const raw = app.query("/app/simulate", tx);
    expect(raw.code).toBe(32);
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

describe("state", () => {
  async function script(app: PersistentChainApp, from: bigint) {
    for (let sequence = from; sequence < from + 3n; sequence++) {
      app.checkTx(
        await alice.sign({ msgs: [send(ALICE, BOB, 100n + sequence)], sequence, accountNumber: 0n }),
      );
      app.produceBlock(new Date(GENESIS_TIME.getTime() + Number(sequence + 1n) * 1000));
    }
  }

  it("two apps fed the same calls produce the same blocks, app hashes and state bytes", async () => {
    const a = newApp();
    const b = newApp();
    await script(a, 0n);
    await script(b, 0n);
    expect(a.latestBlock().hash).toEqual(b.latestBlock().hash);
    expect(a.latestBlock().appHash).toEqual(b.latestBlock().appHash);
    expect(chainState(a)).toEqual(chainState(b));
    expect(a.latestBlock().appHash).not.toEqual(a.block(2n)?.appHash);
  });

  it("export/restore yields identical state and continues identically", async () => {
    const a = newApp();
    await script(a, 0n);
    a.control.fund(CARL, [{ denom: "aperpx", amount: 5n }]);
    a.control.advanceTime(60_000);
    const state = chainState(a);
    const b = createChainApp({ profile: "local", genesisTime: new Date(0), state });
    expect(chainState(b)).toEqual(state);
    expect(b.latestBlock()).toEqual(a.latestBlock());
    expect(b.genesisJson()).toEqual(a.genesisJson());
    expect(bankBalance(b, BOB)).toBe(bankBalance(a, BOB));
    expect(b.searchTxs(`message.sender='${ALICE}'`, "asc")).toHaveLength(3);
    await script(a, 3n);
    await script(b, 3n);
    expect(b.latestBlock().hash).toEqual(a.latestBlock().hash);
    expect(chainState(b)).toEqual(chainState(a));
    expect(() => createChainApp({ profile: "testnet", genesisTime: new Date(0), state })).toThrow(/profile/);
  });

  it("exports each block on its own, and a snapshot whose size does not grow with the chain", () => {
    const a = newApp();
    expect(a.exportBlock(0n)).toBeUndefined();
    expect(a.exportBlock(2n)).toBeUndefined();
    const first = a.exportSnapshot().length;
    for (let i = 1; i <= 50; i++) a.produceBlock(new Date(GENESIS_TIME.getTime() + i * 1000));
    // Empty blocks change a few fixed-size values (oracle prices, the clock), never add entries.
    expect(a.exportSnapshot().length).toBeLessThan(first + 200);
    expect(chainState(a).blocks).toHaveLength(51);
  });

  it("refuses a snapshot paired with the wrong blocks", async () => {
    const a = newApp();
    await script(a, 0n);
    const state = chainState(a);
    const resume = (blocks: Uint8Array[]) =>
      createChainApp({
        profile: "local",
        genesisTime: new Date(0),
        state: { snapshot: state.snapshot, blocks },
      });
    expect(() => resume(state.blocks.slice(0, -1))).toThrow(/follows 4 blocks, but 3/);
    expect(() => resume([state.blocks[0]!, state.blocks[2]!, state.blocks[1]!, state.blocks[3]!])).toThrow(
      /height 3, not 2/,
    );
    expect(() =>
      createChainApp({
        profile: "local",
        genesisTime: new Date(0),
        state: { snapshot: state.blocks[0]!, blocks: [] },
      }),
    ).toThrow(/not a perpx devnet snapshot/);
  });
});

describe("control", () => {
  it("fund mints into an account (creating it) with events in the next block; advanceTime shifts block time", () => {
    const app = newApp();
    const stranger = bech32Of(new Uint8Array(20).fill(9));
    app.control.fund(stranger, [{ denom: "uusdc", amount: 42n }]);
    expect(bankBalance(app, stranger)).toBe(42n);
    expect(accountInfo(app, stranger).accountNumber).toBeGreaterThan(4n);
    app.control.advanceTime(3_600_000);
    const block = app.produceBlock(new Date(GENESIS_TIME.getTime() + 1000));
    expect(block.time.getTime()).toBe(GENESIS_TIME.getTime() + 1000 + 3_600_000);
    const types = block.finalizeBlockEvents.map((e) => e.type);
    expect(types).toContain("coinbase");
    expect(types).toContain("transfer");
    const supply = app.query(
      "/cosmos.bank.v1beta1.Query/SupplyOf",
      toBinary(
        cosmosBank.QuerySupplyOfRequestSchema,
        create(cosmosBank.QuerySupplyOfRequestSchema, { denom: "uusdc" }),
      ),
    );
    expect(fromBinary(cosmosBank.QuerySupplyOfResponseSchema, supply.value).amount?.amount).toBe(
      (GENESIS_USDC_BALANCE * 5n + 42n).toString(),
    );
  });

  it("block times never go backwards", () => {
    const app = newApp();
    const block = app.produceBlock(new Date(0));
    expect(block.time.getTime()).toBe(GENESIS_TIME.getTime() + 1);
  });
});

describe("query paths", () => {
  it("answers every path the servers route, with a decodable response", async () => {
    const app = newApp();
    const tx = await alice.sign({ msgs: [send(ALICE, BOB, 1n)], sequence: 0n, accountNumber: 0n });
    run(app, tx);
    const req = <D extends DescMessage>(schema: D, init: Parameters<typeof create<D>>[1]) =>
      toBinary(schema, create(schema, init));
    const cases: [string, Uint8Array, DescMessage][] = [
      [
        "/cosmos.auth.v1beta1.Query/Account",
        req(cosmosAuth.QueryAccountRequestSchema, { address: ALICE }),
        cosmosAuth.QueryAccountResponseSchema,
      ],
      ["/cosmos.auth.v1beta1.Query/Accounts", new Uint8Array(), cosmosAuth.QueryAccountsResponseSchema],
      ["/cosmos.auth.v1beta1.Query/Params", new Uint8Array(), cosmosAuth.QueryParamsResponseSchema],
      [
        "/cosmos.auth.v1beta1.Query/AccountInfo",
        req(cosmosAuth.QueryAccountInfoRequestSchema, { address: ALICE }),
        cosmosAuth.QueryAccountInfoResponseSchema,
      ],
      [
        "/cosmos.bank.v1beta1.Query/AllBalances",
        req(cosmosBank.QueryAllBalancesRequestSchema, { address: ALICE }),
        cosmosBank.QueryAllBalancesResponseSchema,
      ],
      [
        "/cosmos.bank.v1beta1.Query/SpendableBalances",
        req(cosmosBank.QuerySpendableBalancesRequestSchema, { address: ALICE }),
        cosmosBank.QuerySpendableBalancesResponseSchema,
      ],
      ["/cosmos.bank.v1beta1.Query/TotalSupply", new Uint8Array(), cosmosBank.QueryTotalSupplyResponseSchema],
      ["/cosmos.bank.v1beta1.Query/Params", new Uint8Array(), cosmosBank.QueryParamsResponseSchema],
      [
        "/cosmos.bank.v1beta1.Query/DenomMetadata",
        req(cosmosBank.QueryDenomMetadataRequestSchema, { denom: "uusdc" }),
        cosmosBank.QueryDenomMetadataResponseSchema,
      ],
      [
        "/cosmos.base.tendermint.v1beta1.Service/GetLatestBlock",
        new Uint8Array(),
        cosmosTendermint.GetLatestBlockResponseSchema,
      ],
      [
        "/cosmos.base.tendermint.v1beta1.Service/GetBlockByHeight",
        req(cosmosTendermint.GetBlockByHeightRequestSchema, { height: 2n }),
        cosmosTendermint.GetBlockByHeightResponseSchema,
      ],
      [
        "/cosmos.base.tendermint.v1beta1.Service/GetSyncing",
        new Uint8Array(),
        cosmosTendermint.GetSyncingResponseSchema,
      ],
      [
        "/cosmos.base.tendermint.v1beta1.Service/GetLatestValidatorSet",
        new Uint8Array(),
        cosmosTendermint.GetLatestValidatorSetResponseSchema,
      ],
      ["/cosmos.base.node.v1beta1.Service/Status", new Uint8Array(), cosmosNode.StatusResponseSchema],
      [
        "/cosmos.upgrade.v1beta1.Query/CurrentPlan",
        new Uint8Array(),
        cosmosUpgrade.QueryCurrentPlanResponseSchema,
      ],
      [
        "/ibc.core.channel.v1.Query/Channel",
        req(ibcChannel.QueryChannelRequestSchema, { portId: "transfer", channelId: "channel-0" }),
        ibcChannel.QueryChannelResponseSchema,
      ],
    ];
    for (const [path, data, schema] of cases) {
      const res = app.query(path, data);
      expect(res.code, `${path}: ${res.log}`).toBe(0);
      expect(res.height).toBe(2n);
      expect(() => fromBinary(schema, res.value)).not.toThrow();
    }
    const all = fromBinary(
      cosmosBank.QueryAllBalancesResponseSchema,
      app.query(cases[4]![0], cases[4]![1]).value,
    );
    expect(all.balances.map((c) => c.denom)).toEqual(["aperpx", "uusdc"]);
    const latest = fromBinary(
      cosmosTendermint.GetLatestBlockResponseSchema,
      app.query(cases[9]![0], cases[9]![1]).value,
    );
    expect(latest.sdkBlock?.header?.height).toBe(2n);
    expect(latest.sdkBlock?.header?.proposerAddress).toMatch(/^perpxvalcons1/);
    expect(latest.blockId?.hash).toEqual(app.latestBlock().hash);
    expect(latest.block?.data?.txs).toHaveLength(2); // the proposer's operations, then the tx
    const status = fromBinary(
      cosmosNode.StatusResponseSchema,
      app.query(cases[13]![0], new Uint8Array()).value,
    );
    expect(status.appHash).toEqual(app.latestBlock().resultAppHash);
    expect(
      app.query(
        "/cosmos.base.tendermint.v1beta1.Service/GetBlockByHeight",
        req(cosmosTendermint.GetBlockByHeightRequestSchema, { height: 9n }),
      ).code,
    ).toBe(18);
    expect(app.query("/cosmos.bank.v1beta1.Query/Balance", new Uint8Array(), 99n).code).toBe(26);
    expect(app.query("/cosmos.bank.v1beta1.Query/Balance", new Uint8Array(), 1n).code).toBe(18);
  });

  it("prints the genesis document with every module's state", () => {
    const genesis = newApp("mainnet").genesisJson() as {
      chain_id: string;
      initial_height: string;
      app_state: Record<string, unknown>;
    };
    expect(genesis.chain_id).toBe("perpx-mainnet-1");
    expect(genesis.initial_height).toBe("12960192");
    expect(Object.keys(genesis.app_state)).toEqual(
      expect.arrayContaining([
        "auth",
        "bank",
        "assets",
        "ibc",
        "wrap",
        "bridge",
        "ratelimit",
        "clob",
        "upgrade",
      ]),
    );
    const wrapState = JSON.stringify(genesis.app_state.wrap);
    expect(wrapState).toContain('"channel_id":"channel-0"');
    expect(wrapState).toContain('"local_denom":"uusdc"');
    expect(JSON.stringify(genesis.app_state.bridge)).toMatch(/"eth_address":"0x[0-9a-fA-F]{40}"/);
    expect(JSON.stringify(genesis.app_state.assets)).toContain('"denom":"uusdc"');
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
