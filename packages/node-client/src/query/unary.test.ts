import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createRouterTransport } from "@connectrpc/connect";
import { isMissingEndpointError } from "@perpx/core";
import { cosmosBank } from "@perpx/proto";
import { describe, expect, it } from "vitest";
import { toBase64 } from "../bytes.js";
import { createNodeClient } from "../client.js";
import { isQueryError, isTransportError } from "../errors.js";
import { getBalances } from "./bank.js";
import { MAX_PAGES } from "./pages.js";
import { queryPath, unaryQuery } from "./unary.js";

const address = "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq6jyxvc";

describe("unaryQuery over gRPC (in-memory router)", () => {
  it("decodes answers and reads every page", async () => {
    const transport = createRouterTransport(({ service }) => {
      service(cosmosBank.Query, {
        allBalances(request: cosmosBank.QueryAllBalancesRequest) {
          const page = request.pagination?.key.length ? 2 : 1;
          return {
            balances: [{ denom: `d${page}`, amount: String(page) }],
            pagination: page === 1 ? { nextKey: new Uint8Array([1]) } : {},
          };
        },
      } as never);
    });
    const client = createNodeClient({ grpc: transport });
    expect(await getBalances(client, { address })).toEqual([
      { denom: "d1", amount: 1n },
      { denom: "d2", amount: 2n },
    ]);
  });

  it("maps gRPC statuses: NotFound -> QueryError(notFound, sdk 22), Unavailable -> TransportError", async () => {
    const failing = (code: Code) =>
      createNodeClient({
        grpc: createRouterTransport(({ service }) => {
          service(cosmosBank.Query, {
            balance() {
              throw new ConnectError("account x not found: key not found", code);
            },
          } as never);
        }),
      });
    const notFound = await unaryQuery(failing(Code.NotFound), {
      method: cosmosBank.Query.method.balance,
      request: {
        address,
        denom: "x",
      },
    }).catch((e: unknown) => e);
    expect(
      isQueryError(notFound) &&
        notFound.notFound &&
        notFound.abciCode === 22 &&
        notFound.grpcCode === Code.NotFound,
    ).toBe(true);
    const invalid = await unaryQuery(failing(Code.InvalidArgument), {
      method: cosmosBank.Query.method.balance,
      request: {
        address,
        denom: "x",
      },
    }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({
      abciCode: 18,
      transport: "grpc",
      path: "/cosmos.bank.v1beta1.Query/Balance",
    });
    const down = await unaryQuery(failing(Code.Unavailable), {
      method: cosmosBank.Query.method.balance,
      request: {
        address,
        denom: "x",
      },
    }).catch((e: unknown) => e);
    expect(isTransportError(down)).toBe(true);
  });
});

describe("unaryQuery over RPC abci_query (injected JSON-RPC client)", () => {
  function fakeRpc(answer: (request: { method: string; params: Record<string, unknown> }) => unknown) {
    const seen: Array<{ method: string; params: Record<string, unknown> }> = [];
    return {
      seen,
      rpcClient: {
        execute: async (request: { id: number; method: string; params: Record<string, unknown> }) => {
          seen.push(request);
          return { jsonrpc: "2.0", id: request.id, result: answer(request) };
        },
        disconnect: () => {},
      },
    };
  }

  it("sends the method path and hex data, and decodes the value", async () => {
    const value = toBinary(
      cosmosBank.QueryBalanceResponseSchema,
      create(cosmosBank.QueryBalanceResponseSchema, { balance: { denom: "uusdc", amount: "12" } }),
    );
    const { seen, rpcClient } = fakeRpc(() => ({
      response: {
        code: 0,
        log: "",
        info: "",
        index: "0",
        key: null,
        value: toBase64(value),
        height: "7",
        codespace: "",
      },
    }));
    const client = createNodeClient({ nodeRpc: { rpcClient: rpcClient as never } });
    const response = await unaryQuery(client, {
      height: 5n,
      method: cosmosBank.Query.method.balance,
      request: { address, denom: "uusdc" },
    });
    expect(response.balance?.amount).toBe("12");
    expect(seen[0]?.method).toBe("abci_query");
    expect(seen[0]?.params.path).toBe("/cosmos.bank.v1beta1.Query/Balance");
    expect(seen[0]?.params.height).toBe("5");
    expect(queryPath(cosmosBank.Query.method.balance)).toBe("/cosmos.bank.v1beta1.Query/Balance");
  });

  it("turns a non-zero code into a QueryError with code and codespace", async () => {
    const { rpcClient } = fakeRpc(() => ({
      response: {
        code: 6,
        log: "unknown query path",
        info: "",
        index: "0",
        key: null,
        value: null,
        height: "7",
        codespace: "sdk",
      },
    }));
    const client = createNodeClient({ nodeRpc: { rpcClient: rpcClient as never } });
    const error = await unaryQuery(client, {
      method: cosmosBank.Query.method.balance,
      request: { address, denom: "x" },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "QUERY",
      abciCode: 6,
      codespace: "sdk",
      transport: "rpc",
      log: "unknown query path",
      notFound: false,
    });
  });

  it("needs gRPC or RPC", async () => {
    const client = createNodeClient({ nodeRest: "http://127.0.0.1:1" });
    expect(
      isMissingEndpointError(
        await unaryQuery(client, {
          method: cosmosBank.Query.method.balance,
          request: { address, denom: "x" },
        }).catch((e: unknown) => e),
      ),
    ).toBe(true);
  });
});

describe("allPages over a node whose pagination does not end (in-memory router)", () => {
  /** A bank query service whose every page answers one balance and `nextKey(page)`. */
  const looping = (nextKey: (page: number) => Uint8Array) => {
    let pages = 0;
    const client = createNodeClient({
      grpc: createRouterTransport(({ service }) => {
        service(cosmosBank.Query, {
          allBalances() {
            pages += 1;
            return { balances: [{ denom: "d", amount: "1" }], pagination: { nextKey: nextKey(pages) } };
          },
        } as never);
      }),
    });
    return { client, pages: () => pages };
  };

  it("fails with a QueryError, not part of the items, when the next key repeats", async () => {
    const node = looping(() => new Uint8Array([7]));
    const error = await getBalances(node.client, { address }).catch((e: unknown) => e);
    expect(isQueryError(error) && error.log).toBe(
      "the node's pagination repeated its next key (page 2); no items are returned",
    );
    expect(node.pages()).toBe(2);
  });

  it("fails with a QueryError after MAX_PAGES pages of ever new keys", async () => {
    const node = looping((page) => new Uint8Array([page >> 8, page & 0xff]));
    const error = await getBalances(node.client, { address }).catch((e: unknown) => e);
    expect(isQueryError(error) && error.log).toBe(
      `the node's pagination did not end after ${MAX_PAGES} pages (page ${MAX_PAGES}); no items are returned`,
    );
    expect(error).toMatchObject({ transport: "grpc", path: "/cosmos.bank.v1beta1.Query/AllBalances" });
    expect(node.pages()).toBe(MAX_PAGES);
  });
});
