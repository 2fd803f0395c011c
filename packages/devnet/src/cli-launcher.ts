/**
 * The built `perpx-devnet` (`dist/cli.cjs`, required by `bin/perpx-devnet.js`): loads the program, one
 * self-contained CommonJS bundle (`dist/cli-main.cjs`), through V8's code cache (`code-cache.ts`)
 * and runs it. The cache is saved once the devnet is ready, so the next start neither parses the
 * bundle nor compiles the functions a start runs.
 */
import { fileURLToPath } from "node:url";
import type { runCli } from "./cli-main.js";
import { holdEarlySignals } from "./cli-signals.js";
import { loadCommonJs } from "./code-cache.js";

// Before the program loads (tens of ms): a signal meanwhile stops it cleanly, as one later does.
const handOverSignals = holdEarlySignals();
const program = loadCommonJs(fileURLToPath(new URL("./cli-main.cjs", import.meta.url)));
const { runCli: run } = program.exports as { runCli: typeof runCli };
void run(process.argv.slice(2), {
  onReady: () => setImmediate(() => program.save()),
  onSignalsHandled: handOverSignals,
});
