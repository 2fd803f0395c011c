/**
 * A fill of the proposer's operations names its orders by id only: when both were placed in earlier
 * blocks (long-term orders), the taker's side and the price (the maker's) are not in the block. The
 * indexer's fills of the taker's subaccount at that height have them.
 */
import type { FillResponseObject } from "@perpx/core/indexer";
import type { Explorer } from "./context.js";
import { baseAsset } from "./format.js";
import type { OrderRow } from "./orders.js";

/** `rows` with each fill's missing side and price taken from the taker's indexer fills at `height`. */
export async function priceFills(
  ex: Explorer,
  height: bigint,
  rows: readonly OrderRow[],
): Promise<OrderRow[]> {
  const missing = rows.filter((r) => r.action === "fill" && (r.side === "" || r.price === ""));
  if (missing.length === 0) return [...rows];
  const takers = [...new Set(missing.map((r) => `${r.owner}/${r.subaccountNumber}`))];
  const fills = new Map<string, FillResponseObject[]>();
  await Promise.all(
    takers.map(async (taker) => {
      const [address = "", number = "0"] = taker.split("/");
      const list = await ex.indexer
        .getFills({ owner: address, number: Number(number), createdBeforeOrAtHeight: height, limit: 100 })
        .then(
          (answer) =>
            answer.fills.filter((f) => f.createdAtHeight === String(height) && f.liquidity === "TAKER"),
          () => [],
        );
      fills.set(taker, list);
    }),
  );
  return rows.map((row) => {
    if (!missing.includes(row)) return row;
    const list = fills.get(`${row.owner}/${row.subaccountNumber}`) ?? [];
    const at = list.findIndex(
      (f) => f.market === row.market && `${f.size} ${baseAsset(f.market)}` === row.size,
    );
    if (at < 0) return row;
    const [fill] = list.splice(at, 1);
    return { ...row, side: row.side || fill!.side, price: row.price || `${fill!.price} USD` };
  });
}
