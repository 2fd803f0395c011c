/** CheckTx, the mempool, delivery in a block and simulation of signed txs. */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { makeAuthInfoBytes } from "@cosmjs/proto-signing";
import { sha256 } from "@noble/hashes/sha2.js";
import { cosmosTx } from "@perpx/proto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ALICE,
  BOB,
  body,
  CARL,
  FEE_COLLECTOR,
  genesisSigners,
  newApp,
  nextBlock,
  run,
  type Signer,
  send,
  UNSPECIFIED_MODE,
} from "../../../test/support/app-harness.js";
import { accountInfo, bankBalance } from "../../../test/support/app-query.js";
import { GENESIS_USDC_BALANCE } from "../genesis/genesis-accounts.js";

let alice: Signer;

beforeAll(async () => {
  ({ alice } = await genesisSigners());
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
