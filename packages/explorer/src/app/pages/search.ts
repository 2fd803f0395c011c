/**
 * Search: an address (bech32 or 0x) opens its account, 64 hex digits a transaction, digits a block,
 * and an indexer order id (a UUID) the order.
 */
import { isValidAddress, toBech32 } from "@perpx/core";
import type { Explorer } from "../context.js";
import { facts, h, link, section, slot } from "../dom.js";
import { time } from "../format.js";

/** What a query names. */
export type SearchKind = "address" | "tx" | "height" | "order" | "unknown";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Classifies a search query. */
export function searchKind(query: string): SearchKind {
  const q = query.trim();
  if (/^\d+$/.test(q)) return "height";
  if (/^(0x)?[0-9a-f]{64}$/i.test(q)) return "tx";
  if (isValidAddress(q)) return "address";
  if (UUID.test(q)) return "order";
  return "unknown";
}

/** Renders the search page of `query`: goes to the page it names, or shows the order. */
export function searchPage(ex: Explorer, root: HTMLElement, query: string): undefined {
  const q = query.trim();
  const kind = searchKind(q);
  if (kind === "height") location.replace(`#/block/${q}`);
  else if (kind === "tx") location.replace(`#/tx/${q.replace(/^0x/i, "").toUpperCase()}`);
  else if (kind === "address") location.replace(`#/account/${toBech32(q)}`);
  else if (kind === "order") {
    const body = slot("order");
    root.append(h("h1", { "data-field": "title" }, `Order ${q}`), body.element);
    ex.indexer.getOrder({ orderId: q }).then(
      (order) =>
        body.fill(
          section(
            "Order",
            "order",
            facts([
              ["Id", "order-id", order.id],
              ["Market", "ticker", link(`market/${order.ticker}`, order.ticker)],
              ["Side", "side", order.side],
              ["Price", "price", order.price],
              ["Size", "size", order.size],
              ["Filled", "filled", order.totalFilled],
              ["Status", "status", order.status],
              ["Type", "type", order.type],
              ["Time in force", "tif", order.timeInForce],
              ["Subaccount number", "subaccount", order.subaccountNumber],
              ["Client id", "client-id", order.clientId],
              ["Good til", "good-til", order.goodTilBlock ?? time(order.goodTilBlockTime ?? undefined)],
            ]),
          ),
        ),
      (error: unknown) => body.fail(error),
    );
  } else {
    root.append(
      h("h1", {}, "Search"),
      h(
        "p",
        { class: "error", "data-field": "no-match" },
        `"${q}" is not an address, a tx hash, a height or an order id.`,
      ),
    );
  }
  return undefined;
}
