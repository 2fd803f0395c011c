import type { Transport } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { isInvalidOrderError, isUnknownOptionError } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { createNodeClient } from "./client.js";
import { placeOrderMsg } from "./messages/clob.js";
import { LocalWallet } from "./wallets.js";

/** A signer that counts signatures, over a fresh wallet. */
function countingSigner() {
  const wallet = LocalWallet.generate();
  let signed = 0;
  const signer = {
    address: wallet.address,
    publicKey: wallet.publicKey,
    keyType: wallet.keyType,
    signDirect: (doc: never, bytes: never) => {
      signed++;
      return wallet.signDirect(doc, bytes);
    },
  };
  return { signer, signed: () => signed };
}

/** A gRPC transport that counts the calls that reach it and answers each as unreachable. */
function countingTransport(): { transport: Transport; calls: () => number } {
  let calls = 0;
  const refuse = async (): Promise<never> => {
    calls++;
    throw new ConnectError("unreachable", Code.Unavailable);
  };
  return { transport: { unary: refuse, stream: refuse } as unknown as Transport, calls: () => calls };
}

async function refusal(run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    return error;
  }
}

describe("unknown options are refused, named, before anything is signed or sent", () => {
  it("createNodeClient and its transports' options", async () => {
    const url = "http://127.0.0.1:1";
    const cases: [unknown, string, string | undefined][] = [
      [{ nodeRpc: url, caPem: "-----BEGIN CERTIFICATE-----" }, "caPem", undefined],
      [{ nodeRpc: url, timeoutMS: 5_000 }, "timeoutMS", "timeoutMs"],
      [{ nodeRpc: { url, header: {} } }, "nodeRpc.header", "headers"],
      [{ nodeRest: { url, fetsh: fetch } }, "nodeRest.fetsh", "fetch"],
      [{ grpc: { url, cacert: "pem" } }, "grpc.cacert", "caCert"],
    ];
    for (const [options, option, suggestion] of cases) {
      const error = await refusal(() => createNodeClient(options as never));
      expect(isUnknownOptionError(error) && [error.argument, error.suggestion], option).toEqual([
        option,
        suggestion,
      ]);
    }
    // An injected connect Transport is not an options object.
    createNodeClient({ grpc: countingTransport().transport }).close();
  });

  it("every one-message action, its tx options and sendTx", async () => {
    const { transport, calls } = countingTransport();
    const client = createNodeClient({ grpc: transport });
    const { signer, signed } = countingSigner();
    const actions = [
      "placeOrder",
      "cancelOrder",
      "batchCancel",
      "depositToSubaccount",
      "withdrawFromSubaccount",
      "transfer",
      "bankMultiSend",
      "bankSend",
      "addAuthenticator",
      "removeAuthenticator",
      "wrapWithdraw",
      "wrapRedeem",
      "ibcTransfer",
      "updateLeverage",
      "registerAffiliate",
      "initiateWithdrawal",
      "sendTx",
    ] as const;
    const methods = client as unknown as Record<string, (params: unknown) => Promise<unknown>>;
    for (const action of actions) {
      const unknown = await refusal(() =>
        methods[action]?.({ signer, ...(action === "sendTx" ? { messages: [] } : {}), signr: signer }),
      );
      expect(isUnknownOptionError(unknown) && [unknown.argument, unknown.suggestion], action).toEqual([
        "signr",
        "signer",
      ]);
      if (action === "sendTx") continue;
      const inTx = await refusal(() => methods[action]?.({ signer, tx: { feeDenum: "uusdc" } }));
      expect(isUnknownOptionError(inTx) && [inTx.argument, inTx.suggestion], action).toEqual([
        "tx.feeDenum",
        "feeDenom",
      ]);
    }
    expect([calls(), signed()]).toEqual([0, 0]);
  });

  it('a reduceOnly that is not a boolean ("false" is truthy) is refused', () => {
    const owner = LocalWallet.generate().address;
    const order = {
      subaccount: { owner, number: 0 },
      clientId: 1,
      clobPairId: 0,
      side: "BUY",
      quantums: 1_000_000n,
      subticks: 100_000n,
      kind: "short-term",
      goodTilBlock: 10,
    } as const;
    expect(placeOrderMsg(order).value.order?.reduceOnly).toBe(false);
    const error = (() => {
      try {
        return placeOrderMsg({ ...order, reduceOnly: "false" as unknown as boolean });
      } catch (e) {
        return e;
      }
    })();
    expect(isInvalidOrderError(error) && error.field).toBe("reduceOnly");
  });
});
