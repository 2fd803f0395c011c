import { afterEach, describe, expect, test, vi } from "vitest";
import { lazyNamespace } from "./lazy.js";

afterEach(() => {
  vi.doUnmock("./file-desc.js");
  vi.resetModules();
});

describe("lazyNamespace", () => {
  test("calls a thunk on the first read only, then holds its value; copies other exports", () => {
    let calls = 0;
    const built = { kind: "message" };
    const ns = lazyNamespace<{ ASchema: () => typeof built; Side: { BUY: 1 } }>(
      {
        ASchema: () => {
          calls++;
          return built;
        },
      },
      { Side: { BUY: 1 } },
    );
    expect(calls).toBe(0);
    expect(Object.keys(ns)).toEqual(["ASchema", "Side"]);
    expect(calls).toBe(0);
    expect(ns.ASchema).toBe(built);
    expect(ns.ASchema).toBe(built);
    expect(calls).toBe(1);
    expect(ns.Side.BUY).toBe(1);
    expect(Object.isExtensible(ns)).toBe(false);
    expect(() => {
      (ns as { ASchema: unknown }).ASchema = {};
    }).toThrow(TypeError);
  });
});

describe("@perpx/proto builds descriptors on first use", () => {
  /** A fresh copy of the package whose `fileDesc` counts the files it decodes. */
  async function freshProto() {
    const decoded: string[] = [];
    vi.resetModules();
    vi.doMock("./file-desc.js", async (importOriginal) => {
      const original = await importOriginal<typeof import("./file-desc.js")>();
      return {
        ...original,
        fileDesc: (...args: Parameters<typeof original.fileDesc>) => {
          const file = original.fileDesc(...args);
          decoded.push(file.proto.name);
          return file;
        },
      };
    });
    const proto = await import("./index.js");
    return { proto, decoded };
  }

  test("importing decodes no file; a schema decodes its file and its imports only, once", async () => {
    const { proto, decoded } = await freshProto();
    expect(decoded).toEqual([]);
    expect(proto.msgTypeUrls).toContain("/perpx.clob.v1.MsgPlaceOrder");
    expect(decoded).toEqual([]);
    const schema = proto.clob.MsgPlaceOrderSchema;
    expect(schema.typeName).toBe("perpx.clob.v1.MsgPlaceOrder");
    expect(decoded).toContain("perpx/clob/v1/tx.proto");
    expect(decoded).not.toContain("cosmos/bank/v1beta1/tx.proto");
    const count = decoded.length;
    expect(proto.clob.MsgPlaceOrderSchema).toBe(schema);
    expect(decoded.length).toBe(count);
    // A lookup by type URL decodes the files of the package (perpx.clob.v1), each once.
    expect(proto.schemaOf("/perpx.clob.v1.MsgPlaceOrder")).toBe(schema);
    expect(proto.schemaOf("/perpx.clob.v1.Order")).toBe(proto.clob.OrderSchema);
    expect(decoded).toContain("perpx/clob/v1/query.proto");
    expect(decoded).not.toContain("cosmos/bank/v1beta1/tx.proto");
    const afterPackage = decoded.length;
    expect(proto.typeRegistry.getEnum("perpx.clob.v1.Order.Side")).toBe(proto.clob.Order_SideSchema);
    expect(decoded.length).toBe(afterPackage);
    expect(new Set(decoded).size).toBe(decoded.length);
  });

  test("a type URL decodes only the files of its package; the registries agree with the namespaces", async () => {
    const { proto, decoded } = await freshProto();
    const send = proto.schemaOf("/cosmos.bank.v1beta1.MsgSend");
    expect(decoded).toContain("cosmos/bank/v1beta1/tx.proto");
    expect(decoded).not.toContain("perpx/clob/v1/tx.proto");
    expect(proto.cosmosBank.MsgSendSchema).toBe(send);
    expect(proto.typeRegistry.getMessage("cosmos.bank.v1beta1.MsgSend")).toBe(send);
    expect(proto.typeRegistry.getMessage("no.such.Message")).toBeUndefined();
    expect(() => proto.schemaOf("/no.such.Message")).toThrow(proto.UnknownTypeUrlError);
    expect(proto.messageRegistry.get("/cosmos.bank.v1beta1.MsgSend")).toBe(send);
    expect(proto.messageRegistry.get("/perpx.clob.v1.Order")).toBe(proto.clob.OrderSchema);
    expect(proto.messageRegistry).toBeInstanceOf(Map);
    expect(() => (proto.messageRegistry as Map<string, unknown>).set("/x", undefined)).toThrow(TypeError);
    const enums = [...proto.typeRegistry].filter((type) => type.kind === "enum");
    expect(enums).toContain(proto.clob.Order_SideSchema);
  });
});
