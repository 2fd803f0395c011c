/**
 * The live network's upgrade history. No query lists the upgrades a chain applied: the upgrade
 * module answers `AppliedPlan` for a name it is given (the height it ran at, or none). So the names
 * are discovered: the preset's, the running version the node reports (`node_info`), and every name
 * of the chain's `v<major>.<minor>` scheme from the oldest major known to the running one, with
 * minors up to {@link MINOR_SLACK} past the highest one known of that major. A name outside that
 * scheme and range (a patch release such as `v27.5.1`, a major older than any known) stays
 * undiscovered: that is the limit.
 */
import type { NodeConnection } from "@perpx/node-client";
import { getAppliedPlan, getNodeInfo } from "@perpx/node-client/queries";

/** Minors probed past the highest one known of a major. */
const MINOR_SLACK = 5;

function parse(name: string): { major: number; minor: number } | undefined {
  const match = /^v(\d{1,4})\.(\d{1,4})$/.exec(name);
  return match === null ? undefined : { major: Number(match[1]), minor: Number(match[2]) };
}

/**
 * The names to ask `AppliedPlan` about (see the module comment).
 *
 * @param known - upgrade names known beforehand (the preset's, the running version).
 * @returns every name to probe, each once.
 */
export function upgradeCandidates(known: readonly string[]): string[] {
  const versions = known.flatMap((name) => parse(name) ?? []);
  const names = new Set(known);
  if (versions.length === 0) return [...names];
  const majors = versions.map((v) => v.major);
  for (let major = Math.min(...majors); major <= Math.max(...majors); major++) {
    const minors = versions.filter((v) => v.major === major).map((v) => v.minor);
    const top = (minors.length === 0 ? 0 : Math.max(...minors)) + MINOR_SLACK;
    for (let minor = 0; minor <= top; minor++) names.add(`v${major}.${minor}`);
  }
  return [...names];
}

/**
 * The running version the live node reports (`node_info`'s application version), if it answers.
 *
 * @param node - a node client of the live network.
 * @returns the version, such as `v27.5`.
 */
export async function runningVersion(node: NodeConnection): Promise<string | undefined> {
  try {
    const version = (await getNodeInfo(node)).appVersion;
    return version === "" ? undefined : version;
  } catch {
    return undefined;
  }
}

/**
 * The upgrades the live network applied up to `height`, oldest first, from the names
 * {@link upgradeCandidates} discovers from `known`.
 *
 * @param node - a node client of the live network.
 * @param known - the upgrade names known beforehand (the preset's, the running version).
 * @param height - the fork height: upgrades applied after it are left out.
 * @returns the applied upgrades (name and height), oldest first.
 */
export async function readUpgrades(
  node: NodeConnection,
  known: readonly string[],
  height: bigint,
): Promise<Array<{ version: string; height: bigint }>> {
  const applied = await Promise.all(
    upgradeCandidates(known).map(async (version) => ({
      version,
      // Asked at the latest height, not pinned to `height`: a pinned batch of this size can be
      // overtaken by the next block on a fast chain. What ran after `height` is dropped below, so the
      // answer is the same.
      height: await getAppliedPlan(node, { name: version }),
    })),
  );
  return applied
    .flatMap((u) =>
      u.height === undefined || u.height === 0n || u.height > height
        ? []
        : [{ version: u.version, height: u.height }],
    )
    .sort((a, b) =>
      a.height < b.height ? -1 : a.height > b.height ? 1 : a.version.localeCompare(b.version),
    );
}
