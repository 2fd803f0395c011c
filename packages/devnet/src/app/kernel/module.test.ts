import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet, encodePubkey, makeAuthInfoBytes, makeSignDoc } from "@cosmjs/proto-signing";
import { clob, cosmosBank, cosmosTx, packAny, perpetuals } from "@perpx/proto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ChainApplication } from "../app.js";
import { GENESIS_ACCOUNTS } from "../genesis/genesis-accounts.js";
import { abciError, registerError } from "../lib/errors.js";
import { wireCreate } from "../lib/wire-codec.js";
import * as wire from "../lib/wire-tables.js";
import type { Keepers } from "../modules/index.js";
import {
  emptyResponse,
  type Module,
  msgHandler,
  packWire,
  type QueryContext,
  queryHandler,
  Router,
} from "./module.js";

const genesisTime = new Date("2026-01-01T00:00:00Z");
const [ALICE, BOB] = GENESIS_ACCOUNTS.map((a) => a.address) as [string, string];
type Wallet = { wallet: DirectSecp256k1HdWallet; address: string; pubkey: ReturnType<typeof encodePubkey> };
let alice: Wallet;
let bob: Wallet;

async function load(index: number): Promise<Wallet> {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(
    (GENESIS_ACCOUNTS[index] as { mnemonic: string }).mnemonic,
    {
      prefix: "perpx",
    },
  );
  const [account] = await wallet.getAccounts();
  if (account === undefined) throw new Error("no account");
  return { wallet, address: account.address, pubkey: encodePubkey(encodeSecp256k1Pubkey(account.pubkey)) };
}

beforeAll(async () => {
  alice = await load(0);
  bob = await load(1);
});

async function signAs(
  key: Wallet,
  messages: ReturnType<typeof packAny>[],
  options: {
    sequence: number;
    accountNumber: number;
    fee?: { denom: string; amount: string }[];
    memo?: string;
  },
) {
  const bodyBytes = toBinary(
    cosmosTx.TxBodySchema,
    create(cosmosTx.TxBodySchema, { messages, memo: options.memo ?? "" }),
  );
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey: key.pubkey, sequence: options.sequence }],
    options.fee ?? [],
    1_000_000,
    undefined,
    undefined,
  );
  const { signature } = await key.wallet.signDirect(
    key.address,
    makeSignDoc(bodyBytes, authInfoBytes, "perpx-local-1", options.accountNumber),
  );
  return toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, {
      bodyBytes,
      authInfoBytes,
      signatures: [Buffer.from(signature.signature, "base64")],
    }),
  );
}

function placeOrder(owner: string) {
  // A clob message no real module routes (governance-only), standing in for an order.
  return packAny(
    clob.MsgCreateClobPairSchema,
    create(clob.MsgCreateClobPairSchema, {
      authority: owner,
      clobPair: create(clob.ClobPairSchema, { id: 1 }),
    }),
  );
}

/** A module shaped like a clob: free, sequence-less orders, counted in its own slice. */
function orderModule(keepers: Keepers): Module {
  const rejected = registerError("testclob", 12, "invalid place order");
  return {
    name: "testclob",
    msgs: [
      msgHandler({
        typeUrl: "/perpx.clob.v1.MsgCreateClobPair",
        schema: () => clob.MsgCreateClobPairSchema,
        signers: (msg) => [msg.authority],
        validate(msg) {
          if ((msg.clobPair?.id ?? 0) === 0) throw abciError(rejected, "client id 0");
        },
        execute(ctx, msg) {
          const store = ctx.store("testclob");
          const count = Number(new TextDecoder().decode(store.get("count") ?? new TextEncoder().encode("0")));
          store.set("count", new TextEncoder().encode(String(count + 1)));
          ctx.events.emitEvent("order_placed", [["owner", msg.authority]]);
          // Keepers of the chain are at hand: read a balance.
          keepers.bank.balance(ctx, new Uint8Array(20), "uusdc");
          return emptyResponse(clob.MsgCreateClobPairResponseSchema);
        },
      }),
    ],
    queries: {
      "/test.Query/Count": queryHandler(
        cosmosBank.QueryParamsRequestSchema,
        cosmosBank.QuerySupplyOfResponseSchema,
        (ctx) =>
          create(cosmosBank.QuerySupplyOfResponseSchema, {
            amount: {
              $typeName: "cosmos.base.v1beta1.Coin",
              denom: "orders",
              amount: new TextDecoder().decode(
                ctx.store("testclob").get("count") ?? new TextEncoder().encode("0"),
              ),
            },
          }),
      ),
    },
    txPolicy: (typeUrls) =>
      typeUrls.every((url) => url === "/perpx.clob.v1.MsgCreateClobPair")
        ? { chargeFees: false, checkSequence: false, meterGas: false }
        : undefined,
    beginBlock(ctx) {
      ctx.events.emitEvent("testclob_begin", [["height", ctx.block.height.toString()]]);
    },
  };
}

/** A module that authenticates any signer of a tx whose memo is "trusted" (a stand-in for authenticators). */
const trusting: Module = {
  name: "trusting",
  authenticateSigner: (_ctx, { tx }) => tx.body.memo === "trusted",
};

describe("module interface", () => {
  it("routes messages and queries, applies the module's tx policy, and runs block hooks", async () => {
    const app = ChainApplication.create(
      { profile: "local", genesisTime },
      { extraModules: (k) => [orderModule(k)] },
    );
    // No fee, a sequence nobody checks, twice in a row.
    expect(
      app.checkTx(await signAs(alice, [placeOrder(ALICE)], { sequence: 77, accountNumber: 0 })).code,
    ).toBe(0);
    expect(
      app.checkTx(await signAs(alice, [placeOrder(ALICE)], { sequence: 78, accountNumber: 0 })).code,
    ).toBe(0);
    const block = app.produceBlock(new Date(genesisTime.getTime() + 1000));
    // After the proposer's operations tx that heads every block.
    expect(block.txResults.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(block.txResults[1]?.events.map((e) => e.type)).toContain("order_placed");
    expect(
      block.finalizeBlockEvents.find((e) => e.type === "testclob_begin")?.attributes.map((a) => a.value),
    ).toEqual(["2", "BeginBlock"]);
    const count = app.query("/test.Query/Count", new Uint8Array());
    expect(count.code).toBe(0);
    expect(new TextDecoder().decode(count.value)).toContain("2");
    // A bank send in the same tx is not the module's kind: the default policy applies (fee needed).
    const mixed = await signAs(
      alice,
      [
        placeOrder(ALICE),
        packAny(
          cosmosBank.MsgSendSchema,
          create(cosmosBank.MsgSendSchema, {
            fromAddress: ALICE,
            toAddress: BOB,
            amount: [{ $typeName: "cosmos.base.v1beta1.Coin", denom: "uusdc", amount: "1" }],
          }),
        ),
      ],
      { sequence: 0, accountNumber: 0 },
    );
    expect(app.checkTx(mixed).code).toBe(13);
    // The module's own validation runs in CheckTx with its codespace.
    const bad = packAny(
      clob.MsgCreateClobPairSchema,
      create(clob.MsgCreateClobPairSchema, {
        authority: ALICE,
        clobPair: create(clob.ClobPairSchema, { id: 0 }),
      }),
    );
    const refused = app.checkTx(await signAs(alice, [bad], { sequence: 0, accountNumber: 0 }));
    expect([refused.codespace, refused.code, refused.log]).toEqual([
      "testclob",
      12,
      "client id 0: invalid place order",
    ]);
  });

  it("lets a module authenticate a signer in place of the default signature check", async () => {
    // A module after the authenticating one is still asked (its checks, like the clob's message
    // rules, run for every tx, however the signer is authenticated).
    const asked: string[] = [];
    const watching: Module = {
      name: "watching",
      authenticateSigner: (_ctx, { tx }) => {
        asked.push(tx.body.memo);
        return false;
      },
    };
    const app = ChainApplication.create(
      { profile: "local", genesisTime },
      { extraModules: () => [trusting, watching] },
    );
    const send = packAny(
      cosmosBank.MsgSendSchema,
      create(cosmosBank.MsgSendSchema, {
        fromAddress: ALICE,
        toAddress: BOB,
        amount: [{ $typeName: "cosmos.base.v1beta1.Coin", denom: "uusdc", amount: "5" }],
      }),
    );
    const fee = [{ denom: "uusdc", amount: "25000" }];
    // Bob's key signs for Alice's account.
    const untrusted = await signAs(bob, [send], { sequence: 0, accountNumber: 0, fee });
    expect(app.checkTx(untrusted).code).toBe(8);
    const trusted = await signAs(bob, [send], { sequence: 0, accountNumber: 0, fee, memo: "trusted" });
    expect(app.checkTx(trusted).code).toBe(0);
    expect(app.produceBlock(new Date(genesisTime.getTime() + 1000)).txResults[1]?.code).toBe(0);
    expect(asked.filter((memo) => memo === "trusted")).toHaveLength(2); // CheckTx and delivery
  });

  it("asks a module for a tx's policy once, however often CheckTx, queueing and delivery need it", async () => {
    let asked = 0;
    const counting: Module = {
      name: "counting",
      txPolicy: () => {
        asked++;
        return undefined;
      },
    };
    const app = ChainApplication.create(
      { profile: "local", genesisTime },
      { extraModules: () => [counting] },
    );
    const send = packAny(
      cosmosBank.MsgSendSchema,
      create(cosmosBank.MsgSendSchema, {
        fromAddress: ALICE,
        toAddress: BOB,
        amount: [{ $typeName: "cosmos.base.v1beta1.Coin", denom: "uusdc", amount: "5" }],
      }),
    );
    const fee = [{ denom: "uusdc", amount: "25000" }];
    expect(app.checkTx(await signAs(alice, [send], { sequence: 0, accountNumber: 0, fee })).code).toBe(0);
    expect(asked).toBe(1);
    expect(app.produceBlock(new Date(genesisTime.getTime() + 1000)).txResults[1]?.code).toBe(0);
    expect(asked).toBe(1);
  });

  it("reads query schemas given as functions on the first query, and answers as with the schemas", () => {
    const reads: string[] = [];
    const handle = (_ctx: QueryContext, req: cosmosBank.QueryBalanceRequest) =>
      create(cosmosBank.QueryBalanceResponseSchema, { balance: { denom: req.denom, amount: "7" } });
    const deferred = queryHandler(
      () => {
        reads.push("request");
        return cosmosBank.QueryBalanceRequestSchema;
      },
      () => {
        reads.push("response");
        return cosmosBank.QueryBalanceResponseSchema;
      },
      handle,
    );
    const eager = queryHandler(
      cosmosBank.QueryBalanceRequestSchema,
      cosmosBank.QueryBalanceResponseSchema,
      handle,
    );
    expect(reads).toEqual([]);
    const ctx = {} as QueryContext;
    const request = toBinary(
      cosmosBank.QueryBalanceRequestSchema,
      create(cosmosBank.QueryBalanceRequestSchema, { address: ALICE, denom: "aperpx" }),
    );
    expect(deferred(ctx, request)).toEqual(eager(ctx, request));
    expect(deferred(ctx, request)).toEqual(eager(ctx, request));
    expect(reads).toEqual(["request", "response"]);
    expect(fromBinary(cosmosBank.QueryBalanceResponseSchema, deferred(ctx, request)).balance?.amount).toBe(
      "7",
    );
    expect(() => deferred(ctx, Uint8Array.of(0xff))).toThrow();
  });

  it("refuses duplicate routes and module names", () => {
    const a: Module = { name: "a", queries: { "/x": () => new Uint8Array() } };
    expect(() => new Router([a, { name: "a" }])).toThrow(/duplicate module/);
    expect(() => new Router([a, { name: "b", queries: { "/x": () => new Uint8Array() } }])).toThrow(
      /duplicate query/,
    );
  });
});

describe("packWire", () => {
  it("property: packs a message as packAny does", () => {
    const market = fc.record({
      perpetualId: fc.nat({ max: 2 ** 32 - 1 }),
      premiums: fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 6 }),
    });
    const store = fc.record({
      allMarketPremiums: fc.array(market, { maxLength: 4 }),
      numPremiums: fc.nat({ max: 2 ** 32 - 1 }),
    });
    fc.assert(
      fc.property(store, (init) => {
        const table = wire.perpx_perpetuals_v1_PremiumStore;
        const schema = perpetuals.PremiumStoreSchema;
        const message = wireCreate<perpetuals.PremiumStore>(table, init);
        expect(packWire(table, message)).toEqual(packAny(schema, create(schema, init)));
      }),
      { numRuns: 200 },
    );
    const empty = wire.perpx_clob_v1_MsgProposedOperationsResponse;
    expect(packWire(empty, wireCreate(empty))).toEqual(
      packAny(clob.MsgProposedOperationsResponseSchema, create(clob.MsgProposedOperationsResponseSchema)),
    );
  });
});
