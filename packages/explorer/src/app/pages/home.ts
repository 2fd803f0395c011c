/**
 * Home: the chain id, the live height and block time, the latest blocks, and every market with its
 * oracle price, 24h volume, open interest and next funding.
 */

import { getBlockHeaders } from "@perpx/node-client/queries";
import type { Explorer, Height } from "../context.js";
import { amount, facts, h, link, section, slot, table } from "../dom.js";
import { baseAsset, nextFundingTime, percent, short, time } from "../format.js";

/** Renders the home page into `root`; returns its cleanup. */
export function homePage(ex: Explorer, root: HTMLElement): () => void {
  const chain = slot("chain");
  const blocks = slot("blocks");
  const markets = slot("markets");
  root.append(
    section("Chain", "chain", chain.element),
    section("Markets", "markets", markets.element),
    section("Latest blocks", "blocks", blocks.element),
  );
  let chainId = "";
  const renderChain = (height: Height | undefined) =>
    chain.fill(
      facts([
        ["Chain id", "chain-id", chainId],
        ["Network", "network", ex.config.network],
        ["Height", "height", height === undefined ? "" : link(`block/${height.height}`, height.height)],
        ["Block time", "block-time", time(height?.time)],
      ]),
    );
  ex.node.getLatestBlock().then(
    (latest) => {
      chainId = latest.chainId;
      renderChain(ex.height() ?? { height: latest.height, time: latest.time.toISOString() });
    },
    (error: unknown) => chain.fail(error),
  );

  let busy = false;
  let again = false;
  const refresh = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      const [headers, all] = await Promise.all([getBlockHeaders(ex.node, { count: 10 }), ex.markets()]);
      blocks.fill(
        table(
          "blocks",
          ["Height", "Time", "Txs", "Hash"],
          headers.map((header) => [
            link(`block/${header.height}`, header.height),
            time(header.time),
            header.txCount,
            link(`block/${header.height}`, short(header.hash)),
          ]),
        ),
      );
      const funding = time(nextFundingTime(new Date()));
      markets.fill(
        table(
          "markets",
          ["Market", "Oracle price", "24h volume", "Open interest", "Next funding"],
          Object.values(all).map((market) => [
            link(`market/${market.ticker}`, market.ticker, "ticker"),
            amount(market.oraclePrice, "USD", `oracle-${market.ticker}`),
            amount(market.volume24H, "USD", `volume-${market.ticker}`),
            amount(market.openInterest, baseAsset(market.ticker), `oi-${market.ticker}`),
            h(
              "span",
              { "data-field": `funding-${market.ticker}` },
              `${percent(market.nextFundingRate)} at ${funding}`,
            ),
          ]),
        ),
      );
    } catch (error) {
      blocks.fail(error);
      markets.fail(error);
    } finally {
      busy = false;
      if (again) {
        again = false;
        void refresh();
      }
    }
  };
  void refresh();
  const stop = ex.onHeight((height) => {
    if (chainId !== "") renderChain(height);
    void refresh();
  });
  return stop;
}
