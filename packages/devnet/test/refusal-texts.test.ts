/**
 * The refusals a trading client reaches, over the real wire (txs signed with cosmjs, broadcast
 * with RPC `broadcast_tx_sync`), with the reference chain's codespace, code and log: the texts of
 * its `errorsmod.Wrapf` calls, bare errors where it returns them bare, and no "failed to execute
 * message" in CheckTx, where the reference's clob ante decorator (not a message) refuses.
 */
import { create } from "@bufbuild/protobuf";
import { clob, sending } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Devnet, startDevnet } from "../src/index.js";
import { msg, type TestMsg } from "./support/sign-tx.js";
import {
  accountOf,
  broadcastSync,
  rpcCall,
  type SignOptions,
  type SyncAnswer,
  signWire,
} from "./support/wire.js";

const USDC = 1_000_000n;
/** $65,000 in BTC-USD subticks; the tick is 100,000 subticks, the step 1,000,000 quantums. */
const PRICE = 6_500_000_000n;

let devnet: Devnet;
let clientId = 1;
const who = (i: number) => devnet.accounts[i] as { address: string; mnemonic: string };
const height = () => devnet.app.latestBlock().height;
const nowSeconds = () => Math.floor(devnet.app.latestBlock().time.getTime() / 1000);

beforeAll(async () => {
  devnet = await startDevnet({ ports: "free", blockTimeMs: 3_600_000 });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  devnet.mine(1);
  for (const i of [0, 1, 2]) {
    const deposit = msg(
      sending.MsgDepositToSubaccountSchema,
      create(sending.MsgDepositToSubaccountSchema, {
        sender: who(i).address,
        recipient: { owner: who(i).address, number: 0 },
        assetId: 0,
        quantums: 10_000n * USDC,
      }),
    );
    expect(await deliver(i, [deposit], { feeUusdc: 25_000n })).toMatchObject({ code: 0 });
  }
});

afterAll(async () => {
  await devnet?.stop();
});

async function broadcast(
  i: number,
  msgs: TestMsg[],
  options: Partial<SignOptions> = {},
): Promise<SyncAnswer> {
  const account = await accountOf(devnet.endpoints.nodeRest, who(i).address);
  const tx = await signWire(who(i).mnemonic, msgs, { chainId: devnet.chainId, ...account, ...options });
  return broadcastSync(devnet.endpoints.nodeRpc, tx);
}

/** Broadcasts; when CheckTx accepts, mines a block and answers the delivery result. */
async function deliver(i: number, msgs: TestMsg[], options: Partial<SignOptions> = {}) {
  const sync = await broadcast(i, msgs, options);
  if (sync.code !== 0) return { code: sync.code, codespace: sync.codespace, log: sync.log };
  devnet.mine(1);
  const found = await rpcCall(devnet.endpoints.nodeRpc, "tx", {
    hash: Buffer.from(sync.hash, "hex").toString("base64"),
  });
  return { code: found.tx_result.code, codespace: found.tx_result.codespace, log: found.tx_result.log };
}

interface Spec {
  owner?: string;
  number?: number;
  side?: clob.Order_Side;
  quantums?: bigint;
  subticks?: bigint;
  flags?: 0 | 32 | 64;
  goodTilBlock?: bigint;
  goodTilBlockTime?: number;
  timeInForce?: clob.Order_TimeInForce;
  reduceOnly?: boolean;
  trigger?: bigint;
  clobPairId?: number;
  clientId?: number;
}

function place(i: number, spec: Spec = {}): TestMsg {
  const flags = spec.flags ?? 0;
  return msg(
    clob.MsgPlaceOrderSchema,
    create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: {
          subaccountId: { owner: spec.owner ?? who(i).address, number: spec.number ?? 0 },
          clientId: spec.clientId ?? clientId++,
          orderFlags: flags,
          clobPairId: spec.clobPairId ?? 0,
        },
        side: spec.side ?? clob.Order_Side.BUY,
        quantums: spec.quantums ?? 1_000_000n,
        subticks: spec.subticks ?? 5_000_000_000n,
        goodTilOneof:
          flags === 0
            ? { case: "goodTilBlock", value: Number(spec.goodTilBlock ?? height() + 10n) }
            : { case: "goodTilBlockTime", value: spec.goodTilBlockTime ?? nowSeconds() + 3_600 },
        timeInForce: spec.timeInForce ?? clob.Order_TimeInForce.UNSPECIFIED,
        reduceOnly: spec.reduceOnly ?? false,
        ...(spec.trigger === undefined
          ? {}
          : {
              conditionType: clob.Order_ConditionType.STOP_LOSS,
              conditionalOrderTriggerSubticks: spec.trigger,
            }),
      },
    }),
  );
}

function orderId(i: number, id: number, flags: 0 | 64): clob.OrderId {
  return create(clob.OrderIdSchema, {
    subaccountId: { owner: who(i).address, number: 0 },
    clientId: id,
    orderFlags: flags,
    clobPairId: 0,
  });
}

function cancel(
  i: number,
  id: number,
  goodTil: clob.MsgCancelOrder["goodTilOneof"],
  flags: 0 | 64 = 0,
): TestMsg {
  return msg(
    clob.MsgCancelOrderSchema,
    create(clob.MsgCancelOrderSchema, { orderId: orderId(i, id, flags), goodTilOneof: goodTil }),
  );
}

function batchCancel(i: number, clobPairId: number, clientIds: number[], goodTilBlock: bigint): TestMsg {
  return msg(
    clob.MsgBatchCancelSchema,
    create(clob.MsgBatchCancelSchema, {
      subaccountId: { owner: who(i).address, number: 0 },
      shortTermCancels: [{ clobPairId, clientIds }],
      goodTilBlock: Number(goodTilBlock),
    }),
  );
}

const goId = (i: number, id: number, flags: number) =>
  `{SubaccountId:{Owner:${who(i).address} Number:0} ClientId:${id} OrderFlags:${flags} ClobPairId:0}`;

describe("CheckTx refusals of the memclob are the clob ante decorator's: bare, no message index", () => {
  it("post-only that would cross (2003), reduce-only that would increase (2001), a replacement with a lower good-til-block (20), a second cancel (9)", async () => {
    expect(await broadcast(1, [place(1, { side: clob.Order_Side.SELL, subticks: PRICE })])).toMatchObject({
      code: 0,
    });
    expect(
      await broadcast(2, [place(2, { subticks: PRICE, timeInForce: clob.Order_TimeInForce.POST_ONLY })]),
    ).toMatchObject({
      code: 2003,
      codespace: "clob",
      log: "Post-only order would cross one or more maker orders",
    });
    expect(
      await broadcast(2, [place(2, { reduceOnly: true, timeInForce: clob.Order_TimeInForce.IOC })]),
    ).toMatchObject({
      code: 2001,
      codespace: "clob",
      log: "Reduce-only orders cannot increase the position size",
    });

    const gtb = height() + 10n;
    expect(await broadcast(2, [place(2, { clientId: 77, goodTilBlock: gtb })])).toMatchObject({ code: 0 });
    expect(await broadcast(2, [place(2, { clientId: 77, goodTilBlock: gtb - 1n })])).toMatchObject({
      code: 20,
      codespace: "clob",
      log: "New order cannot reduce the GoodTilBlock or GoodTilBlockTime of existing order: Replacing an existing order failed",
    });

    const far = height() + 10n;
    expect(await broadcast(2, [cancel(2, 600, { case: "goodTilBlock", value: Number(far) })])).toMatchObject({
      code: 0,
    });
    expect(
      await broadcast(2, [cancel(2, 600, { case: "goodTilBlock", value: Number(far - 1n) })]),
    ).toMatchObject({
      code: 9,
      codespace: "clob",
      log: "A cancel already exists in the memclob for this order with a greater than or equal GoodTilBlock",
    });
    // A batch whose every cancel fails names the failed client ids as Go prints a []uint32.
    expect(await broadcast(2, [batchCancel(2, 0, [600], far - 2n)])).toMatchObject({
      code: 46,
      codespace: "clob",
      log: "No successful cancellations. Failures: [600]: Batch cancel has failed",
    });
  });
});

describe("the keeper's order validation: its order and its texts", () => {
  it("an unknown pair (8), the tick before the step (12), the short-term window (10, 11)", async () => {
    expect(await broadcast(2, [place(2, { clobPairId: 99 })])).toMatchObject({
      code: 8,
      log: "Clob 99 is not a valid clob: ClobPair ID does not reference a valid CLOB",
    });
    expect(await broadcast(2, [place(2, { quantums: 1_500_000n, subticks: PRICE + 1n })])).toMatchObject({
      code: 12,
      log: `Order subticks ${PRICE + 1n} must be a multiple of the ClobPair's SubticksPerTick 100000: MsgPlaceOrder is invalid`,
    });
    expect(await broadcast(2, [place(2, { quantums: 1_500_000n })])).toMatchObject({
      code: 12,
      log: "Order Quantums 1500000 must be a multiple of the ClobPair's StepBaseQuantums 1000000: MsgPlaceOrder is invalid",
    });
    const next = height() + 1n;
    expect(await broadcast(2, [place(2, { goodTilBlock: next - 1n })])).toMatchObject({
      code: 10,
      log: `GoodTilBlock ${next - 1n} is less than the current blockHeight ${next}: The next block height is greater than the GoodTilBlock of the message`,
    });
    expect(await broadcast(2, [place(2, { goodTilBlock: next + 41n })])).toMatchObject({
      code: 11,
      log: `The GoodTilBlock ${next + 41n} exceeds the current blockHeight ${next} plus ShortBlockWindow 40: The GoodTilBlock of the message is further than ShortBlockWindow blocks into the future`,
    });
  });

  it("a batch cancel on an unknown pair is clob 27 (it was accepted)", async () => {
    expect(await broadcast(2, [batchCancel(2, 99, [1], height() + 5n)])).toMatchObject({
      code: 27,
      codespace: "clob",
      log: "Invalid clob pair id 99: Invalid ClobPair parameter",
    });
  });

  it("stateful windows (3003, 3004), a conditional trigger off the tick (12), cancels of no order (3006, bare 3003)", async () => {
    const previous = nowSeconds();
    expect(await deliver(0, [place(0, { flags: 64, goodTilBlockTime: previous })])).toMatchObject({
      code: 3003,
      log: `GoodTilBlockTime ${previous} is less than the previous blockTime ${previous}: The block time is greater than the GoodTilBlockTime of the message`,
    });
    const end = previous + 95 * 86_400;
    expect(await deliver(0, [place(0, { flags: 64, goodTilBlockTime: end + 1 })])).toMatchObject({
      code: 3004,
      log: `GoodTilBlockTime ${end + 1} exceeds the previous blockTime plus StatefulOrderTimeWindow ${end}: The GoodTilBlockTime of the message is further than StatefulOrderTimeWindow into the future`,
    });
    // The reference's text names the pair's step where it says SubticksPerTick.
    expect(await deliver(0, [place(0, { flags: 32, trigger: 100_001n })])).toMatchObject({
      code: 12,
      log: "Conditional order trigger subticks 100001 must be a multiple of the ClobPair's SubticksPerTick 1000000: MsgPlaceOrder is invalid",
    });
    expect(
      await deliver(0, [cancel(0, 901, { case: "goodTilBlockTime", value: nowSeconds() + 600 }, 64)]),
    ).toMatchObject({
      code: 3006,
      log: `Order Id to cancel does not exist. OrderId : ${goId(0, 901, 64)}: Stateful order does not exist`,
    });
    expect(
      await deliver(0, [cancel(0, 901, { case: "goodTilBlockTime", value: nowSeconds() - 5 }, 64)]),
    ).toMatchObject({
      code: 3003,
      log: "The block time is greater than the GoodTilBlockTime of the message",
    });
    expect(await deliver(0, [cancel(0, 902, { case: undefined })])).toMatchObject({
      code: 5,
      log: `cancellation goodTilBlock cannot be 0, orderId ${goId(0, 902, 0)}: Invalid order goodTilBlock`,
    });
  });
});

describe("subaccount ids and signatures", () => {
  it("a number over 128,000 is the bare subaccounts 200; a bad owner is 201 with the SDK's wrapping", async () => {
    expect(await broadcast(2, [place(2, { number: 128_001 })])).toMatchObject({
      code: 200,
      codespace: "subaccounts",
      log: "subaccount id number cannot exceed 128000",
    });
    expect(await broadcast(2, [place(2, { owner: "" })])).toMatchObject({
      code: 201,
      codespace: "subaccounts",
      log: "invalid SubaccountId Owner address (). Error: (empty address string is not allowed): subaccount id owner is an invalid address",
    });
    const cosmos = "cosmos1t2htvpfl862vnwdqnuekd9p4ulh3h6hdhh78pa";
    expect(await broadcast(2, [place(2, { owner: cosmos })])).toMatchObject({
      code: 201,
      log: `invalid SubaccountId Owner address (${cosmos}). Error: (invalid Bech32 prefix; expected perpx, got cosmos): subaccount id owner is an invalid address`,
    });
  });

  it("a signature for another chain id says why in parentheses, as the SDK's SigVerificationDecorator", async () => {
    const account = await accountOf(devnet.endpoints.nodeRest, who(2).address);
    expect(await broadcast(2, [place(2)], { chainId: "wrong-chain" })).toMatchObject({
      code: 4,
      codespace: "sdk",
      log: `signature verification failed; please verify account number (${account.accountNumber}) and chain-id (${devnet.chainId}): (unable to verify single signer signature): unauthorized`,
    });
  });
});
