import type { GasPrice, Network, UpgradeHistory } from "@perpx/core";
import { InvalidArgumentError } from "@perpx/errors";
import { cosmosNode, cosmosTendermint, cosmosUpgrade, ibcChannel } from "@perpx/proto";
import type { NodeConnection } from "../connection.js";
import { isQueryError } from "../errors.js";
import { checkParams } from "../messages/validate.js";
import { withDeadline } from "../transport/call.js";
import { rawRpc } from "../transport/rpc-json.js";
import { type FactOptions, factQuery, pickFactTransport, restQuery } from "./facts.js";
import { allPages } from "./pages.js";

/**
 * Parses a `minimum-gas-prices` string such as `0.025uusdc,25000000000aperpx`.
 * @param text - the node's `minimum-gas-prices` setting.
 * @returns one gas price (denom and exact decimal amount per gas unit) per fee denom, in the order given.
 * @throws {InvalidArgumentError} for an entry that is not `<decimal><denom>`.
 * @example
 * ```ts
 * parseGasPrices("0.025000000000000000uusdc"); // [{ denom: "uusdc", amount: "0.025" }]
 * ```
 */
export function parseGasPrices(text: string): GasPrice[] {
  if (text.trim() === "") return [];
  return text.split(",").map((entry) => {
    const match = /^\s*(\d+(?:\.\d+)?)([a-zA-Z][a-zA-Z0-9/:._-]*)\s*$/.exec(entry);
    if (!match) throw new InvalidArgumentError("minimumGasPrices", `cannot parse ${JSON.stringify(entry)}`);
    // Nodes print DecCoins with 18 decimals ("0.025000000000000000"): keep the exact value, drop the zeros.
    const amount = match[1]!.includes(".") ? match[1]!.replace(/0+$/, "").replace(/\.$/, "") : match[1]!;
    return { denom: match[2]!, amount };
  });
}

/**
 * The node's minimum gas prices (`/cosmos/base/node/v1beta1/config`).
 * @param client - the node client (from `createNodeClient`).
 * @param options - `FactOptions`, with the call options.
 * @returns one gas price per fee denom.
 * @example
 * ```ts
 * await getMinimumGasPrices(client); // [{ denom: "aperpx", amount: "25000000000" }, { denom: "uusdc", amount: "0.025" }]
 * ```
 */
export async function getMinimumGasPrices(
  client: NodeConnection,
  options: FactOptions = {},
): Promise<GasPrice[]> {
  checkParams(options, "getMinimumGasPrices", true);
  const response = await factQuery(client, options, {
    path: "/cosmos/base/node/v1beta1/config",
    method: cosmosNode.Service.method.config,
    request: {},
  });
  return parseGasPrices(response.minimumGasPrice);
}

/**
 * What a node says about itself.
 * @example
 * ```ts
 * const { appVersion, network }: NodeInfo = await getNodeInfo(client);
 * ```
 */
export interface NodeInfo {
  /** The running application version, e.g. `v27.5` (`application_version.version`). */
  appVersion: string;
  appName: string;
  /** The chain id the node is on. */
  network: string;
  cometVersion: string;
  moniker: string;
  /** The node id (hex), as peers know it. */
  nodeId: string;
}

/**
 * The node's identity and running version (`node_info`; over RPC, `status` and `abci_info`).
 * @param client - the node client (from `createNodeClient`).
 * @param options - `FactOptions`, with the call options.
 * @returns the node's identity and running version.
 * @example
 * ```ts
 * import { local } from "@perpx/core";
 *
 * const { appVersion } = await getNodeInfo(client);
 * appVersion === local.latestVersion; // true: the devnet runs the version the local preset names
 * ```
 */
export async function getNodeInfo(client: NodeConnection, options: FactOptions = {}): Promise<NodeInfo> {
  checkParams(options, "getNodeInfo", true);
  const transport = pickFactTransport(client, options.transport);
  if (transport === "rpc") {
    return withDeadline(
      { ...options, operation: "node info", defaultTimeoutMs: client.timeoutMs },
      async (signal) => {
        const status = (await rawRpc(client.rpc!, "status", {}, signal)) as {
          node_info: { version: string; network: string; moniker: string; id: string };
        };
        const info = (await rawRpc(client.rpc!, "abci_info", {}, signal)) as {
          response?: { version?: string; data?: string };
        };
        return {
          appVersion: info.response?.version ?? "",
          appName: info.response?.data ?? "",
          network: status.node_info.network,
          cometVersion: status.node_info.version,
          moniker: status.node_info.moniker,
          nodeId: status.node_info.id.toLowerCase(),
        };
      },
    );
  }
  const response = await factQuery(
    client,
    { ...options, transport },
    {
      path: "/cosmos/base/tendermint/v1beta1/node_info",
      method: cosmosTendermint.Service.method.getNodeInfo,
      request: {},
    },
  );
  return {
    appVersion: response.applicationVersion?.version ?? "",
    appName: response.applicationVersion?.appName ?? "",
    network: response.defaultNodeInfo?.network ?? "",
    cometVersion: response.defaultNodeInfo?.version ?? "",
    moniker: response.defaultNodeInfo?.moniker ?? "",
    nodeId: (response.defaultNodeInfo?.defaultNodeId ?? "").toLowerCase(),
  };
}

/**
 * Parameters of {@link getAppliedPlan}.
 * @example
 * ```ts
 * const params: AppliedPlanParams = { name: "v27.0", transport: "rest" };
 * ```
 */
export interface AppliedPlanParams extends FactOptions {
  /** The upgrade's name: the version, e.g. `v27.0`. */
  name: string;
}

/**
 * The height at which a named upgrade was applied (`/cosmos/upgrade/v1beta1/applied_plan/<name>`).
 * @param client - the node client (from `createNodeClient`).
 * @param params - `AppliedPlanParams`, with the call options.
 * @returns the height, or `undefined` when the chain never applied it.
 * @example
 * ```ts
 * await getAppliedPlan(client, { name: "v27.0" }); // undefined: never applied here
 * ```
 */
export async function getAppliedPlan(
  client: NodeConnection,
  params: AppliedPlanParams,
): Promise<bigint | undefined> {
  checkParams(params, "getAppliedPlan");
  let height: bigint;
  try {
    ({ height } = await factQuery(client, params, {
      path: `/cosmos/upgrade/v1beta1/applied_plan/${encodeURIComponent(params.name)}`,
      method: cosmosUpgrade.Query.method.appliedPlan,
      request: { name: params.name },
    }));
  } catch (error) {
    if (isQueryError(error) && error.notFound) return undefined;
    throw error;
  }
  return height === 0n ? undefined : height;
}

/**
 * One line of {@link checkUpgradeHistory}'s report.
 * @example
 * ```ts
 * import { testnet } from "@perpx/core";
 *
 * const checks: UpgradeCheck[] = (await checkUpgradeHistory(client, { network: testnet })).upgrades;
 * ```
 */
export interface UpgradeCheck {
  version: string;
  /** Its height in the network preset. */
  expectedHeight: bigint;
  /** Its height on the chain, or `undefined` when the chain does not know it. */
  chainHeight: bigint | undefined;
  /** True when both agree. */
  matches: boolean;
}

/**
 * What {@link checkUpgradeHistory} found.
 * @example
 * ```ts
 * import { testnet } from "@perpx/core";
 *
 * const { ok }: UpgradeHistoryReport = await checkUpgradeHistory(client, { network: testnet }); // ok: false
 * ```
 */
export interface UpgradeHistoryReport {
  /** True when every upgrade matches and the running version is the expected one. */
  ok: boolean;
  /** One line per upgrade of the preset, oldest first. */
  upgrades: UpgradeCheck[];
  /** The version the preset expects to be running. */
  expectedVersion: string;
  /** The version the node reports running. */
  runningVersion: string;
}

/**
 * Parameters of {@link checkUpgradeHistory}: the network preset to compare with, and how to ask.
 * @example
 * ```ts
 * import { testnet } from "@perpx/core";
 *
 * const params: UpgradeHistoryParams = { network: testnet, transport: "rest" };
 * ```
 */
export interface UpgradeHistoryParams extends FactOptions {
  /** The preset whose upgrade history (heights and latest version) the chain must match. */
  network: UpgradeHistory & Pick<Network, "latestVersion">;
}

/**
 * Compares a network preset's upgrade history (plan heights, running version) with the chain.
 * @param client - the node client (from `createNodeClient`).
 * @param params - `UpgradeHistoryParams`, with the call options.
 * @returns each plan with the height the chain applied it at (or none), and the running version.
 * @example
 * ```ts
 * import { testnet } from "@perpx/core";
 *
 * const report = await checkUpgradeHistory(client, { network: testnet });
 * report.ok; // false: a devnet is not testnet
 * ```
 */
export async function checkUpgradeHistory(
  client: NodeConnection,
  params: UpgradeHistoryParams,
): Promise<UpgradeHistoryReport> {
  checkParams(params, "checkUpgradeHistory");
  const { network, ...options } = params;
  checkParams(network, "checkUpgradeHistory");
  const upgrades = await Promise.all(
    network.upgrades.map(async (upgrade) => {
      const chainHeight = await getAppliedPlan(client, { ...options, name: upgrade.version });
      const expectedHeight = BigInt(upgrade.height);
      return {
        version: upgrade.version,
        expectedHeight,
        chainHeight,
        matches: chainHeight === expectedHeight,
      };
    }),
  );
  const { appVersion } = await getNodeInfo(client, options);
  return {
    ok: upgrades.every((u) => u.matches) && appVersion === network.latestVersion,
    upgrades,
    expectedVersion: network.latestVersion,
    runningVersion: appVersion,
  };
}

/**
 * An IBC channel end of this chain.
 * @example
 * ```ts
 * const open = (await getIbcChannels(client)).filter((c: IbcChannel) => c.state === "STATE_OPEN");
 * ```
 */
export interface IbcChannel {
  /** `channel-<n>`. */
  channelId: string;
  /** Usually `transfer`. */
  portId: string;
  /** `STATE_OPEN`, `STATE_INIT`, ... */
  state: string;
  /** The other end. */
  counterparty: { portId: string; channelId: string };
  /** The connection(s) under it. */
  connectionHops: string[];
  /** The channel version, e.g. `ics20-1`. */
  version: string;
}

function channelOf(channel: Omit<ibcChannel.IdentifiedChannel, "$typeName">): IbcChannel {
  return {
    channelId: channel.channelId,
    portId: channel.portId,
    state: `STATE_${ibcChannel.State[channel.state] ?? channel.state}`,
    counterparty: {
      portId: channel.counterparty?.portId ?? "",
      channelId: channel.counterparty?.channelId ?? "",
    },
    connectionHops: channel.connectionHops,
    version: channel.version,
  };
}

/**
 * Every IBC channel of the chain (`/ibc/core/channel/v1/channels`).
 * @param client - the node client (from `createNodeClient`).
 * @param options - `FactOptions`, with the call options.
 * @returns every IBC channel of the chain (`/ibc/core/channel/v1/channels`).
 * @example
 * ```ts
 * const channels = await getIbcChannels(client);
 * channels[0]; // { channelId: "channel-0", state: "STATE_OPEN", counterparty: { channelId: "channel-4", ... } }
 * ```
 */
export async function getIbcChannels(
  client: NodeConnection,
  options: FactOptions = {},
): Promise<IbcChannel[]> {
  checkParams(options, "getIbcChannels", true);
  const transport = pickFactTransport(client, options.transport);
  const channels =
    transport === "rest"
      ? (
          await restQuery(client, {
            ...options,
            path: "/ibc/core/channel/v1/channels",
            schema: ibcChannel.QueryChannelsResponseSchema,
          })
        ).channels
      : await allPages(client, {
          ...options,
          transport,
          method: ibcChannel.Query.method.channels,
          request: {},
          pick: (r) => r.channels,
        });
  return channels.map(channelOf);
}
