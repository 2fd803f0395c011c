/**
 * `createIndexerClient`: a connection with a method for every action of `indexerActions`.
 */
import { type IndexerActions, indexerActions } from "./actions.js";
import {
  createIndexerConnection,
  type IndexerConnection,
  type IndexerConnectionOptions,
} from "./connection.js";

/**
 * A function that acts on an indexer: `action(client, params)`.
 *
 * @example
 * ```ts
 * const latest: IndexerAction = async (client: IndexerConnection) => (await getHeight(client)).height;
 * ```
 */
export type IndexerAction = (client: IndexerConnection, ...params: never[]) => unknown;

/**
 * The methods a table of actions gives a client: `action(client, params)` becomes `client.action(params)`.
 *
 * @example
 * ```ts
 * type Methods = BoundIndexerActions<{ latest: (client: IndexerConnection) => Promise<string> }>; // { latest(): Promise<string> }
 * ```
 */
export type BoundIndexerActions<A> = {
  readonly [K in keyof A]: A[K] extends (client: IndexerConnection, ...params: infer P) => infer R
    ? (...params: P) => R
    : never;
};

/**
 * A client of one indexer: its connection and a method for every action of `indexerActions`.
 * `client.getFills(p)` is `getFills(client, p)`.
 *
 * @example
 * ```ts
 * const client: IndexerClient = createIndexerClient({ baseUrl: "http://127.0.0.1:3002" });
 * typeof client.getPerpetualMarkets; // "function"
 * ```
 */
export type IndexerClient = IndexerConnection &
  BoundIndexerActions<IndexerActions> & {
    /**
     * A client with more actions: your own `action(client, params)` functions become methods too.
     *
     * @example
     * ```ts
     * const client = createIndexerClient({ baseUrl: "http://127.0.0.1:3002" });
     * const mine = client.extend({ latest: async (c: IndexerConnection) => (await getHeight(c)).height });
     * typeof mine.latest; // "function"
     * ```
     */
    extend<A extends Record<string, IndexerAction>>(actions: A): IndexerClient & BoundIndexerActions<A>;
  };

/**
 * Options of {@link createIndexerClient}.
 *
 * @example
 * ```ts
 * const options: IndexerClientOptions = { baseUrl: "http://127.0.0.1:3002", timeoutMs: 5_000, retry: false };
 * ```
 */
export type IndexerClientOptions = IndexerConnectionOptions;

function clientOf<A extends Record<string, IndexerAction>>(
  connection: IndexerConnection,
  actions: A,
): IndexerClient & BoundIndexerActions<A> {
  const client: Record<string, unknown> = { ...connection };
  const all = { ...indexerActions, ...actions } as Record<string, IndexerAction>;
  for (const [name, action] of Object.entries(all)) {
    client[name] = (...params: never[]) => action(client as unknown as IndexerConnection, ...params);
  }
  client.extend = <B extends Record<string, IndexerAction>>(more: B) =>
    clientOf(connection, { ...actions, ...more });
  return client as unknown as IndexerClient & BoundIndexerActions<A>;
}

/**
 * Creates an indexer client. Nothing is dialled until the first call; calls use the injected
 * `fetch` (default `globalThis.fetch`), so the client runs in Node and in browsers.
 *
 * @param options - base URL, fetch, timeout, retry policy, headers and address prefix.
 * @returns the client.
 * @throws InvalidArgumentError for a base URL that is not http(s) or a bad option.
 * @example
 * ```ts
 * const client = createIndexerClient({
 *   baseUrl: "http://indexer.test",
 *   fetch: createStaticFetch({ "/v4/perpetualMarkets": { markets: {} } }),
 *   timeoutMs: 5_000,
 * });
 * Object.keys((await client.getPerpetualMarkets()).markets); // []
 * createIndexerClient({ baseUrl: "ftp://x" }); // throws InvalidArgumentError
 * ```
 */
export function createIndexerClient(options: IndexerClientOptions): IndexerClient {
  return clientOf(createIndexerConnection(options), {});
}
