/**
 * The explorer's server: the page (one HTML document and its bundled script) and `/config.json`
 * for one network, over loopback HTTP by default.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { InvalidArgumentError } from "@perpx/errors";
import type { ExplorerConfig } from "./config.js";

/**
 * The port `perpx-explorer` listens on unless told otherwise.
 *
 * @example
 * ```ts
 * DEFAULT_EXPLORER_PORT; // 8088
 * ```
 */
export const DEFAULT_EXPLORER_PORT = 8088;

/**
 * The page's script: the app bundled for the browser.
 *
 * @example
 * ```ts
 * const assets: ExplorerAssets = { script: "document.body.append('hello');" };
 * assets.script.length > 0; // true
 * ```
 */
export interface ExplorerAssets {
  /** The bundled app (an ES module). */
  readonly script: string;
}

/**
 * Options of {@link startExplorer}.
 *
 * @example
 * ```ts
 * const options: ExplorerServerOptions = { config: explorerConfig({ network: "local" }), port: 0 };
 * ```
 */
export interface ExplorerServerOptions {
  /** The network the page explores. */
  readonly config: ExplorerConfig;
  /** The port; 0 picks a free one. @default 8088 */
  readonly port?: number;
  /** The interface to bind. @default "127.0.0.1" */
  readonly host?: string;
  /** The page's script. @default the package's built bundle ({@link loadBuiltAssets}) */
  readonly assets?: ExplorerAssets;
}

/**
 * A running explorer server.
 *
 * @example
 * ```ts
 * const server: ExplorerServer = await startExplorer({ config: explorerConfig({ network: "local" }), port: 0, assets: { script: "" } });
 * server.url.startsWith("http://127.0.0.1:"); // true
 * await server.close();
 * ```
 */
export interface ExplorerServer {
  /** The page's URL, e.g. `http://127.0.0.1:8088/`. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** Stops listening and ends open connections. */
  close(): Promise<void>;
}

/**
 * The HTML document: the script, a favicon that needs no request, and nothing else.
 *
 * @example
 * ```ts
 * pageHtml("perpx-local-1").includes('src="/app.js"'); // true
 * ```
 */
export function pageHtml(chainId: string): string {
  const title = `perpx explorer: ${chainId.replace(/[<>&"]/g, "")}`;
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<link rel="icon" href="data:,">',
    `<title>${title}</title>`,
    '<script type="module" src="/app.js"></script>',
    '</head><body><div id="app"></div></body></html>',
  ].join("");
}

/**
 * The built bundle: `app.js` in `dir`, by default the package's own (`dist/app`, written by its
 * build).
 *
 * @throws {InvalidArgumentError} when there is no bundle there (the package is not built).
 *
 * @example
 * ```ts
 * import { isInvalidArgumentError } from "@perpx/errors";
 *
 * const missing = await loadBuiltAssets(new URL("file:///nowhere/")).catch((e: unknown) => e);
 * isInvalidArgumentError(missing); // true
 * ```
 */
export async function loadBuiltAssets(
  dir: URL = new URL("./app/", import.meta.url),
): Promise<ExplorerAssets> {
  const url = new URL("app.js", dir);
  try {
    return { script: await readFile(url, "utf8") };
  } catch (error) {
    throw new InvalidArgumentError(
      "assets",
      `the app bundle ${url.pathname} is missing: build the package first`,
      {
        cause: error,
      },
    );
  }
}

/**
 * The path of a request target, or undefined when it is not one (`//`, `/\\`): `new URL` would
 * throw, and a throw in the request listener would end the process.
 */
function pathOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? "/", "http://explorer").pathname;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(body);
}

/**
 * Starts the explorer's server: `/` (and every other path, for links) is the page, `/app.js` its
 * script, `/config.json` the network.
 *
 * @throws {InvalidArgumentError} for a port out of range, or a missing bundle.
 *
 * @example
 * ```ts
 * const server = await startExplorer({ config: explorerConfig({ network: "local" }), port: 0, assets: { script: "" } });
 * (await fetch(`${server.url}config.json`)).ok; // true
 * await server.close();
 * ```
 */
export async function startExplorer(options: ExplorerServerOptions): Promise<ExplorerServer> {
  const port = options.port ?? DEFAULT_EXPLORER_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError("port", `must be an integer from 0 to 65535, got ${String(port)}`);
  const assets = options.assets ?? (await loadBuiltAssets());
  const html = pageHtml(options.config.chainId);
  const config = JSON.stringify(options.config);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      send(res, 405, "text/plain", "method not allowed\n");
      return;
    }
    const path = pathOf(req.url);
    if (path === undefined) send(res, 400, "text/plain", "bad request target\n");
    else if (path === "/app.js") send(res, 200, "text/javascript; charset=utf-8", assets.script);
    else if (path === "/config.json") send(res, 200, "application/json", config);
    else if (path === "/" || path === "/index.html") send(res, 200, "text/html; charset=utf-8", html);
    else send(res, 404, "text/plain", "not found\n");
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${bound}/`,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
