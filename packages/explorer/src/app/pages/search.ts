/**
 * Search: tells apart what a query names and goes there, or says plainly that nothing matched.
 * Digits are a height when the chain has reached it (else "no block yet", with how to look up a
 * client id); 64 hex digits a transaction; an address in either form (bech32 or `0x`) its account;
 * a UUID an indexer order; `<address>/<subaccount>/<client id>` the orders of that client id,
 * wherever they are in the subaccount's orders (paged through, up to 10,000: see `client-id.ts`).
 */
import { isValidAddress, MAX_SUBACCOUNT_NUMBER, toBech32 } from "@perpx/core";
import type { OrderResponseObject } from "@perpx/core/indexer";
import { isIndexerNotFoundError } from "@perpx/indexer-client";
import { CLIENT_ID_MAX_PAGES, CLIENT_ID_PAGE_SIZE, findByClientId } from "../client-id.js";
import type { Explorer } from "../context.js";
import { amount, facts, h, link, section, slot } from "../dom.js";
import { baseAsset, time } from "../format.js";
import { chainHeight } from "./block.js";

/** What a query names. */
export type SearchKind = "address" | "tx" | "height" | "order" | "client-id" | "unknown";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `<address>/<subaccount number>/<client id>` (a child subaccount's number has up to six digits). */
const CLIENT_ID = /^([^/\s]+)\/(\d{1,6})\/(\d{1,10})$/;

/** Classifies a search query. */
export function searchKind(query: string): SearchKind {
  const q = query.trim();
  if (/^\d+$/.test(q)) return "height";
  if (/^(0x)?[0-9a-f]{64}$/i.test(q)) return "tx";
  if (isValidAddress(q)) return "address";
  if (UUID.test(q)) return "order";
  const parts = CLIENT_ID.exec(q);
  if (parts !== null && isValidAddress(parts[1]!) && Number(parts[2]) <= MAX_SUBACCOUNT_NUMBER)
    return "client-id";
  return "unknown";
}

/** A clear "nothing found" for the page, in its own card with any `more` below it. */
function notFound(text: ReadonlyArray<HTMLElement | string>, ...more: HTMLElement[]): HTMLElement {
  return section(
    "Nothing found",
    "not-found",
    h("p", { class: "error", "data-field": "not-found" }, ...text),
    ...more,
  );
}

/** An order's facts, every figure with its unit; its owner's account linked when `address` is known. */
function orderFacts(order: OrderResponseObject, address?: string): HTMLElement {
  const base = baseAsset(order.ticker);
  return section(
    `Order ${order.clientId} on ${order.ticker}`,
    "order",
    facts([
      ["Id", "order-id", order.id],
      ["Market", "ticker", link(`market/${order.ticker}`, order.ticker)],
      ["Side", "side", order.side],
      ["Price", "price-amount", amount(order.price, "USD", "price")],
      ["Size", "size-amount", amount(order.size, base, "size")],
      ["Filled", "filled", amount(order.totalFilled, base)],
      ["Status", "status", order.status],
      ["Type", "type", order.type],
      ["Time in force", "tif", order.timeInForce],
      [
        "Subaccount",
        "subaccount",
        address === undefined
          ? order.subaccountNumber
          : h("span", {}, link(`account/${address}`, address), `/${order.subaccountNumber}`),
      ],
      ["Client id", "client-id", order.clientId],
      [
        "Good til",
        "good-til",
        order.goodTilBlock !== undefined
          ? link(`block/${order.goodTilBlock}`, `block ${order.goodTilBlock}`)
          : time(order.goodTilBlockTime),
      ],
      [
        "Updated at block",
        "updated-at",
        order.updatedAtHeight === undefined
          ? ""
          : link(`block/${order.updatedAtHeight}`, order.updatedAtHeight),
      ],
    ]),
  );
}

/** Renders the search page of `query`: goes to the page it names, or shows what it found. */
export function searchPage(ex: Explorer, root: HTMLElement, query: string): undefined {
  const q = query.trim();
  const kind = searchKind(q);
  if (kind === "tx") {
    location.replace(`#/tx/${q.replace(/^0x/i, "").toUpperCase()}`);
    return undefined;
  }
  if (kind === "address") {
    location.replace(`#/account/${toBech32(q)}`);
    return undefined;
  }
  const body = slot("search");
  root.append(h("h1", { "data-field": "title" }, `Search: ${q}`), body.element);
  if (kind === "height") {
    chainHeight(ex, BigInt(q)).then(
      (top) => {
        if (BigInt(q) >= 1n && BigInt(q) <= top) location.replace(`#/block/${BigInt(q)}`);
        else
          body.fill(
            notFound(
              [`No block at height ${q}: the chain is at height `, link(`block/${top}`, String(top)), "."],
              h(
                "p",
                { class: "hint" },
                `If ${q} is an order's client id: client ids belong to a subaccount, so search for `,
                h("code", {}, `<address>/<subaccount>/${q}`),
                ".",
              ),
            ),
          );
      },
      (error: unknown) => body.fail(error),
    );
  } else if (kind === "order") {
    ex.indexer.getOrder({ orderId: q }).then(
      (order) => body.fill(orderFacts(order)),
      (error: unknown) => {
        if (isIndexerNotFoundError(error)) body.fill(notFound([`No order with id ${q}.`]));
        else body.fail(error);
      },
    );
  } else if (kind === "client-id") {
    const [, raw, sub, clientId] = CLIENT_ID.exec(q) ?? [];
    const address = toBech32(raw ?? "");
    findByClientId((params) => ex.indexer.getOrders(params), {
      owner: address,
      number: Number(sub),
      clientId: clientId ?? "",
    }).then(
      ({ found, searched, complete }) => {
        const partial = complete
          ? []
          : [
              h(
                "p",
                { class: "hint", "data-field": "search-bound" },
                `Searched the ${searched} orders of highest good-til of this subaccount (at most ${CLIENT_ID_MAX_PAGES * CLIENT_ID_PAGE_SIZE}); its other orders were not searched.`,
              ),
            ];
        body.fill(
          ...(found.length === 0
            ? [
                notFound(
                  [
                    `No order with client id ${clientId} in `,
                    link(`account/${address}`, address),
                    `/${sub}.`,
                  ],
                  ...partial,
                ),
              ]
            : [...found.map((order) => orderFacts(order, address)), ...partial]),
        );
      },
      (error: unknown) => {
        if (isIndexerNotFoundError(error))
          body.fill(
            notFound(["No subaccount ", link(`account/${address}`, address), `/${sub} on the indexer.`]),
          );
        else body.fail(error);
      },
    );
  } else {
    body.fill(
      notFound([
        `"${q}" is not a block height, a tx hash, an address (perpx1... or 0x...), an order id or <address>/<subaccount>/<client id>.`,
      ]),
    );
  }
  return undefined;
}
