/**
 * Time, height, health, compliance, vaults, affiliates and trader search
 * (`spec/indexer-api.md` 1.9 and 1.10).
 */
import type { HeightResponse, TimeResponse } from "@perpx/core/indexer";
import { call, type OptionalRouteAction } from "../call.js";
import type { CallOptions } from "../deadline.js";

/**
 * The indexer's clock (`GET /v4/time`): `epoch` is seconds with a fraction.
 *
 * @param client - the indexer client.
 * @param params - call options.
 * @returns `{ iso, epoch }`.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/time": { iso: "2026-01-01T00:00:00.500Z", epoch: 1767225600.5 } }) });
 * (await getTime(client)).epoch; // 1767225600.5
 * ```
 */
export const getTime: OptionalRouteAction<CallOptions, TimeResponse> = call("getTime");

/**
 * The latest indexed block (`GET /v4/height`).
 *
 * @param client - the indexer client.
 * @param params - call options.
 * @returns `{ height, time }`.
 * @throws IndexerNotFoundError before the first block.
 * @example
 * ```ts
 * const client = createIndexerClient({ baseUrl: "http://indexer.test", fetch: createStaticFetch({ "/v4/height": { height: "42", time: "2026-01-01T00:00:00.000Z" } }) });
 * (await getHeight(client)).height; // "42"
 * ```
 */
export const getHeight: OptionalRouteAction<CallOptions, HeightResponse> = call("getHeight");
