/**
 * Account: both address forms (EIP-55), bank balances, subaccounts (with their parent) with equity
 * and free collateral, positions with entry price and PnL, open orders, fills, transfers, and the
 * authenticators (trading keys) decoded.
 */

import { addressToHex, isValidAddress, parentSubaccountNumber, toBech32 } from "@perpx/core";
import type { PerpetualPositionResponseObject, SubaccountResponseObject } from "@perpx/core/indexer";
import { isIndexerNotFoundError } from "@perpx/indexer-client";
import { getAuthenticators } from "@perpx/node-client/queries";
import { clientIdOf } from "../client-id.js";
import type { Explorer } from "../context.js";
import { amount, facts, h, link, section, slot, table } from "../dom.js";
import { baseAsset, coin, short, time } from "../format.js";
import { bad, unsignedOf } from "../orders.js";

const HISTORY = 20;

/** A height as the indexer writes it (decimal digits, a string), read strictly, or undefined. */
function heightOf(value: unknown): bigint | undefined {
  return typeof value === "string" ? unsignedOf(value) : undefined;
}

/**
 * Newest first, by height then time: histories of several subaccounts merged into one list. An
 * entry whose height is not decimal digits goes last (it is shown as bad, never read as hex).
 */
export function newestFirst<T extends { readonly createdAt: string; readonly createdAtHeight: string }>(
  list: readonly T[],
): T[] {
  return [...list].sort((a, b) => {
    const [x, y] = [heightOf(a.createdAtHeight), heightOf(b.createdAtHeight)];
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    if (x !== y) return y > x ? 1 : -1;
    return (Date.parse(b.createdAt) || 0) - (Date.parse(a.createdAt) || 0);
  });
}

/** A height's link to its block, or the bad value shown as bad. */
function heightLink(value: string, field?: string): HTMLElement | string {
  const height = heightOf(value);
  return height === undefined ? bad("height", value) : link(`block/${height}`, String(height), field);
}

/** One end of a transfer: a subaccount or an address, linked to its account. */
function endpoint(end: { readonly address: string; readonly subaccountNumber?: number }): HTMLElement {
  return h(
    "span",
    {},
    link(`account/${end.address}`, short(end.address, 10)),
    end.subaccountNumber === undefined ? "" : `/${end.subaccountNumber}`,
  );
}

/** An authenticator's config: a composite's JSON list of sub-authenticators, else its bytes. */
export function authenticatorConfig(type: string, config: Uint8Array): string {
  const text = new TextDecoder().decode(config);
  if (type === "AllOf" || type === "AnyOf") {
    try {
      const parts = JSON.parse(text) as Array<{ type?: string; config?: string }>;
      return parts
        .map((part) => {
          const inner = part.config === undefined ? "" : atob(part.config);
          const shown =
            part.type === "SignatureVerification" || part.type === "EthAddressSignatureVerification"
              ? Array.from(inner, (c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("")
              : inner;
          return `${part.type ?? "?"}(${shown})`;
        })
        .join(` ${type === "AllOf" ? "and" : "or"} `);
    } catch {
      return text;
    }
  }
  if (type === "MessageFilter" || type === "SubaccountFilter" || type === "ClobPairIdFilter") return text;
  return Array.from(config, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function subaccountsOf(ex: Explorer, address: string): Promise<readonly SubaccountResponseObject[]> {
  try {
    return (await ex.indexer.getAddress({ address })).subaccounts;
  } catch (error) {
    if (isIndexerNotFoundError(error)) return [];
    throw error;
  }
}

/** Renders the account page of `input` (either address form). */
export function accountPage(ex: Explorer, root: HTMLElement, input: string): (() => void) | undefined {
  if (!isValidAddress(input)) {
    root.append(h("h1", {}, "Account"), h("p", { class: "error" }, `Not an address: ${input}`));
    return undefined;
  }
  const address = toBech32(input);
  const balances = slot("balances");
  const subaccounts = slot("subaccounts");
  const positions = slot("positions");
  const orders = slot("orders");
  const fills = slot("fills");
  const transfers = slot("transfers");
  const authenticators = slot("authenticators");
  root.append(
    h("h1", { "data-field": "title" }, "Account"),
    section(
      "Address",
      "address",
      facts([
        ["bech32", "bech32", link(`account/${address}`, address)],
        ["0x (EIP-55)", "hex", link(`account/${address}`, addressToHex(address))],
      ]),
    ),
    section("Balances", "balances", balances.element),
    section("Subaccounts", "subaccounts", subaccounts.element),
    section("Open positions", "positions", positions.element),
    section("Open orders", "orders", orders.element),
    section("Fills", "fills", fills.element),
    section("Transfers", "transfers", transfers.element),
    section("Authenticators (trading keys)", "authenticators", authenticators.element),
  );

  ex.node.getBalances({ address }).then(
    (list) =>
      balances.fill(
        table(
          "balances",
          ["Amount", "Denom"],
          list.map((b) => [coin(b.amount, b.denom), b.denom]),
        ),
      ),
    (error: unknown) => balances.fail(error),
  );
  getAuthenticators(ex.node, { address }).then(
    (list) =>
      authenticators.fill(
        table(
          "authenticators",
          ["Id", "Type", "Config"],
          list.map((a) => [
            a.id,
            a.type,
            h("span", { class: "mono" }, authenticatorConfig(a.type, a.config)),
          ]),
        ),
      ),
    (error: unknown) => authenticators.fail(error),
  );
  // The figures (equity, free collateral, positions) move with the oracle, every block; the
  // history (orders, fills, transfers) only when the account's own feed says it changed.
  const figures = () =>
    subaccountsOf(ex, address).then(
      (list) => {
        watch(list.map((s) => s.subaccountNumber));
        subaccounts.fill(
          table(
            "subaccounts",
            ["Number", "Parent", "Equity (USDC)", "Free collateral (USDC)", "USDC", "Margin"],
            list.map((s) => [
              s.subaccountNumber,
              parentSubaccountNumber(s.subaccountNumber),
              h("span", { "data-field": `equity-${s.subaccountNumber}` }, s.equity),
              h("span", { "data-field": `free-${s.subaccountNumber}` }, s.freeCollateral),
              s.assetPositions.USDC === undefined
                ? "0"
                : `${s.assetPositions.USDC.side === "SHORT" ? "-" : ""}${s.assetPositions.USDC.size}`,
              s.marginEnabled ? "enabled" : "disabled",
            ]),
            "no subaccounts",
          ),
        );
        positions.fill(
          table(
            "positions",
            [
              "Subaccount",
              "Market",
              "Side",
              "Size",
              "Entry price (USD)",
              "Unrealized PnL (USDC)",
              "Realized PnL (USDC)",
              "Funding (USDC)",
            ],
            list.flatMap((s) =>
              Object.values<PerpetualPositionResponseObject>(s.openPerpetualPositions).map((p) => [
                s.subaccountNumber,
                link(`market/${p.market}`, p.market),
                p.side,
                amount(p.size, baseAsset(p.market)),
                p.entryPrice,
                p.unrealizedPnl,
                p.realizedPnl,
                p.netFunding,
              ]),
            ),
          ),
        );
        return list.map((s) => s.subaccountNumber);
      },
      (error: unknown) => {
        subaccounts.fail(error);
        for (const s of [positions, orders, fills, transfers]) s.fail(error);
        return undefined;
      },
    );
  const load = () =>
    figures().then(async (numbers) => {
      if (numbers === undefined) return;
      // One list per subaccount, merged, drawn into its slot (or the slot shows the error).
      const fillEach = <T>(
        into: ReturnType<typeof slot>,
        read: (n: number) => Promise<readonly T[]>,
        draw: (list: T[]) => HTMLElement,
      ) =>
        Promise.all(numbers.map(read)).then(
          (lists) => into.fill(draw(lists.flat())),
          (error: unknown) => into.fail(error),
        );
      await Promise.all([
        fillEach(
          orders,
          (n) =>
            ex.indexer.getOrders({
              owner: address,
              number: n,
              status: ["OPEN", "UNTRIGGERED", "BEST_EFFORT_OPENED"],
            }),
          (list) =>
            table(
              "orders",
              ["Id", "Subaccount", "Client id", "Market", "Side", "Price (USD)", "Size", "Filled", "Status"],
              list.map((o) => [
                link(`search/${o.id}`, short(o.id), "order-id"),
                o.subaccountNumber,
                clientIdOf(o.clientId)?.toString() ?? bad("client id", o.clientId),
                link(`market/${o.ticker}`, o.ticker),
                o.side,
                o.price,
                amount(o.size, baseAsset(o.ticker)),
                amount(o.totalFilled, baseAsset(o.ticker)),
                o.status,
              ]),
            ),
        ),
        fillEach(
          fills,
          (n) => ex.indexer.getFills({ owner: address, number: n, limit: HISTORY }).then((r) => r.fills),
          (list) =>
            table(
              "fills",
              [
                "Time",
                "Block",
                "Subaccount",
                "Market",
                "Side",
                "Liquidity",
                "Price (USD)",
                "Size",
                "Fee (USDC)",
              ],
              newestFirst(list).map((f) => [
                time(f.createdAt),
                heightLink(f.createdAtHeight),
                f.subaccountNumber,
                link(`market/${f.market}`, f.market),
                f.side,
                f.liquidity,
                f.price,
                amount(f.size, baseAsset(f.market)),
                f.fee,
              ]),
            ),
        ),
        fillEach(
          transfers,
          (n) =>
            ex.indexer.getTransfers({ owner: address, number: n, limit: HISTORY }).then((r) => r.transfers),
          (list) =>
            table(
              "transfers",
              ["Time", "Block", "Type", "Amount", "From", "To", "Tx"],
              newestFirst(list).map((t) => [
                time(t.createdAt),
                heightLink(t.createdAtHeight, "transfer-height"),
                t.type,
                amount(t.size, t.symbol),
                endpoint(t.sender),
                endpoint(t.recipient),
                link(`tx/${t.transactionHash}`, short(t.transactionHash)),
              ]),
            ),
        ),
      ]);
    });

  // Live: each subaccount's feed reloads every view, and each new height the figures (one reload
  // at a time, one queued; a queued full reload also refreshes the figures).
  const feeds = new Map<number, { unsubscribe(): void }>();
  let busy = false;
  let queued: "figures" | "all" | undefined;
  // Once the page is left, a reload on the way subscribes to nothing and starts no other.
  let stopped = false;
  const run = (what: "figures" | "all") => {
    if (stopped) return;
    if (busy) {
      queued = queued === "all" || what === "all" ? "all" : "figures";
      return;
    }
    busy = true;
    void (what === "all" ? load() : figures()).finally(() => {
      busy = false;
      const next = queued;
      queued = undefined;
      if (next !== undefined) run(next);
    });
  };
  const reload = () => run("all");
  const watch = (numbers: readonly number[]) => {
    for (const n of numbers) {
      if (stopped || feeds.has(n)) continue;
      const feed = ex.socket.subscribe("v4_subaccounts", `${address}/${n}`, { batched: true });
      feed.on("update", reload);
      feeds.set(n, feed);
    }
  };
  reload();
  const stop = ex.onHeight(() => run("figures"));
  return () => {
    stopped = true;
    stop();
    for (const feed of feeds.values()) feed.unsubscribe();
  };
}
