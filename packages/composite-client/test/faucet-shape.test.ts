/**
 * `CompositeClient.faucet` takes a subaccount as `{ owner, number }`, like every client (issue 23,
 * point 6): `address` or `subaccountNumber` is refused by name, saying what to use, before the
 * faucet is asked.
 */
import { isInvalidArgumentError } from "@perpx/core";
import { expect, it } from "vitest";
import type { ClientContext } from "../src/client.js";
import { faucetFor } from "../src/faucet.js";

it("refuses address and subaccountNumber by name before any request", async () => {
  // No endpoint table at all: reaching the faucet would fail otherwise.
  const context = {} as ClientContext;
  for (const [params, argument, use] of [
    [{ address: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c" }, "address", "owner"],
    [{ subaccountNumber: 1 }, "subaccountNumber", "number"],
  ] as const) {
    const error = await faucetFor(context, params as unknown as { owner?: string }).catch((e: unknown) => e);
    expect(isInvalidArgumentError(error) && error.argument).toBe(argument);
    expect(String((error as Error).message)).toContain(use);
  }
});
