/**
 * Ports for a server that a test stops and starts again on the same port. A port the kernel picked
 * (`listen(0)`) lies in its ephemeral range, where any parallel test's `listen(0)` or outgoing
 * connection may take it while the server is down, and the restart then fails with EADDRINUSE.
 * These ports lie below that range: the kernel hands none of them out, so only a test that names
 * one can take it. Each vitest worker picks from a slice of its own (by `VITEST_POOL_ID`), so a test
 * in another worker, picking spare ports at random too, cannot take one while its server is down.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** The lowest port handed out; below the well-known services that a machine may run. */
const LOWEST = 20_000;
/** The ports this process handed out already (a port is never handed out twice). */
const handedOut = new Set<number>();
/** How many slices the range is cut into: one per vitest worker up to this many workers. */
const SLICES = 16;

/** The first port of the kernel's ephemeral range (Linux's default when it cannot be read). */
function ephemeralStart(): number {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    const port = Number(low);
    return Number.isInteger(port) && port > LOWEST ? port : 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * The ports this process picks from: below the ephemeral range and, in a vitest worker, the slice
 * of its `VITEST_POOL_ID` (1 to maxWorkers, unique among the workers running at once), which
 * workers with other ids never pick from (ids 16 apart share one).
 */
function pickRange(): { low: number; end: number } {
  const end = ephemeralStart();
  const id = Number(process.env.VITEST_POOL_ID);
  if (!Number.isInteger(id) || id < 1) return { low: LOWEST, end };
  const width = Math.floor((end - LOWEST) / SLICES);
  const low = LOWEST + ((id - 1) % SLICES) * width;
  return { low, end: low + width };
}

/**
 * Whether nothing listens on `port` of `host` now (it binds and closes it).
 * @param port the port
 * @param host the address
 * @returns true when the port could be bound
 * @example
 * await isPortFree(1); // false unless root
 */
export function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/**
 * Picks `count` distinct ports that are free on `host` now, at random below the kernel's ephemeral
 * range (in this vitest worker's slice of it), none handed out before by this process.
 * @param count how many ports
 * @param host the address the server will listen on
 * @returns the ports
 * @example
 * const [port] = await sparePorts(1);
 * port < 32_768; // true on Linux's default range
 */
export async function sparePorts(count: number, host = "127.0.0.1"): Promise<number[]> {
  const { low, end } = pickRange();
  const ports: number[] = [];
  for (let tries = 0; ports.length < count; tries++) {
    if (tries > 10_000) throw new Error(`no ${count} free ports between ${low} and ${end}`);
    const port = low + Math.floor(Math.random() * (end - low));
    if (handedOut.has(port) || !(await isPortFree(port, host))) continue;
    handedOut.add(port);
    ports.push(port);
  }
  return ports;
}

/**
 * One spare port (see {@link sparePorts}) for each of `names`.
 * @param names the servers' names, e.g. `Object.keys(DEFAULT_PORTS)` for a devnet
 * @returns a port by name
 * @example
 * const ports = await sparePortsByName(["rpc", "rest"]);
 * ports.rpc !== ports.rest; // true
 */
export async function sparePortsByName<Name extends string>(
  names: readonly Name[],
): Promise<Record<Name, number>> {
  const ports = await sparePorts(names.length);
  return Object.fromEntries(names.map((name, i) => [name, ports[i]!])) as Record<Name, number>;
}
