/**
 * The page the browser test loads: the REST client, bundled for the browser from source, calling a
 * cross-origin indexer stand-in with the browser's own `fetch`.
 */

import { isTimeoutError } from "@perpx/errors";
import { createIndexerClient, isIndexerNotFoundError } from "@perpx/indexer-client";
import { isIndexerValidationError } from "@perpx/indexer-client/rest";

export interface PageReport {
  origin: string;
  markets?: string[];
  bestAsk?: string | undefined;
  fills?: string[];
  notFound?: boolean;
  validationParam?: string | undefined;
  timedOut?: boolean;
  aborted?: boolean;
  error?: string;
}

async function scenario(baseUrl: string): Promise<PageReport> {
  const report: PageReport = {
    origin: (globalThis as unknown as { location: { origin: string } }).location.origin,
  };
  try {
    const client = createIndexerClient({ baseUrl, retry: { retries: 1, baseDelayMs: 1 } });
    report.markets = Object.keys((await client.getPerpetualMarkets()).markets);
    report.bestAsk = (await client.getOrderbook({ ticker: "BTC-USD" })).asks[0]?.price;
    const fills: string[] = [];
    for await (const fill of client.iterateFills({
      owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c",
      number: 0,
      limit: 2,
    })) {
      fills.push(fill.id);
    }
    report.fills = fills;
    report.notFound = await client.getHeight().then(
      () => false,
      (error: unknown) => isIndexerNotFoundError(error),
    );
    report.validationParam = await client.getPerpetualMarkets({ ticker: "NOPE-USD" }).then(
      () => "none",
      (error: unknown) => (isIndexerValidationError(error) ? error.entries[0]?.param : String(error)),
    );
    report.timedOut = await client.getTime({ timeoutMs: 200 }).then(
      () => false,
      (error: unknown) => isTimeoutError(error),
    );
    const controller = new AbortController();
    const pending = client.getTime({ signal: controller.signal });
    controller.abort();
    report.aborted = await pending.then(
      () => false,
      (error: unknown) => error instanceof Error && error.name === "AbortedError",
    );
  } catch (error) {
    report.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  return report;
}

(globalThis as unknown as { perpxScenario: typeof scenario }).perpxScenario = scenario;
