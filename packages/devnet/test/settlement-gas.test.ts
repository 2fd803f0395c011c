/**
 * The gas, codes and app hashes of a run of fills, pinned: settlement reads each record once per
 * check or fill (`lib/read-memo.ts`), and a client sees no difference (gas used is what every read
 * would have charged). Runs the chain application directly, with fixed block times.
 */
import { createHash } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { affiliates, clob } from "@perpx/proto";
import { beforeAll, describe, expect, it } from "vitest";
import { createChainApp } from "../src/app/app.js";
import type { PersistentChainApp, TxResult } from "../src/app/contract.js";
import { GENESIS_ACCOUNTS } from "../src/app/genesis/genesis-accounts.js";
import { type OrderSpec, placeMsg, signMsgs, type TestSigner, testSigner } from "./support/clob-tx.js";

const GENESIS_TIME = new Date("2026-01-01T00:00:00Z");
const PRICE = 6_500_000_000n;

let alice: TestSigner;
let bob: TestSigner;

beforeAll(async () => {
  [alice, bob] = (await Promise.all(
    GENESIS_ACCOUNTS.slice(0, 2).map((a, i) => testSigner(a.mnemonic, i)),
  )) as [TestSigner, TestSigner];
});

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const line = (r: TxResult) => `${r.code} ${r.gasUsed} ${r.log.slice(0, 120)}`;

describe("settlement gas", () => {
  it("charges every order, fill and block what it charged before settlement memoized its reads", async () => {
    const app: PersistentChainApp = createChainApp({ profile: "local", genesisTime: GENESIS_TIME });
    app.control.setOracleWalk(false);
    const mine = () => app.produceBlock(new Date(app.latestBlock().time.getTime() + 1_000));
    mine();
    const lines: string[] = [];
    // alice referred bob: his fills pay alice's affiliate share, and his fee tier has the referee floor.
    const register = {
      schema: affiliates.MsgRegisterAffiliateSchema,
      value: create(affiliates.MsgRegisterAffiliateSchema, {
        referee: GENESIS_ACCOUNTS[1]?.address ?? "",
        affiliate: GENESIS_ACCOUNTS[0]?.address ?? "",
      }),
    };
    lines.push(line(app.checkTx(await signMsgs(bob, app.info.chainId, 0n, [register]))));
    for (const result of mine().txResults) lines.push(line(result));
    let clientId = 1;
    const check = async (
      signer: TestSigner,
      spec: Omit<OrderSpec, "owner" | "clientId" | "goodTilBlock">,
    ) => {
      const msg = placeMsg({
        ...spec,
        owner: GENESIS_ACCOUNTS[signer === alice ? 0 : 1]?.address ?? "",
        clientId: clientId++,
        goodTilBlock: Number(app.latestBlock().height) + 10,
      });
      lines.push(line(app.checkTx(await signMsgs(signer, app.info.chainId, 0n, [msg], 0n))));
    };
    const IOC = clob.Order_TimeInForce.IOC;
    // Rounds of resting asks and bids, crossed by IOC orders of both sides (partial, whole, several
    // makers, an undercollateralized one), on BTC and ETH; each round mined.
    for (let round = 0; round < 4; round++) {
      const size = 1_000_000n * BigInt(round + 1);
      await check(bob, { side: "sell", quantums: size, subticks: PRICE });
      await check(bob, { side: "sell", quantums: size, subticks: PRICE + 1_000_000n });
      await check(alice, {
        side: "buy",
        quantums: size * 2n,
        subticks: PRICE + 1_000_000n,
        timeInForce: IOC,
      });
      await check(alice, { side: "buy", quantums: 3_000_000n, subticks: PRICE - 1_000_000n });
      await check(bob, {
        side: "sell",
        quantums: 1_000_000n,
        subticks: PRICE - 1_000_000n,
        timeInForce: IOC,
      });
      await check(bob, {
        side: "sell",
        quantums: 1_000_000n * 10n ** 6n,
        subticks: PRICE - 1_000_000n,
        timeInForce: IOC,
      });
      await check(alice, { side: "sell", quantums: 1_000_000_000n, subticks: 300_000_000n, clobPairId: 1 });
      await check(bob, {
        side: "buy",
        quantums: 1_000_000_000n,
        subticks: 300_000_000n,
        clobPairId: 1,
        timeInForce: IOC,
      });
      const block = mine();
      lines.push(`block ${block.height} ${hex(block.appHash)}`);
      for (const result of block.txResults) lines.push(line(result));
    }
    // Pinned from the chain before settlement memoized its reads: the first lines in full (a
    // failure shows what changed), then a digest of all of them.
    expect(lines.slice(0, 4)).toEqual(["0 22400 ", "0 0 ", "0 29847 ", "0 63268 "]);
    expect(lines).toHaveLength(43);
    expect(createHash("sha256").update(lines.join("\n")).digest("hex")).toBe(
      "a3396aeb32bc7382c5e73c2ff51d6d4f83e430710e3dbf421aa3d28f68401603",
    );
  });
});
