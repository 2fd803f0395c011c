/**
 * The page a browser test drives: its bundled script served over loopback HTTP beside a one-line
 * HTML document, and headless Chromium launched to open it. Shared by every package's browser test.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";

/** The served page and the browser; `close()` stops both. */
export interface BrowserHost {
  readonly pageUrl: string;
  readonly browser: Browser;
  close(): Promise<void>;
}

/** Serves `code` as `/page.js` under an HTML page at `/`, and launches Chromium from `executablePath`. */
export async function hostPage(code: string, executablePath: string): Promise<BrowserHost> {
  const server = createServer((req, res) => {
    if (req.url === "/page.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(code);
      return;
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end(
      '<!doctype html><html><head><script type="module" src="/page.js"></script></head><body></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath,
      headless: true,
      timeout: 120_000,
      args: ["--no-sandbox"],
    });
  } catch (error) {
    await closeServer();
    throw error;
  }
  return {
    pageUrl,
    browser,
    close: async () => {
      await browser.close();
      await closeServer();
    },
  };
}
