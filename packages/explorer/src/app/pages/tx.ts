/**
 * Tx: the result (code, codespace, log and the error's registered name), gas, fee, the signer in
 * both address forms, every message decoded in human units, and the events.
 */
import { addressToHex } from "@perpx/core";
import { CHAIN_ERRORS, chainErrorOfLog } from "@perpx/node-client";
import type { Explorer } from "../context.js";
import { facts, h, link, section, slot, table } from "../dom.js";
import { coin } from "../format.js";
import { decodeMessages, signerOf } from "../messages.js";

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

/** Renders the tx page of `hash`. */
export function txPage(ex: Explorer, root: HTMLElement, hash: string): undefined {
  const body = slot("tx");
  root.append(h("h1", { "data-field": "title" }, `Transaction ${hash.toUpperCase()}`), body.element);
  Promise.all([ex.node.getTx({ hash, transport: "rpc" }), ex.markets()]).then(
    ([tx, markets]) => {
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
      const messages = decodeMessages(tx.tx?.body?.messages ?? [], markets);
      body.fill(
        section(
          "Result",
          "result",
          facts([
            [
              "Status",
              "status",
              tx.code === 0 ? h("span", { class: "ok" }, "success") : h("span", { class: "error" }, "failed"),
            ],
            ["Error", "error-name", name ?? ""],
            ["Code", "code", tx.code],
            ["Codespace", "codespace", tx.codespace],
            ["Log", "log", tx.log],
            ["Height", "height", link(`block/${tx.height}`, tx.height)],
            ["Gas used / wanted", "gas", `${tx.gasUsed} / ${tx.gasWanted}`],
            ["Fee", "fee", (fee?.amount ?? []).map((c) => coin(c.amount, c.denom)).join(", ") || "none"],
            ["Memo", "memo", tx.tx?.body?.memo ?? ""],
            ["Signer", "signer", addressForms(signerOf(tx.events))],
          ]),
        ),
        section(
          `Messages (${messages.length})`,
          "messages",
          ...messages.map((m) =>
            h(
              "div",
              { "data-message": m.typeUrl },
              h("strong", {}, m.typeUrl),
              m.summary === undefined ? null : h("p", { "data-field": "summary" }, m.summary),
              h("pre", {}, JSON.stringify(m.json, null, 2)),
            ),
          ),
        ),
        section(
          "Events",
          "events",
          table(
            "events",
            ["Type", "Attributes"],
            tx.events.map((e) => [
              e.type,
              h("pre", {}, e.attributes.map((a) => `${a.key} = ${a.value}`).join("\n")),
            ]),
          ),
        ),
      );
    },
    (error: unknown) => body.fail(error),
  );
  return undefined;
}
