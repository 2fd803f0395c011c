/**
 * `pnpm example <name>`: runs `src/tasks/<name>.ts` (on the devnet started in process, or on the
 * network `PERPX_NETWORK` names); without a name, or with an unknown one, lists the examples.
 */
import { readdirSync } from "node:fs";

const tasks = new URL("../tasks/", import.meta.url);
const names = readdirSync(tasks)
  .filter((file) => file.endsWith(".ts"))
  .map((file) => file.slice(0, -3))
  .sort();
const name = process.argv[2];
if (name === undefined || !names.includes(name)) {
  if (name !== undefined) console.error(`no example named "${name}"`);
  console.error(`usage: pnpm example <name>, one of:\n  ${names.join("\n  ")}`);
  process.exit(2);
}
await import(new URL(`${name}.ts`, tasks).href);
