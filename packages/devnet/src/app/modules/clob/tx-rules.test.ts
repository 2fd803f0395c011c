import { create } from "@bufbuild/protobuf";
import { clob, cosmosBank, sending } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { isAbciError } from "../../lib/errors.js";
import { CLOB_TX_RULE_TEXTS, checkClobTx, clobTxPolicy, type TxMessage } from "./tx-rules.js";

const OWNER = "perpx1qyqszqgpqyqszqgpqyqszqgpqyqszqgp9zqf5a";

function place(flags: number, goodTilBlock = 0): TxMessage {
  return {
    typeUrl: `/${clob.MsgPlaceOrderSchema.typeName}`,
    msg: create(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: { subaccountId: { owner: OWNER, number: 0 }, clientId: 1, orderFlags: flags },
        goodTilOneof:
          flags === 0
            ? { case: "goodTilBlock", value: goodTilBlock }
            : { case: "goodTilBlockTime", value: 1_900_000_000 },
      },
    }),
  };
}
const cancel = (flags: number): TxMessage => ({
  typeUrl: `/${clob.MsgCancelOrderSchema.typeName}`,
  msg: create(clob.MsgCancelOrderSchema, { orderId: { orderFlags: flags } }),
});
const batch: TxMessage = {
  typeUrl: `/${clob.MsgBatchCancelSchema.typeName}`,
  msg: create(clob.MsgBatchCancelSchema),
};
const leverage: TxMessage = {
  typeUrl: `/${clob.MsgUpdateLeverageSchema.typeName}`,
  msg: create(clob.MsgUpdateLeverageSchema),
};
const transfer: TxMessage = {
  typeUrl: `/${sending.MsgCreateTransferSchema.typeName}`,
  msg: create(sending.MsgCreateTransferSchema),
};
const bankSend: TxMessage = {
  typeUrl: `/${cosmosBank.MsgSendSchema.typeName}`,
  msg: create(cosmosBank.MsgSendSchema),
};

/** The sdk 18 text a tx is refused with, or "ok". */
function verdict(msgs: TxMessage[], timeoutHeight = 0n, simulate = false): string {
  try {
    checkClobTx(msgs, timeoutHeight, simulate);
    return "ok";
  } catch (error) {
    if (!isAbciError(error)) throw error;
    expect([error.codespace, error.abciCode]).toEqual(["sdk", 18]);
    // The SDK's wrapping: "<text>: <registered text of sdk 18>".
    expect(error.log.endsWith(": invalid request")).toBe(true);
    return error.log.slice(0, -": invalid request".length);
  }
}

describe("clob tx message rules (chain-protocol.md 1.8)", () => {
  it("keeps short-term places, cancels and batch cancels alone in their tx", () => {
    expect(verdict([place(0, 10)])).toBe("ok");
    for (const shortTerm of [place(0, 10), cancel(0), batch]) {
      for (const other of [place(64), cancel(64), leverage, transfer, bankSend, place(0, 10)]) {
        expect(verdict([shortTerm, other])).toBe(CLOB_TX_RULE_TEXTS.shortTermAlone);
        expect(verdict([other, shortTerm])).toBe(CLOB_TX_RULE_TEXTS.shortTermAlone);
      }
    }
  });

  it("bundles stateful places, cancels and leverage updates with at most one transfer and nothing else", () => {
    expect(verdict([place(64), cancel(64), place(32), leverage])).toBe("ok");
    expect(verdict([place(64), transfer])).toBe("ok");
    expect(verdict([transfer, place(32), cancel(64)])).toBe("ok");
    expect(verdict([place(64), transfer, transfer])).toBe(CLOB_TX_RULE_TEXTS.oneTransfer);
    expect(verdict([place(64), bankSend])).toBe(CLOB_TX_RULE_TEXTS.noOtherMessage);
    expect(verdict([leverage, bankSend])).toBe(CLOB_TX_RULE_TEXTS.noOtherMessage);
    expect(verdict([place(64), transfer, transfer, bankSend])).toBe(CLOB_TX_RULE_TEXTS.oneTransfer);
    // Not a clob tx: the rules do not apply.
    expect(verdict([bankSend, transfer, transfer])).toBe("ok");
  });

  it("refuses a short-term place whose tx times out before its good-til-block", () => {
    expect(verdict([place(0, 10)], 9n)).toBe(CLOB_TX_RULE_TEXTS.timeoutHeight);
    expect(verdict([place(0, 10)], 10n)).toBe("ok");
    expect(verdict([place(0, 10)], 0n)).toBe("ok");
    expect(verdict([cancel(0)], 1n)).toBe("ok");
    expect(verdict([place(64)], 1n)).toBe("ok");
  });

  it("reads a place or cancel without an order id as short-term (flags 0, as the chain's non-nullable OrderId)", () => {
    const bare = (schema: typeof clob.MsgPlaceOrderSchema | typeof clob.MsgCancelOrderSchema): TxMessage => ({
      typeUrl: `/${schema.typeName}`,
      msg: create(schema),
    });
    for (const shortTerm of [bare(clob.MsgPlaceOrderSchema), bare(clob.MsgCancelOrderSchema)]) {
      expect(verdict([shortTerm, place(64)])).toBe(CLOB_TX_RULE_TEXTS.shortTermAlone);
      expect(clobTxPolicy([shortTerm])).toEqual({ chargeFees: false, checkSequence: false, meterGas: false });
    }
  });

  it("in a simulation applies only the short-term rule (the chain's clob decorator skips simulations)", () => {
    expect(verdict([place(64), bankSend], 0n, true)).toBe("ok");
    expect(verdict([place(0, 10)], 9n, true)).toBe("ok");
    expect(verdict([place(0, 10), bankSend], 0n, true)).toBe(CLOB_TX_RULE_TEXTS.shortTermAlone);
  });

  it("puts every clob tx on the fee-free path (the rules refuse the bad ones); only all-short-term skips the sequence", () => {
    expect(clobTxPolicy([place(0, 10)])).toEqual({
      chargeFees: false,
      checkSequence: false,
      meterGas: false,
    });
    expect(clobTxPolicy([batch])).toEqual({ chargeFees: false, checkSequence: false, meterGas: false });
    expect(clobTxPolicy([place(64), transfer])).toEqual({ chargeFees: false, meterGas: false });
    expect(clobTxPolicy([leverage])).toEqual({ chargeFees: false, meterGas: false });
    expect(clobTxPolicy([place(64), bankSend])).toEqual({ chargeFees: false, meterGas: false });
    expect(clobTxPolicy([transfer])).toBeUndefined();
    expect(clobTxPolicy([bankSend])).toBeUndefined();
  });
});
