/**
 * The written-out type URLs match their schemas, and every message handler's type URL matches the
 * schema it reads on its first message (routing uses the type URL alone).
 */
import { accountplus, clob, sending } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { chainConfig } from "../genesis/genesis.js";
import { buildModules } from "./index.js";
import {
  BATCH_CANCEL_URL,
  CANCEL_ORDER_URL,
  CREATE_TRANSFER_URL,
  PLACE_ORDER_URL,
  PROPOSED_OPERATIONS_URL,
  TX_EXTENSION_URL,
  UPDATE_LEVERAGE_URL,
} from "./msg-type-urls.js";

describe("message type URLs", () => {
  it("are the schemas' full names", () => {
    expect(PLACE_ORDER_URL).toBe(`/${clob.MsgPlaceOrderSchema.typeName}`);
    expect(CANCEL_ORDER_URL).toBe(`/${clob.MsgCancelOrderSchema.typeName}`);
    expect(BATCH_CANCEL_URL).toBe(`/${clob.MsgBatchCancelSchema.typeName}`);
    expect(PROPOSED_OPERATIONS_URL).toBe(`/${clob.MsgProposedOperationsSchema.typeName}`);
    expect(UPDATE_LEVERAGE_URL).toBe(`/${clob.MsgUpdateLeverageSchema.typeName}`);
    expect(CREATE_TRANSFER_URL).toBe(`/${sending.MsgCreateTransferSchema.typeName}`);
    expect(TX_EXTENSION_URL).toBe(`/${accountplus.TxExtensionSchema.typeName}`);
  });

  it("of every module's handlers are their schemas' full names", () => {
    const { modules } = buildModules(chainConfig("local", new Date(0)));
    const handlers = modules.flatMap((module) => module.msgs ?? []);
    expect(handlers.length).toBeGreaterThan(40);
    for (const handler of handlers) expect(handler.typeUrl).toBe(`/${handler.schema.typeName}`);
  });
});
