import type { Transport } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { isInvalidAddressError } from "@perpx/core";
import { isPerpxError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import { createNodeClient, type NodeClient } from "./client.js";
import * as main from "./index.js";
import { nodeActions } from "./nodeActions.js";
import { queryActions } from "./queries.js";
import * as tx from "./tx.js";
import * as wallets from "./wallets.js";

const api = { ...main, ...tx, ...wallets };

/** A gRPC transport that counts the calls that reach it and answers each as unreachable. */
function countingTransport(): { transport: Transport; calls: () => number } {
  let calls = 0;
  const refuse = async (): Promise<never> => {
    calls++;
    throw new ConnectError("unreachable", Code.Unavailable);
  };
  return { transport: { unary: refuse, stream: refuse } as unknown as Transport, calls: () => calls };
}

/** The client's actions: a method for every entry of the `nodeActions` and `queryActions` tables. */
function actions(client: NodeClient): Array<[string, (params?: unknown) => unknown]> {
  const methods = client.extend(queryActions) as unknown as Record<string, (params?: unknown) => unknown>;
  return [...Object.keys(nodeActions), ...Object.keys(queryActions)].map((name) => [name, methods[name]!]);
}

describe("every input checked", () => {
  it("every client action returns a promise that rejects with a PerpxError for a missing or null argument", async () => {
    const { transport } = countingTransport();
    const client = createNodeClient({ grpc: transport, timeoutMs: 2_000 });
    const offenders: string[] = [];
    for (const [name, action] of actions(client)) {
      for (const argument of [undefined, null]) {
        let result: unknown;
        try {
          result = action(argument);
        } catch (error) {
          offenders.push(`${name}(${argument}) threw synchronously: ${String(error)}`);
          continue;
        }
        expect(result, name).toBeInstanceOf(Promise);
        const error = await (result as Promise<unknown>).then(
          () => undefined,
          (e: unknown) => e,
        );
        if (error !== undefined && !isPerpxError(error))
          offenders.push(`${name}(${argument}): ${String(error)}`);
      }
    }
    expect(actions(client).length).toBeGreaterThan(60);
    expect(offenders).toEqual([]);
  });

  it("every message builder, createNodeClient and tradingKeyFromCredential refuse a missing argument with a PerpxError", () => {
    const builders = Object.entries(api).filter(
      ([name, value]) =>
        typeof value === "function" &&
        (/Msg$/.test(name) || name === "createNodeClient" || name === "tradingKeyFromCredential"),
    ) as Array<[string, (params: unknown) => unknown]>;
    expect(builders.length).toBeGreaterThan(12);
    for (const [name, build] of builders) {
      for (const argument of [undefined, null, 42]) {
        let error: unknown;
        try {
          build(argument);
        } catch (e) {
          error = e;
        }
        expect(isPerpxError(error), `${name}(${argument}): ${String(error)}`).toBe(true);
      }
    }
  });

  it("a query refuses an invalid address before anything is sent", async () => {
    const { transport, calls } = countingTransport();
    const client = createNodeClient({ grpc: transport }).extend(queryActions);
    const queries: Array<[string, (address: string) => Promise<unknown>]> = [
      ["getBalance", (address) => client.getBalance({ address, denom: "uusdc" })],
      ["getBalances", (address) => client.getBalances({ address })],
      ["getAccount", (address) => client.getAccount({ address })],
      ["getAccountSequence", (address) => client.getAccountSequence({ address })],
      ["getAuthenticators", (address) => client.getAuthenticators({ address })],
      ["getAuthenticator", (address) => client.getAuthenticator({ address, id: 1n })],
      ["getAccountState", (address) => client.getAccountState({ address })],
      ["getUserFeeTier", (user) => client.getUserFeeTier({ user })],
      ["getAffiliateInfo", (address) => client.getAffiliateInfo({ address })],
      ["getReferredBy", (address) => client.getReferredBy({ address })],
      ["getSubaccount", (owner) => client.getSubaccount({ owner, number: 0 })],
      ["getDelayedCompleteBridgeMessages", (address) => client.getDelayedCompleteBridgeMessages({ address })],
      ["getBridgeEvents", (address) => client.getBridgeEvents({ address })],
    ];
    const invalid = [
      "",
      "x",
      "perpx1qqqq",
      "cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a",
      "0x12",
      "PERPX1Q",
    ];
    for (const [name, query] of queries) {
      for (const address of invalid) {
        const error = await query(address).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isInvalidAddressError(error), `${name}(${JSON.stringify(address)}): ${String(error)}`).toBe(
          true,
        );
      }
    }
    expect(calls()).toBe(0);
    // A valid address (either form) goes out.
    await client
      .getBalances({ address: "0x000000000000000000000000000000000000dEaD" })
      .catch(() => undefined);
    expect(calls()).toBe(1);
  });
});

describe("nested inputs", () => {
  it("getStatefulOrder refuses a missing order or a short-term kind before anything is sent", async () => {
    const { transport, calls } = countingTransport();
    const client = createNodeClient({ grpc: transport });
    const owner = "0x000000000000000000000000000000000000dEaD";
    for (const order of [
      undefined,
      null,
      { subaccount: { owner, number: 0 }, clientId: 1, clobPairId: 0, kind: "short-term" },
      { subaccount: { owner: "x", number: 0 }, clientId: 1, clobPairId: 0, kind: "long-term" },
      { subaccount: { owner, number: 0 }, clientId: -1, clobPairId: 0, kind: "long-term" },
    ]) {
      const error = await client.getStatefulOrder({ order } as never).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isPerpxError(error), JSON.stringify(order)).toBe(true);
    }
    expect(calls()).toBe(0);
  });
});
