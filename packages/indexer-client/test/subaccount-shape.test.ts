/**
 * One subaccount shape across the clients (issue 23, point 6): the indexer client's calls and
 * `watchSubaccount` take `{ owner, number }` as the node client does; the old shape
 * (`address`, `subaccountNumber`) is refused with an `InvalidArgumentError` naming the field and
 * saying what to use, before any request.
 */
import { isInvalidArgumentError } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { createIndexerClient, createStaticFetch, type IndexerSocket, watchSubaccount } from "../src/index.js";

const OWNER = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";

function counting() {
  const seen: string[] = [];
  const answers = createStaticFetch({
    "/v4/fills": { fills: [] },
    "/v4/transfers/between": { transfersSubset: [], totalNetTransfers: "0" },
  });
  const client = createIndexerClient({
    baseUrl: "http://indexer.test",
    retry: false,
    fetch: (input, init) => {
      seen.push(String(input));
      return answers(input, init);
    },
  });
  return { client, seen };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isInvalidArgumentError(error))
    throw new Error(`expected an InvalidArgumentError, got ${String(error)}`);
  return error;
};

describe("a subaccount is { owner, number }", () => {
  it("is what the calls take", async () => {
    const { client, seen } = counting();
    expect((await client.getFills({ owner: OWNER, number: 3 })).fills).toEqual([]);
    expect(new URL(seen[0] ?? "").searchParams.get("address")).toBe(OWNER);
    expect(new URL(seen[0] ?? "").searchParams.get("subaccountNumber")).toBe("3");
    await client.getTransfersBetween({
      source: { owner: OWNER, number: 0 },
      recipient: { owner: OWNER, number: 1 },
    });
    expect(new URL(seen[1] ?? "").searchParams.get("recipientSubaccountNumber")).toBe("1");
  });

  it("refuses address and subaccountNumber by name, saying to use owner and number, before any request", async () => {
    const { client, seen } = counting();
    const old = { address: OWNER, subaccountNumber: 0 } as unknown as { owner: string; number: number };
    const address = await refusal(client.getFills(old));
    expect(address.argument).toBe("address");
    expect(address.message).toContain("owner");
    const parent = await refusal(
      client.getParentFills({ owner: OWNER, parentSubaccountNumber: 0 } as unknown as {
        owner: string;
        number: number;
      }),
    );
    expect(parent.argument).toBe("parentSubaccountNumber");
    expect(parent.message).toContain("number");
    const between = await refusal(
      client.getTransfersBetween({ source: old, recipient: { owner: OWNER, number: 1 } }),
    );
    expect(between.argument).toBe("source.address");
    expect(
      (await refusal(client.getFills({ owner: OWNER } as { owner: string; number: number }))).argument,
    ).toBe("number");
    expect(seen).toEqual([]);
  });

  it("is what watchSubaccount takes, refusing the old shape by name", () => {
    const socket = {} as IndexerSocket;
    const old = { address: OWNER, subaccountNumber: 0 } as unknown as { owner: string; number: number };
    let error: unknown;
    try {
      watchSubaccount(socket, old);
    } catch (e) {
      error = e;
    }
    expect(isInvalidArgumentError(error) && error.argument).toBe("address");
  });
});
