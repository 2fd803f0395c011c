/**
 * The explorer's server: the page (one HTML document, its bundled script and its stylesheet) and
 * `/config.json` for one network, over loopback HTTP by default. Every answer carries a
 * Content-Security-Policy without inline script or style, and slow clients are cut.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { InvalidArgumentError } from "@perpx/errors";
import { STYLE } from "./app/style.js";
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
  /**
   * A connection that has not sent a request's complete headers this long after it began is
   * answered 408 and closed (slowloris clients included: trickling bytes does not extend it), ms.
   * @default 10000
   */
  readonly headersTimeoutMs?: number;
  /** A request not fully received this long after it began is answered 408 and closed, ms. @default 30000 */
  readonly requestTimeoutMs?: number;
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
 * @param chainId - the network's chain id, shown in the title (without HTML characters).
 * @returns the whole document, which loads `/app.js` and `/app.css`.
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
    '<link rel="stylesheet" href="/app.css">',
    `<title>${title}</title>`,
    '<script type="module" src="/app.js"></script>',
    '</head><body><div id="app"></div></body></html>',
  ].join("");
}

/**
 * The built bundle: `app.js` in `dir`, by default the package's own (`dist/app`, written by its
 * build).
 *
 * @param dir - the folder of the bundle, as a `file:` URL ending in `/`.
 * @returns the bundle's script, to pass as `assets` to {@link startExplorer}.
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

/**
 * The page's Content-Security-Policy: script and style from the server itself only (no inline
 * script or style, no `eval`), connections to the server and the network's endpoints only, no
 * framing, no plugins, no `<base>`.
 *
 * @param config - the network, whose endpoints the page connects to.
 * @returns the header's value.
 *
 * @example
 * ```ts
 * const csp = contentSecurityPolicy(explorerConfig({ network: "local" }));
 * csp.includes("script-src 'self';"); // true
 * csp.includes("connect-src 'self' http://127.0.0.1:26657 http://127.0.0.1:1317 http://127.0.0.1:3002 ws://127.0.0.1:3003;"); // true
 * csp.includes("frame-ancestors 'none'"); // true
 * ```
 */
export function contentSecurityPolicy(config: ExplorerConfig): string {
  const origins = new Set<string>();
  for (const [name, url] of Object.entries(config.endpoints)) {
    const origin = URL.canParse(url) ? new URL(url).origin : "null";
    // `*` would be a CSP wildcard (any host), `;`, `,` and `'` would end or quote the directive.
    if (!/^(https?|wss?):\/\/[^\s;,'*]+$/.test(origin))
      throw new InvalidArgumentError(`config.endpoints.${name}`, "must be an http(s) or ws(s) URL");
    origins.add(origin);
  }
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${[...origins].join(" ")}`,
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The headers of every answer: no caching, no sniffing, no framing, no referrer, the page's CSP. */
function securityHeaders(csp: string): Record<string, string> {
  return {
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "content-security-policy": csp,
  };
}

function timeoutOption(name: string, value: number | undefined, fallback: number): number {
  const ms = value ?? fallback;
  if (!Number.isInteger(ms) || ms < 1)
    throw new InvalidArgumentError(name, `must be a positive integer of ms, got ${String(value)}`);
  return ms;
}

/**
 * Starts the explorer's server: `/` is the page, `/app.js` its script, `/app.css` its stylesheet,
 * `/config.json` the network; every answer carries {@link contentSecurityPolicy}, `X-Frame-Options:
 * DENY`, `Referrer-Policy: no-referrer` and `X-Content-Type-Options: nosniff`. A client that has not
 * sent its headers after `headersTimeoutMs` (or its request after `requestTimeoutMs`) is answered
 * 408 and closed.
 *
 * @param options - the network, port, interface, assets and timeouts.
 * @returns the running server.
 * @throws {InvalidArgumentError} for a port or timeout out of range, an endpoint that is not an
 * http(s) or ws(s) URL, or a missing bundle.
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
  const headersTimeout = timeoutOption("headersTimeoutMs", options.headersTimeoutMs, 10_000);
  const requestTimeout = timeoutOption("requestTimeoutMs", options.requestTimeoutMs, 30_000);
  if (requestTimeout < headersTimeout)
    throw new InvalidArgumentError("requestTimeoutMs", "must be at least headersTimeoutMs");
  const headers = securityHeaders(contentSecurityPolicy(options.config));
  const assets = options.assets ?? (await loadBuiltAssets());
  const html = pageHtml(options.config.chainId);
  const config = JSON.stringify(options.config);
  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { ...headers, "content-type": type });
    res.end(body);
  };
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // How often the timeouts above are enforced (Node's default, 30 s, would let them run over).
      connectionsCheckingInterval: Math.min(1_000, headersTimeout),
    },
    (req: IncomingMessage, res: ServerResponse) => {
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("allow", "GET, HEAD");
        send(res, 405, "text/plain", "method not allowed\n");
        return;
      }
      const path = pathOf(req.url);
      if (path === undefined) send(res, 400, "text/plain", "bad request target\n");
      else if (path === "/app.js") send(res, 200, "text/javascript; charset=utf-8", assets.script);
      else if (path === "/app.css") send(res, 200, "text/css; charset=utf-8", STYLE);
      else if (path === "/config.json") send(res, 200, "application/json", config);
      else if (path === "/" || path === "/index.html") send(res, 200, "text/html; charset=utf-8", html);
      else send(res, 404, "text/plain", "not found\n");
    },
  );
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
