/**
 * Tx: the result (code, codespace, log and the error's registered name), its block and the block's
 * time, gas, fee, the signer in both address forms, every message decoded in human units (orders
 * as a table of market, side, size and price; the chain's JSON folded away), and the events. Every
 * address is a link to its account.
 */
import { addressToHex } from "@perpx/core";
import { getBlockHeaders } from "@perpx/node-client/queries";
import { CHAIN_ERRORS, chainErrorOfLog } from "@perpx/node-client/tx";
import type { Explorer } from "../context.js";
import { facts, h, link, linkify, section, slot, table } from "../dom.js";
import { priceFills } from "../fill-prices.js";
import { coin, short, time } from "../format.js";
import { type DecodedMessage, decodeMessages, signerOf } from "../messages.js";
import type { OrderRow } from "../orders.js";

/** The registered description of a failed tx's error, by codespace and code, else from its log. */
export function errorName(codespace: string, code: number, log: string): string | undefined {
  if (code === 0) return undefined;
  const space = (CHAIN_ERRORS as Record<string, Record<string, string> | undefined>)[codespace];
  return space?.[String(code)] ?? chainErrorOfLog(log, [codespace])?.description;
}

/** Both forms of an address, each linking to its account page. */
function addressForms(address: string | undefined): HTMLElement | string {
  if (address === undefined) return "";
  return h(
    "span",
    {},
    link(`account/${address}`, address, "bech32"),
    h("br"),
    link(`account/${address}`, addressToHex(address), "hex"),
  );
}

/** A table of orders in human units; the owner's subaccount links to its account. */
export function orderTable(rows: readonly OrderRow[]): HTMLElement {
  return table(
    "orders",
    ["Action", "Market", "Side", "Size", "Price", "Subaccount", "Client id", "Details"],
    rows.map((row) => [
      row.action,
      row.market.includes(" ") ? row.market : link(`market/${row.market}`, row.market),
      row.side,
      h("span", { "data-field": "order-size" }, row.size),
      h("span", { "data-field": "order-price" }, row.price),
      h("span", {}, link(`account/${row.owner}`, short(row.owner, 10)), `/${row.subaccountNumber}`),
      row.clientId,
      h("span", {}, ...linkify(row.detail, 10)),
    ]),
  );
}

/** A message: its type, its line in human units, its orders, and its JSON folded away. */
function messageView(m: DecodedMessage): HTMLElement {
  return h(
    "div",
    { class: "message", "data-message": m.typeUrl },
    h("strong", {}, m.typeUrl),
    m.summary === undefined ? null : h("p", { "data-field": "summary" }, ...linkify(m.summary)),
    m.orders.length === 0 ? null : orderTable(m.orders),
    h(
      "details",
      {},
      h("summary", {}, "message JSON"),
      h("pre", {}, ...linkify(JSON.stringify(m.json, null, 2))),
    ),
  );
}

/** Renders the tx page of `hash`. */
export function txPage(ex: Explorer, root: HTMLElement, hash: string): undefined {
  const body = slot("tx");
  root.append(h("h1", { "data-field": "title" }, `Transaction ${hash.toUpperCase()}`), body.element);
  const withTime = async () => {
    const tx = await ex.node.getTx({ hash, transport: "rpc" });
    if (tx === undefined) return { tx, blockTime: undefined, messages: [] };
    const [[header], markets] = await Promise.all([
      getBlockHeaders(ex.node, { maxHeight: tx.height, count: 1 }),
      ex.markets(),
    ]);
    const messages = await Promise.all(
      decodeMessages(tx.tx?.body?.messages ?? [], markets).map(async (m) => ({
        ...m,
        orders: await priceFills(ex, tx.height, m.orders),
      })),
    );
    return { tx, blockTime: header?.time, messages };
  };
  withTime().then(
    ({ tx, blockTime, messages }) => {
      if (tx === undefined) {
        body.fill(
          h(
            "p",
            { class: "error", "data-field": "not-found" },
            "No such transaction (not in a block yet, or never).",
          ),
        );
        return;
      }
      const name = errorName(tx.codespace, tx.code, tx.log);
      const fee = tx.tx?.authInfo?.fee;
      body.fill(
        section(
          "Result",
          "result",
          facts(
            [
              [
                "Status",
                "status",
                tx.code === 0
                  ? h("span", { class: "ok" }, "success")
                  : h("span", { class: "error" }, "failed"),
              ] as const,
              ["Error", "error-name", name ?? ""] as const,
              ["Code", "code", tx.code] as const,
              ["Codespace", "codespace", tx.codespace] as const,
              ["Log", "log", tx.log] as const,
              ["Block", "height", link(`block/${tx.height}`, tx.height)] as const,
              ["Time", "time", time(blockTime)] as const,
              ["Gas used / wanted", "gas", `${tx.gasUsed} / ${tx.gasWanted}`] as const,
              [
                "Fee",
                "fee",
                (fee?.amount ?? []).map((c) => coin(c.amount, c.denom)).join(", ") || "none",
              ] as const,
              ["Memo", "memo", tx.tx?.body?.memo ?? ""] as const,
              ["Signer", "signer", addressForms(signerOf(tx.events))] as const,
            ].filter(([, , value]) => value !== ""),
          ),
        ),
        section(`Messages (${messages.length})`, "messages", ...messages.map(messageView)),
        section(
          "Events",
          "events",
          h(
            "details",
            {},
            h("summary", {}, `${tx.events.length} events, as the chain emitted them (chain units)`),
            table(
              "events",
              ["Type", "Attributes"],
              tx.events.map((e) => [
                e.type,
                h("pre", {}, ...linkify(e.attributes.map((a) => `${a.key} = ${a.value}`).join("\n"))),
              ]),
            ),
          ),
        ),
      );
    },
    (error: unknown) => body.fail(error),
  );
  return undefined;
}
