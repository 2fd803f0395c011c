import { InvalidArgumentError, shortenRedacted } from "@perpx/errors";
import {
  ENDPOINT_ENV_VARS,
  ENDPOINT_NAMES,
  ENDPOINT_VARIABLES,
  type EndpointName,
  type Endpoints,
  NETWORK_ENV_VAR,
} from "./endpoint-table.js";
import { type MissingEndpoint, MissingEndpointError } from "./errors.js";
import { getNetwork, type Network, type NetworkName } from "./networks.js";

/**
 * An environment: variable names to values. Pass `process.env` (or any record); the library never
 * reads the process environment itself.
 *
 * @example
 * ```ts
 * const env: Env = { PERPX_NETWORK: "testnet", PERPX_INDEXER_URL: "https://indexer.example.com" };
 * ```
 */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Options of {@link resolveNetwork}.
 *
 * @example
 * ```ts
 * const options: ResolveNetworkOptions = { network: "testnet", endpoints: { nodeRpc: "https://rpc.example.com" }, env: process.env };
 * ```
 */
export interface ResolveNetworkOptions {
  /**
   * The network: a preset name or a {@link Network} object.
   * @default the value of `PERPX_NETWORK` in `env`, else `"local"`
   */
  network?: NetworkName | Network | undefined;
  /**
   * Endpoint URLs; each one given here wins over the environment and the preset's defaults. An
   * `undefined` or empty value counts as not given.
   * @default {}
   */
  endpoints?: Readonly<Partial<Record<EndpointName, string | URL | undefined>>> | undefined;
  /**
   * The environment to read `PERPX_NETWORK` and the `PERPX_*_URL` variables from (see
   * {@link ENDPOINT_ENV_VARS}). Empty values count as unset.
   * @default {} (nothing is read from the environment)
   */
  env?: Env | undefined;
  /**
   * Refuse the network while a required endpoint of {@link ENDPOINT_VARIABLES} is not configured,
   * with one {@link MissingEndpointError} that names every endpoint left unset (required and
   * optional) and its variable.
   * @default false (a missing endpoint is refused only when a call needs it, by {@link getEndpoint})
   */
  requireEndpoints?: boolean | undefined;
}

/**
 * A network preset with its endpoints resolved: plain, frozen data.
 *
 * @example
 * ```ts
 * const config: NetworkConfig = resolveNetwork({ network: "local" });
 * config.network.chainId; // "perpx-local-1"
 * ```
 */
export interface NetworkConfig {
  /** The preset (or custom network). */
  readonly network: Network;
  /** The endpoints that are configured, validated and without a trailing slash. */
  readonly endpoints: Readonly<Partial<Endpoints>>;
}

function present(value: string | URL | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = (typeof value === "string" ? value : value.href).trim();
  return text === "" ? undefined : text;
}

function describeUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password !== "") url.password = "***";
    return JSON.stringify(url.href);
  } catch {
    return JSON.stringify(shortenRedacted(text, 200));
  }
}

/**
 * Validates one endpoint URL: it must parse, have no fragment, and use the endpoint's scheme
 * (`http:`/`https:`, or `ws:`/`wss:` for `evmWs` and `indexerWs`).
 *
 * @param name - the endpoint.
 * @param value - the URL.
 * @param source - what to name in the error (an option path or an environment variable).
 * @returns the URL as a string, without trailing slashes.
 * @throws {InvalidArgumentError} naming `source` when the URL is not valid for the endpoint.
 *
 * @example
 * ```ts
 * validateEndpointUrl("nodeRpc", "http://127.0.0.1:26657/"); // "http://127.0.0.1:26657"
 * validateEndpointUrl("indexerWs", "https://x.example"); // throws InvalidArgumentError: needs ws: or wss:
 * ```
 */
export function validateEndpointUrl(
  name: EndpointName,
  value: string | URL,
  source = `endpoints.${name}`,
): string {
  const text = typeof value === "string" ? value.trim() : value.href;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError(source, `${describeUrl(text)} is not a valid URL`);
  }
  const allowed = ENDPOINT_VARIABLES[name].schemes;
  if (!allowed.includes(url.protocol)) {
    throw new InvalidArgumentError(
      source,
      `${describeUrl(text)} must use ${allowed.map((p) => p.slice(0, -1)).join(" or ")}, not ${url.protocol.slice(0, -1)}`,
    );
  }
  if (url.hostname === "") throw new InvalidArgumentError(source, `${describeUrl(text)} has no host`);
  if (url.hash !== "")
    throw new InvalidArgumentError(source, `${describeUrl(text)} must not have a #fragment`);
  return url.search === "" ? text.replace(/\/+$/, "") : text;
}

/**
 * Picks a network and resolves its endpoints: for each endpoint, the caller's value, else the
 * environment variable's, else the preset's default. Every URL is validated.
 *
 * @param options - network, endpoints and environment.
 * @returns the network with its configured endpoints.
 * @throws {UnknownNetworkError} when `network` or `PERPX_NETWORK` names no preset.
 * @throws {InvalidArgumentError} naming the option or environment variable of an invalid URL.
 * @throws {MissingEndpointError} with `requireEndpoints`, naming every endpoint not configured
 *   (`error.missing`) when a required one is among them.
 *
 * @example
 * ```ts
 * import { getEndpoint, resolveNetwork } from "@perpx/core";
 *
 * const config = resolveNetwork({ network: "testnet", env: { PERPX_NODE_RPC_URL: "http://127.0.0.1:26657" } });
 * getEndpoint(config, "nodeRpc"); // "http://127.0.0.1:26657"
 * getEndpoint(resolveNetwork({ network: "testnet", env: {} }), "nodeRpc"); // throws MissingEndpointError
 * resolveNetwork({ network: "testnet", env: {}, requireEndpoints: true }); // throws MissingEndpointError naming PERPX_NODE_RPC_URL, PERPX_INDEXER_URL, PERPX_INDEXER_WS_URL and the optional ones
 * ```
 */
export function resolveNetwork(options: ResolveNetworkOptions = {}): NetworkConfig {
  const env: Env = options.env ?? {};
  let network: Network;
  if (typeof options.network === "object" && options.network !== null) {
    network = options.network;
  } else if (options.network !== undefined) {
    network = getNetwork(options.network, "options.network");
  } else {
    const fromEnv = present(env[NETWORK_ENV_VAR]);
    network = fromEnv === undefined ? getNetwork("local") : getNetwork(fromEnv, NETWORK_ENV_VAR);
  }

  const endpoints: Partial<Endpoints> = {};
  for (const name of ENDPOINT_NAMES) {
    const given = present(options.endpoints?.[name]);
    if (given !== undefined) {
      endpoints[name] = validateEndpointUrl(name, given, `endpoints.${name}`);
      continue;
    }
    const envVar = ENDPOINT_ENV_VARS[name];
    const fromEnv = present(env[envVar]);
    if (fromEnv !== undefined) {
      endpoints[name] = validateEndpointUrl(name, fromEnv, envVar);
      continue;
    }
    const fallback = network.defaultEndpoints[name];
    if (fallback !== undefined)
      endpoints[name] = validateEndpointUrl(name, fallback, `${network.name} preset`);
  }
  if (options.requireEndpoints === true) requireEndpoints(network.name, endpoints);
  return Object.freeze({ network, endpoints: Object.freeze(endpoints) });
}

function requireEndpoints(network: string, endpoints: Partial<Endpoints>): void {
  const missing: MissingEndpoint[] = ENDPOINT_NAMES.filter((name) => endpoints[name] === undefined).map(
    (name) => ({
      endpoint: name,
      envVar: ENDPOINT_ENV_VARS[name],
      required: ENDPOINT_VARIABLES[name].required,
    }),
  );
  const first = missing.find((m) => m.required);
  if (first !== undefined) throw new MissingEndpointError(first.endpoint, first.envVar, network, { missing });
}

/**
 * The URL of one endpoint of a resolved network.
 *
 * @param config - from {@link resolveNetwork}.
 * @param name - the endpoint.
 * @returns its URL, without a trailing slash.
 * @throws {MissingEndpointError} naming the endpoint and its environment variable when it is not configured.
 *
 * @example
 * ```ts
 * getEndpoint(resolveNetwork({ network: "local" }), "indexer"); // "http://127.0.0.1:3002"
 * ```
 */
export function getEndpoint(config: NetworkConfig, name: EndpointName): string {
  const url = config.endpoints[name];
  if (url === undefined) throw new MissingEndpointError(name, ENDPOINT_ENV_VARS[name], config.network.name);
  return url;
}

/**
 * The full URL of the indexer WebSocket: the `indexerWs` base followed by `/v4/ws` (not repeated
 * when the base already ends with it).
 *
 * @param config - from {@link resolveNetwork}.
 * @returns e.g. `"ws://127.0.0.1:3003/v4/ws"`.
 * @throws {MissingEndpointError} when `indexerWs` is not configured.
 *
 * @example
 * ```ts
 * indexerSocketUrl(resolveNetwork({ network: "local" })); // "ws://127.0.0.1:3003/v4/ws"
 * ```
 */
export function indexerSocketUrl(config: NetworkConfig): string {
  const base = getEndpoint(config, "indexerWs");
  const path = config.network.indexerWsPath;
  const url = new URL(base);
  if (url.pathname.replace(/\/+$/, "").endsWith(path)) return base;
  url.pathname = `${url.pathname.replace(/\/+$/, "")}${path}`;
  return url.href;
}
