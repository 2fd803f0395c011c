/**
 * Block: the header, and each tx with its result code, its messages and, for the proposed-operations
 * tx, its placements, fills and removals in human units. A height above the chain's says so.
 */

import { getBlock, getBlockResults } from "@perpx/node-client/queries";
import type { Explorer } from "../context.js";
import { facts, h, link, linkify, section, slot, table } from "../dom.js";
import { priceFills } from "../fill-prices.js";
import { short, time } from "../format.js";
import { decodeMessages } from "../messages.js";
import { errorName, orderTable } from "./tx.js";

/**
 * The chain's height now: the feed's when it has reached `wanted`, else the node's (the indexer's
 * feed lags the node, and stands still while its socket is lost).
 */
export async function chainHeight(ex: Explorer, wanted = 0n): Promise<bigint> {
  const feed = ex.height()?.height;
  if (feed !== undefined && feed >= wanted) return feed;
  const node = (await ex.node.getLatestBlock()).height;
  return feed !== undefined && feed > node ? feed : node;
}

/** Renders the block page of `height`. */
export function blockPage(ex: Explorer, root: HTMLElement, height: string): undefined {
  const body = slot("block");
  root.append(h("h1", { "data-field": "title" }, `Block ${height}`), body.element);
  if (!/^\d+$/.test(height) || BigInt(height) < 1n) {
    body.fail(new Error(`A block height is a positive integer, not ${JSON.stringify(height)}`));
    return undefined;
  }
  const wanted = BigInt(height);
  const load = async () => {
    const [block, results, markets] = await Promise.all([
      getBlock(ex.node, { height: wanted }),
      getBlockResults(ex.node, { height: wanted }),
      ex.markets(),
    ]);
    // Each tx's messages, fills priced from the indexer where the block does not say.
    const decoded = await Promise.all(
      block.txs.map((tx) =>
        Promise.all(
          decodeMessages(tx.tx?.body?.messages ?? [], markets).map(async (m) => ({
            ...m,
            orders: await priceFills(ex, wanted, m.orders),
          })),
        ),
      ),
    );
    return { block, results, decoded };
  };
  const render = () =>
    load().then(
      ({ block, results, decoded }) => {
        const { header } = block;
        body.fill(
          section(
            "Header",
            "header",
            facts([
              ["Height", "height", header.height],
              ["Time", "time", time(header.time)],
              ["Chain id", "chain-id", header.chainId],
              ["Hash", "hash", header.hash],
              [
                "Previous block",
                "last-hash",
                header.height > 1n
                  ? link(`block/${header.height - 1n}`, header.lastBlockHash)
                  : header.lastBlockHash,
              ],
              ["App hash", "app-hash", header.appHash],
              ["Proposer", "proposer", header.proposerAddress],
              ["Transactions", "tx-count", header.txCount],
            ]),
          ),
          section(
            "Transactions",
            "txs",
            table(
              "txs",
              ["Hash", "Code", "Messages", "Gas used"],
              block.txs.map((tx, i) => {
                const result = results[i];
                const messages = decoded[i] ?? [];
                const code = result?.code ?? 0;
                const name =
                  result === undefined ? undefined : errorName(result.codespace, result.code, result.log);
                return [
                  link(`tx/${tx.hash}`, short(tx.hash), "tx-hash"),
                  h(
                    "span",
                    { class: code === 0 ? "ok" : "error", "data-field": "code" },
                    code === 0 ? "0" : `${code} ${result?.codespace ?? ""} ${name ?? ""}`,
                  ),
                  h(
                    "div",
                    {},
                    ...messages.map((m) =>
                      h(
                        "div",
                        {},
                        ...linkify(m.summary ?? m.typeUrl.slice(m.typeUrl.lastIndexOf(".") + 1)),
                        m.orders.length === 0 ? null : orderTable(m.orders),
                      ),
                    ),
                  ),
                  result?.gasUsed ?? "",
                ];
              }),
              "no transactions",
            ),
          ),
        );
      },
      (error: unknown) => body.fail(error),
    );
  chainHeight(ex, wanted).then(
    (top) => {
      if (wanted > top) {
        body.fill(
          h(
            "p",
            { class: "error", "data-field": "not-found" },
            `No block ${height} yet: the chain is at height `,
            link(`block/${top}`, top),
            ".",
          ),
        );
        return;
      }
      render();
    },
    (error: unknown) => body.fail(error),
  );
  return undefined;
}
