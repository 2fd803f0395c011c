/** Tx methods: `tx` (by hash) and `tx_search` (by a CometBFT event query, paged). */
import type { ChainApp, IndexedTx } from "../../app/contract.js";
import { indexedTxJson } from "../comet-json.js";
import { toHexUpper } from "../encoding.js";
import { internal, invalidParam } from "./errors.js";
import { type MethodTable, requireBytes, requireString } from "./params.js";

/** The tx methods over `app`. */
export function txMethods(app: ChainApp): MethodTable {
  return {
    tx: {
      params: [
        ["hash", "bytes"],
        ["prove", "bool"],
      ],
      run: (p) => {
        const hash = requireBytes(p, "hash");
        const indexed = app.tx(hash);
        if (indexed === undefined) throw internal(`tx (${toHexUpper(hash)}) not found`);
        return indexedTxJson(indexed);
      },
    },
    tx_search: {
      params: [
        ["query", "string"],
        ["prove", "bool"],
        ["page", "int"],
        ["per_page", "int"],
        ["order_by", "string"],
      ],
      run: (p) => {
        const query = requireString(p, "query");
        const orderBy = (p.order_by as string | undefined) ?? "";
        if (orderBy !== "" && orderBy !== "asc" && orderBy !== "desc") {
          throw invalidParam("order_by", 'must be "asc" or "desc"');
        }
        const perPageRaw = (p.per_page as bigint | undefined) ?? 30n;
        const perPage = Number(perPageRaw < 1n ? 30n : perPageRaw > 100n ? 100n : perPageRaw);
        let found: IndexedTx[];
        try {
          found = app.searchTxs(query, orderBy === "desc" ? "desc" : "asc");
        } catch (error) {
          if (error instanceof Error && error.name === "QuerySyntaxError")
            throw invalidParam("query", error.message);
          throw internal(error instanceof Error ? error.message : String(error));
        }
        const pages = Math.max(1, Math.ceil(found.length / perPage));
        const page = Number((p.page as bigint | undefined) ?? 1n);
        if (page < 1 || page > pages) {
          throw internal(`page should be within [1, ${pages}] range, given ${page}`);
        }
        const slice = found.slice((page - 1) * perPage, page * perPage);
        return { txs: slice.map(indexedTxJson), total_count: found.length.toString() };
      },
    },
  };
}
