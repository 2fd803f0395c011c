import { createServer, request } from "node:http";
import { type AddressInfo, connect, createServer as createNetServer, type Socket } from "node:net";

/** One request that went through a {@link CountingProxy}: its path and, for JSON-RPC, its method. */
export interface ProxiedRequest {
  path: string;
  method: string | undefined;
}

/** An HTTP proxy in front of one server that records every request (fault-free, keep-alive). */
export interface CountingProxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a proxy on a free port forwarding to `target` (an `http://` base URL). A request for which
 * `swallow` answers true still reaches the server, but its answer is dropped and the client's
 * connection cut once the server answered: the request went through, no answer came back. One for
 * which `drop` answers true is read and the connection cut without forwarding it: the client wrote
 * it, the server never saw it. A request for which `hold` returns a promise waits for it before
 * either (a slow link).
 */
export async function startCountingProxy(
  target: string,
  options: {
    swallow?: (request: ProxiedRequest) => boolean;
    drop?: (request: ProxiedRequest) => boolean;
    hold?: (request: ProxiedRequest) => Promise<void> | undefined;
  } = {},
): Promise<CountingProxy> {
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
      if (options.drop?.(proxied)) {
        res.destroy();
        return;
      }
      const swallowed = options.swallow?.(proxied) ?? false;
      const forward = request(
        {
          host: to.hostname,
          port: to.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: to.host },
        },
        (answer) => {
          if (swallowed) {
            answer.resume();
            answer.on("end", () => res.destroy());
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A TCP proxy whose live connections can be cut (a network fault between client and server). */
export interface CuttableProxy {
  url: string;
  /** Destroys every open connection (new ones are accepted). */
  cut(): void;
  close(): Promise<void>;
}

/** Starts a TCP proxy on a free port forwarding to `target` (`ws://host:port/...`: host and port used). */
export async function startCuttableProxy(target: string): Promise<CuttableProxy> {
  const to = new URL(target);
  const sockets = new Set<Socket>();
  const server = createNetServer((client) => {
    const upstream = connect(Number(to.port), to.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const cut = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    url: `${to.protocol}//127.0.0.1:${port}${to.pathname === "/" ? "" : to.pathname}`,
    cut,
    close: () =>
      new Promise((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}
