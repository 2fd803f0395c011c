/**
 * `block_search`: committed blocks whose height (`block.height`) and finalize-block events match a
 * CometBFT event query, paged as `tx_search` is. A scan over the stored blocks, narrowed to the
 * heights the query's `block.height` conditions allow.
 */

import type { BlockRecord, ChainApp } from "../../app/contract.js";
import {
  parseQuery,
  type QueryCondition,
  QuerySyntaxError,
  queryMatches,
} from "../../app/lib/event-query.js";
import { blockResponseJson } from "../comet-json.js";
import { internal, invalidParam } from "./errors.js";
import { type MethodTable, type Params, requireString } from "./params.js";

/** The height range `block.height` conditions leave open, within [low, high]. */
function heightRange(conditions: readonly QueryCondition[], low: bigint, high: bigint): [bigint, bigint] {
  let [min, max] = [low, high];
  for (const c of conditions) {
    if (c.key !== "block.height" || c.operand === undefined) continue;
    const h = BigInt(c.operand.text); // the parser only lets integer heights through
    if (c.op === "=" || c.op === ">=") min = h > min ? h : min;
    if (c.op === ">") min = h + 1n > min ? h + 1n : min;
    if (c.op === "=" || c.op === "<=") max = h < max ? h : max;
    if (c.op === "<") max = h - 1n < max ? h - 1n : max;
  }
  return [min, max];
}

function blockMatches(conditions: readonly QueryCondition[], block: BlockRecord): boolean {
  const events = block.finalizeBlockEvents;
  return queryMatches(conditions, {
    values: (key) => {
      if (key === "block.height") return [block.height.toString()];
      const dot = key.lastIndexOf(".");
      const type = key.slice(0, dot);
      const attribute = key.slice(dot + 1);
      return events.flatMap((e) =>
        dot > 0 && e.type === type ? e.attributes.filter((a) => a.key === attribute).map((a) => a.value) : [],
      );
    },
    hasType: (key) => events.some((e) => e.type === key),
  });
}

function search(app: ChainApp, p: Params) {
  const query = requireString(p, "query");
  const orderBy = (p.order_by as string | undefined) ?? "";
  if (orderBy !== "" && orderBy !== "asc" && orderBy !== "desc") {
    throw invalidParam("order_by", 'must be "asc" or "desc"');
  }
  let conditions: QueryCondition[];
  try {
    conditions = parseQuery(query);
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw invalidParam("query", error.message);
    throw error;
  }
  const [min, max] = heightRange(conditions, app.baseHeight(), app.latestBlock().height);
  const found: BlockRecord[] = [];
  for (let h = min; h <= max; h++) {
    const block = app.block(h);
    if (block !== undefined && blockMatches(conditions, block)) found.push(block);
  }
  if (orderBy === "desc") found.reverse();
  const perPageRaw = (p.per_page as bigint | undefined) ?? 30n;
  const perPage = Number(perPageRaw < 1n ? 30n : perPageRaw > 100n ? 100n : perPageRaw);
  const pages = Math.max(1, Math.ceil(found.length / perPage));
  const page = Number((p.page as bigint | undefined) ?? 1n);
  if (page < 1 || page > pages) throw internal(`page should be within [1, ${pages}] range, given ${page}`);
  const slice = found.slice((page - 1) * perPage, page * perPage);
  return { blocks: slice.map((b) => blockResponseJson(app, b)), total_count: found.length.toString() };
}

/** `block_search` over `app`. */
export function blockSearchMethods(app: ChainApp): MethodTable {
  return {
    block_search: {
      params: [
        ["query", "string"],
        ["page", "int"],
        ["per_page", "int"],
        ["order_by", "string"],
      ],
      run: (p) => search(app, p),
    },
  };
}
