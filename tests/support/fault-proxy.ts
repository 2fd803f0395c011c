/**
 * An HTTP proxy in front of one JSON-RPC (or any HTTP) server, for fault tests: it records every
 * request and, per request, may fail it on purpose the ways a network or a gateway does.
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/** One request that went through the proxy: its path and, for JSON-RPC, its method. */
export interface ProxiedRequest {
  path: string;
  method: string | undefined;
}

/**
 * What the proxy does to one request:
 * - `drop`: reads it and cuts the connection without forwarding it (the server never sees it);
 * - `swallow`: forwards it, then cuts the connection once the server answered (no answer comes back);
 * - `502`: forwards it, then answers a gateway's 502 HTML page instead of the server's answer;
 * - `cut-answer`: forwards it, then sends the first half of the answer and cuts the connection;
 * - `{ answer }`: forwards it, then answers `answer` (as JSON, status 200) instead of the server's.
 */
export type ProxyFault = "drop" | "swallow" | "502" | "cut-answer" | { answer: unknown };

/** A running proxy. */
export interface FaultProxy {
  url: string;
  /** Every request seen, in order. */
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free port forwarding to `target` (an `http://` base URL). `fault` decides each
 * request's fault (none: forwarded as it is); a request for which `hold` returns a promise waits
 * for it first (a slow link).
 */
export async function startFaultProxy(
  target: string,
  options: {
    fault?: (request: ProxiedRequest) => ProxyFault | undefined;
    hold?: (request: ProxiedRequest) => Promise<void> | undefined;
  } = {},
): Promise<FaultProxy> {
  const to = new URL(target);
  const requests: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks);
      let method: string | undefined;
      try {
        method = (JSON.parse(body.toString("utf8")) as { method?: string }).method;
      } catch {
        method = undefined;
      }
      const proxied = { path: req.url ?? "/", method };
      requests.push(proxied);
      await options.hold?.(proxied);
      const fault = options.fault?.(proxied);
      if (fault === "drop") {
        res.destroy();
        return;
      }
      const forward = request(
        {
          host: to.hostname,
          port: to.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: to.host },
        },
        (answer) => {
          if (fault === undefined) {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            return;
          }
          const parts: Buffer[] = [];
          answer.on("data", (c: Buffer) => parts.push(c));
          answer.on("end", () => fail(res, fault, Buffer.concat(parts)));
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `res` with `fault` in place of the server's answer `text`. */
function fail(
  res: import("node:http").ServerResponse,
  fault: Exclude<ProxyFault, "drop">,
  text: Buffer,
): void {
  if (fault === "swallow") {
    res.destroy();
  } else if (fault === "502") {
    res.writeHead(502, { "content-type": "text/html" });
    res.end("<html><body>502 Bad Gateway</body></html>");
  } else if (fault === "cut-answer") {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(text.length) });
    res.write(text.subarray(0, Math.floor(text.length / 2)), () => res.destroy());
  } else {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(fault.answer));
  }
}
