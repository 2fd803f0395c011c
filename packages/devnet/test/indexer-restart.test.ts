/**
 * Event sourcing across a restart: a `--state` devnet's indexer rebuilds its read models by
 * replaying the stored blocks (through the block log once pruned from memory), and answers the
 * same REST bodies as before the restart, the stateful order still resting in its book.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startDevnet } from "../src/devnet.js";
import { placeMsg } from "./support/clob-tx.js";
import {
  BTC_PRICE_SUBTICKS,
  deliver,
  depositMsg,
  type IndexedChain,
  placeShortTerm,
  startIndexedChain,
} from "./support/indexer-chain.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function answers(base: string, paths: readonly string[]): Promise<unknown[]> {
  return Promise.all(
    paths.map(async (path) => {
      const response = await fetch(`${base}${path}`);
      return { path, status: response.status, body: await response.json() };
    }),
  );
}

/** Candles without their order book mids (the book at the time is not in the blocks). */
function withoutMids(answer: unknown): unknown {
  return JSON.parse(JSON.stringify(answer), (key, value) =>
    key === "orderbookMidPriceOpen" || key === "orderbookMidPriceClose" ? undefined : value,
  );
}

describe("indexer replay with --state", () => {
  for (const keepRecent of [1000, 2]) {
    it(`answers the same after a restart (pruning.keepRecent ${keepRecent})`, async () => {
      const stateDir = mkdtempSync(join(tmpdir(), "perpx-indexer-restart-"));
      dirs.push(stateDir);
      const chain: IndexedChain = await startIndexedChain({ stateDir, pruning: { keepRecent } });
      const [alice, bob] = chain.signers.map((s) => s.address) as [string, string];
      await deliver(chain, 0, [depositMsg(alice, 10_000_000_000n)]);
      await deliver(chain, 1, [depositMsg(bob, 10_000_000_000n)]);
      const expiry = Math.floor(chain.devnet.app.latestBlock().time.getTime() / 1000) + 3600;
      await deliver(chain, 1, [
        placeMsg({
          owner: bob,
          clientId: 5,
          side: "sell",
          quantums: 200_000_000n,
          subticks: BTC_PRICE_SUBTICKS,
          flags: 64,
          goodTilBlockTime: expiry,
        }),
      ]);
      chain.devnet.mine(1);
      await placeShortTerm(chain, 0, {
        clientId: 6,
        side: "buy",
        quantums: 100_000_000n,
        subticks: BTC_PRICE_SUBTICKS,
      });
      chain.devnet.mine(1);
      chain.devnet.app.control.setOraclePrice("BTC-USD", "66000");
      chain.devnet.mine(2);
      const paths = [
        "/v4/height",
        "/v4/perpetualMarkets",
        "/v4/orderbooks/perpetualMarket/BTC-USD",
        "/v4/trades/perpetualMarket/BTC-USD",
        "/v4/candles/perpetualMarkets/BTC-USD?resolution=1MIN",
        `/v4/addresses/${alice}`,
        `/v4/addresses/${bob}/parentSubaccountNumber/0`,
        `/v4/perpetualPositions?address=${bob}&subaccountNumber=0`,
        `/v4/assetPositions?address=${alice}&subaccountNumber=0`,
        `/v4/orders?address=${bob}&subaccountNumber=0`,
        `/v4/orders?address=${alice}&subaccountNumber=0`,
        `/v4/fills?address=${alice}&subaccountNumber=0`,
        `/v4/fills/parentSubaccountNumber?address=${bob}&parentSubaccountNumber=0`,
        `/v4/transfers?address=${bob}&subaccountNumber=0`,
      ];
      const before = await answers(chain.devnet.endpoints.indexer, paths);
      const book = (before[2] as { body: { asks: unknown[] } }).body;
      expect(book.asks).toEqual([{ price: "65000", size: "0.01" }]);
      // The indexer keeps as many blocks of history as the node keeps in memory: with 2, the fill
      // (three blocks back) is forgotten, while positions and balances stay.
      const fills = (before[11] as { body: { fills: unknown[] } }).body.fills;
      expect(fills).toHaveLength(keepRecent === 2 ? 0 : 1);
      await chain.devnet.stop();

      const resumed = await startDevnet({ stateDir, ports: "free", blockTimeMs: 0, pruning: { keepRecent } });
      try {
        const after = await answers(resumed.endpoints.indexer, paths);
        expect(withoutMids(after)).toEqual(withoutMids(before));
      } finally {
        await resumed.stop();
      }
    }, 60_000);
  }
});
