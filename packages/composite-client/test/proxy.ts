import { type AddressInfo, connect, createServer as createNetServer, type Socket } from "node:net";
import { type FaultProxy, type ProxiedRequest, startFaultProxy } from "../../../tests/support/fault-proxy.js";

export type { ProxiedRequest };

/** An HTTP proxy in front of one server that records every request (fault-free, keep-alive). */
export type CountingProxy = FaultProxy;

/**
 * Starts a proxy on a free port forwarding to `target` (an `http://` base URL). A request for which
 * `swallow` answers true still reaches the server, but its answer is dropped and the client's
 * connection cut once the server answered: the request went through, no answer came back. One for
 * which `drop` answers true is read and the connection cut without forwarding it: the client wrote
 * it, the server never saw it. A request for which `hold` returns a promise waits for it before
 * either (a slow link).
 */
export function startCountingProxy(
  target: string,
  options: {
    swallow?: (request: ProxiedRequest) => boolean;
    drop?: (request: ProxiedRequest) => boolean;
    hold?: (request: ProxiedRequest) => Promise<void> | undefined;
  } = {},
): Promise<CountingProxy> {
  return startFaultProxy(target, {
    fault: (request) =>
      options.drop?.(request) ? "drop" : options.swallow?.(request) ? "swallow" : undefined,
    ...(options.hold ? { hold: options.hold } : {}),
  });
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
