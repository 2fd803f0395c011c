/**
 * accountplus rules over the wire (txs signed with cosmjs, broadcast with RPC `broadcast_tx_sync`,
 * state read over `abci_query`): a short-term order signed with a timestamp nonce neither checks nor
 * consumes it (the real chain skips the sequence of short-term txs), so the same nonce still works
 * for a stateful tx; removing an unknown authenticator is dydxaccountplus 1 in the real chain's
 * words, and adding one of an unknown type its plain error (codespace `undefined`, code 1).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { accountplus, clob, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import { accountOf, broadcastSync, rpcCall, signWire } from "./support/wire.js";

let devnet: Devnet;
const who = () => devnet.accounts[0] as { address: string; mnemonic: string };

async function broadcast(msgs: TestMsg[], sequence?: bigint, feeUusdc = 0n) {
  const account = await accountOf(devnet.endpoints.nodeRest, who().address);
  const tx = await signWire(who().mnemonic, msgs, {
    chainId: devnet.chainId,
    accountNumber: account.accountNumber,
    sequence: sequence ?? account.sequence,
    feeUusdc,
  });
  return broadcastSync(devnet.endpoints.nodeRpc, tx);
}

async function deliver(msgs: TestMsg[], feeUusdc = 25_000n) {
  const answer = await broadcast(msgs, undefined, feeUusdc);
  if (answer.code !== 0) return answer;
  const [block] = devnet.mine(1);
  const result = block!.txResults.at(-1)!;
  return { code: result.code, codespace: result.codespace, log: result.log };
}

async function timestampNonces(): Promise<bigint[]> {
  const data = toBinary(
    accountplus.AccountStateRequestSchema,
    create(accountplus.AccountStateRequestSchema, { address: who().address }),
  );
  const result = await rpcCall(devnet.endpoints.nodeRpc, "abci_query", {
    path: "/perpx.accountplus.v1.Query/AccountState",
    data: Buffer.from(data).toString("hex"),
  });
  const state = fromBinary(
    accountplus.AccountStateResponseSchema,
    new Uint8Array(Buffer.from(result.response.value ?? "", "base64")),
  );
  return state.accountState?.timestampNonceDetails?.timestampNonces ?? [];
}

function order(clientId: number, flags: 0 | 64): TestMsg {
  const latest = devnet.app.latestBlock();
  return msg(
    clob.MsgPlaceOrderSchema,
    create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: {
          subaccountId: { owner: who().address, number: 0 },
          clientId,
          orderFlags: flags,
          clobPairId: 0,
        },
        side: clob.Order_Side.BUY,
        quantums: 1_000_000n,
        subticks: 1_000_000_000n,
        goodTilOneof:
          flags === 0
            ? { case: "goodTilBlock", value: Number(latest.height) + 5 }
            : { case: "goodTilBlockTime", value: Math.floor(latest.time.getTime() / 1000) + 600 },
      },
    }),
  );
}

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
  devnet.mine(1);
  const funded = await deliver([
    msg(
      sending.MsgDepositToSubaccountSchema,
      create(sending.MsgDepositToSubaccountSchema, {
        sender: who().address,
        recipient: { owner: who().address, number: 0 },
        assetId: 0,
        quantums: 1_000_000_000n,
      }),
    ),
  ]);
  expect(funded.code, funded.log).toBe(0);
});

afterAll(async () => {
  await devnet?.stop();
});

describe("accountplus rules", () => {
  it("lets a short-term tx skip its timestamp nonce: not checked, not consumed", async () => {
    const nonce = BigInt(devnet.app.latestBlock().time.getTime()) + 1n;
    const shortTerm = await broadcast([order(1, 0)], nonce);
    expect(shortTerm.code, shortTerm.log).toBe(0);
    expect(await timestampNonces()).not.toContain(nonce);
    // The same nonce again for a short-term order: still not consumed, so not a replay.
    expect((await broadcast([order(2, 0)], nonce)).code).toBe(0);
    // A stateful tx with it is checked and consumes it; a second one is a replay (sdk 32).
    const stateful = await broadcast([order(3, 64)], nonce);
    expect(stateful.code, stateful.log).toBe(0);
    devnet.mine(1);
    expect(await timestampNonces()).toContain(nonce);
    const replay = await broadcast([order(4, 64)], nonce);
    expect([replay.codespace, replay.code]).toEqual(["sdk", 32]);
  });

  it("answers the real chain's codes and texts on add and remove", async () => {
    const removed = await deliver([
      msg(
        accountplus.MsgRemoveAuthenticatorSchema,
        create(accountplus.MsgRemoveAuthenticatorSchema, { sender: who().address, id: 99n }),
      ),
    ]);
    expect([removed.codespace, removed.code]).toEqual(["dydxaccountplus", 1]);
    expect(removed.log).toBe(
      `failed to execute message; message index: 0: RemoveAuthenticator: failed to get authenticator 99 for address ${who().address}: Authenticator is not found`,
    );
    const added = await deliver([
      msg(
        accountplus.MsgAddAuthenticatorSchema,
        create(accountplus.MsgAddAuthenticatorSchema, {
          sender: who().address,
          authenticatorType: "Passkey",
          data: new Uint8Array(0),
        }),
      ),
    ]);
    expect([added.codespace, added.code]).toEqual(["undefined", 1]);
    expect(added.log).toContain("authenticator type Passkey is not registered");
  });
});
