/**
 * The page the Chromium test loads, bundled from the package's entry for the browser (the
 * `browser` condition makes `#ws-platform` the page's own WebSocket): it connects to the indexer
 * WebSocket, keeps an order book, waits for the book the test describes, survives a dropped
 * connection (the book resyncs), and reports what it saw.
 */
import { connectIndexerSocket, watchOrderBook } from "../../src/index.js";

/** What the test gives the page. */
export interface PageConfig {
  url: string;
  market: string;
}

/** What the page reports. */
export interface PageReport {
  error?: string;
  connectionId?: string;
  snapshotBids?: number;
  bestBid?: string | null;
  bestAsk?: string | null;
  mid?: string | null;
  resyncs?: string[];
  bids?: string[][];
  asks?: string[][];
}

const state: { report: PageReport; socketClose?: () => Promise<void>; levels?: () => PageReport } = {
  report: {},
};

/** Connects and subscribes; resolves once the snapshot is in the book. */
async function start(config: PageConfig): Promise<PageReport> {
  try {
    // In a browser the server's protocol pings are invisible: no idle timeout here.
    const socket = await connectIndexerSocket({
      url: config.url,
      idleTimeoutMs: 0,
      reconnect: { initialDelayMs: 50 },
    });
    const live = watchOrderBook(socket, { market: config.market, batched: true });
    const resyncs: string[] = [];
    live.on("resync", ({ reason }) => resyncs.push(reason));
    const book = await live.ready();
    state.levels = () => ({
      connectionId: socket.connectionId ?? "",
      bestBid: book.bestBid()?.price ?? null,
      bestAsk: book.bestAsk()?.price ?? null,
      mid: book.mid() ?? null,
      resyncs: [...resyncs],
      bids: book.depth("bids").map((l) => [l.price, l.size]),
      asks: book.depth("asks").map((l) => [l.price, l.size]),
    });
    state.socketClose = () => socket.close();
    return { connectionId: socket.connectionId ?? "", snapshotBids: book.depth("bids").length };
  } catch (error) {
    return { error: String(error) };
  }
}

Object.assign(globalThis, {
  indexerPage: {
    start,
    read: (): PageReport => state.levels?.() ?? { error: "not started" },
    close: async (): Promise<void> => state.socketClose?.(),
  },
});
