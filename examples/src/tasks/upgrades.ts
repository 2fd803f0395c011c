/**
 * Upgrade and version check: compares the network preset's upgrade history (from `@perpx/core`)
 * with the chain (each applied upgrade plan's height, and the version the node runs), and which
 * version ran at a given height.
 *
 * Output (checked by tests/examples.test.ts):
 *   network <name>: chain <chainId>, <n> upgrade(s) in the preset
 *   running version <version>, expected <version>: ok
 *   version at height <height>: <version>
 */
import { versionAtHeight } from "@perpx/core";
import { checkUpgradeHistory } from "@perpx/node-client/queries";
import { runExample } from "../support/network.js";

await runExample(async ({ client }) => {
  const { network } = client.context.config;
  const report = await checkUpgradeHistory(client.context.node, { network });
  console.log(
    `network ${network.name}: chain ${network.chainId}, ${network.upgrades.length} upgrade(s) in the preset`,
  );
  for (const upgrade of report.upgrades) {
    console.log(
      `upgrade ${upgrade.version}: preset height ${upgrade.expectedHeight}, chain ${upgrade.chainHeight ?? "not applied"}`,
    );
  }
  console.log(
    `running version ${report.runningVersion}, expected ${report.expectedVersion}: ${report.ok ? "ok" : "MISMATCH"}`,
  );
  const height = client.height();
  console.log(`version at height ${height}: ${versionAtHeight(network, height) ?? network.latestVersion}`);
  if (!report.ok) process.exitCode = 1;
});
