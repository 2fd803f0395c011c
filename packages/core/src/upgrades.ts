import { InvalidArgumentError } from "@perpx/errors";
import { deepFreeze } from "./freeze.js";

/**
 * One applied software upgrade: the chain switched to `version` at block `height`.
 *
 * @example
 * ```ts
 * const upgrade: Upgrade = { version: "v27.5", height: 12_960_191n };
 * ```
 */
export interface Upgrade {
  /** The chain software version, `v<major>.<minor>`. */
  readonly version: string;
  /** The block height the upgrade was applied at. */
  readonly height: bigint;
}

/**
 * The mainnet upgrade history of the specification, oldest first.
 *
 * @example
 * ```ts
 * MAINNET_UPGRADES.at(-1); // { version: "v27.5", height: 12960191n }
 * ```
 */
export const MAINNET_UPGRADES: readonly Upgrade[] = /* @__PURE__ */ deepFreeze([
  { version: "v26.9", height: 509_260n },
  { version: "v26.13", height: 9_160_000n },
  { version: "v26.14", height: 12_380_000n },
  { version: "v27.0", height: 12_395_000n },
  { version: "v27.1", height: 12_471_130n },
  { version: "v27.2", height: 12_471_830n },
  { version: "v27.3", height: 12_842_226n },
  { version: "v27.4", height: 12_933_138n },
  { version: "v27.5", height: 12_960_191n },
]);

/**
 * The testnet upgrade history of the specification, oldest first.
 *
 * @example
 * ```ts
 * TESTNET_UPGRADES[0]; // { version: "v26.12", height: 776500n }
 * ```
 */
export const TESTNET_UPGRADES: readonly Upgrade[] = /* @__PURE__ */ deepFreeze([
  { version: "v26.12", height: 776_500n },
  { version: "v26.13", height: 876_000n },
  { version: "v26.14", height: 2_550_000n },
  { version: "v27.0", height: 4_403_000n },
  { version: "v27.1", height: 4_420_500n },
  { version: "v27.2", height: 4_497_068n },
  { version: "v27.3", height: 4_845_637n },
  { version: "v27.4", height: 4_942_502n },
  { version: "v27.5", height: 5_016_944n },
]);

/**
 * The latest chain software version of the specification (the last upgrade on both networks).
 *
 * @example
 * ```ts
 * LATEST_VERSION; // "v27.5"
 * ```
 */
export const LATEST_VERSION = "v27.5";

/**
 * What {@link versionAtHeight} and {@link upgradeHeight} need of a network: any preset fits, and so
 * does a custom history.
 *
 * @example
 * ```ts
 * const history: UpgradeHistory = { upgrades: [{ version: "v1.0", height: 100n }], genesisVersion: "v0.9" };
 * versionAtHeight(history, 50); // "v0.9"
 * ```
 */
export interface UpgradeHistory {
  /** Applied upgrades, oldest first. */
  readonly upgrades: readonly Upgrade[];
  /** The version the chain ran from its first block, when known. */
  readonly genesisVersion?: string | undefined;
}

/**
 * A chain software version split into its numbers.
 *
 * @example
 * ```ts
 * parseVersion("v27.5"); // { major: 27, minor: 5 }
 * ```
 */
export interface ParsedVersion {
  readonly major: number;
  readonly minor: number;
}

const VERSION = /^v(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;

/**
 * Parses a chain software version of the form `v<major>.<minor>`.
 *
 * @param version - e.g. `"v27.5"`.
 * @returns its major and minor numbers.
 * @throws {InvalidArgumentError} when `version` is not of that form.
 *
 * @example
 * ```ts
 * parseVersion("v26.13"); // { major: 26, minor: 13 }
 * ```
 */
export function parseVersion(version: string): ParsedVersion {
  const match = typeof version === "string" ? VERSION.exec(version) : null;
  if (!match) {
    throw new InvalidArgumentError("version", `expected v<major>.<minor>, got ${JSON.stringify(version)}`);
  }
  return { major: Number(match[1]), minor: Number(match[2]) };
}

/**
 * Orders two chain software versions numerically (`v27.10` is after `v27.9`).
 *
 * @param a - a version, `v<major>.<minor>`.
 * @param b - another version.
 * @returns a negative number when `a` is older, 0 when equal, a positive number when newer.
 * @throws {InvalidArgumentError} when either is not of the form `v<major>.<minor>`.
 *
 * @example
 * ```ts
 * compareVersions("v26.14", "v27.0") < 0; // true
 * ```
 */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  return x.major - y.major || x.minor - y.minor;
}

function toHeight(height: bigint | number): bigint {
  if (typeof height === "bigint") {
    if (height < 0n) throw new InvalidArgumentError("height", `must not be negative, got ${height}`);
    return height;
  }
  if (typeof height !== "number" || !Number.isSafeInteger(height) || height < 0) {
    throw new InvalidArgumentError("height", `must be a non-negative safe integer, got ${String(height)}`);
  }
  return BigInt(height);
}

/**
 * Which chain software version runs at a block height: the last upgrade applied at or below it.
 * An upgrade applied at height H runs from block H on.
 *
 * @param network - a network preset (or anything with `upgrades` and an optional `genesisVersion`).
 * @param height - a block height.
 * @returns the version, or `undefined` before the first recorded upgrade when the version the
 *   chain started with is not known (mainnet and testnet; the local devnet runs
 *   {@link LATEST_VERSION} from its first block).
 * @throws {InvalidArgumentError} when `height` is negative or not an integer.
 *
 * @example
 * ```ts
 * import { mainnet, versionAtHeight } from "@perpx/core";
 *
 * versionAtHeight(mainnet, 12_471_130n); // "v27.1"
 * versionAtHeight(mainnet, 12_471_129); // "v27.0"
 * versionAtHeight(mainnet, 1); // undefined
 * ```
 */
export function versionAtHeight(network: UpgradeHistory, height: bigint | number): string | undefined {
  const at = toHeight(height);
  let version: string | undefined;
  for (const upgrade of network.upgrades) {
    if (upgrade.height > at) break;
    version = upgrade.version;
  }
  if (version !== undefined) return version;
  return at >= 1n ? network.genesisVersion : undefined;
}

/**
 * The height at which a version was applied, as the node's applied-plan path reports it.
 *
 * @param network - a network preset (or anything with `upgrades`).
 * @param version - e.g. `"v27.0"`.
 * @returns the height, or `undefined` when the network has no such upgrade.
 *
 * @example
 * ```ts
 * import { testnet, upgradeHeight } from "@perpx/core";
 *
 * upgradeHeight(testnet, "v27.0"); // 4403000n
 * ```
 */
export function upgradeHeight(network: UpgradeHistory, version: string): bigint | undefined {
  return network.upgrades.find((upgrade) => upgrade.version === version)?.height;
}
