#!/usr/bin/env node
/**
 * `perpx-devnet` from the sources (`node --import tsx src/cli.ts start ...`, as the CLI tests run
 * it). The built command line is `cli-launcher.ts`: the same program, loaded through V8's code cache.
 */
import { holdEarlySignals } from "./cli-signals.js";

// Before the program's modules load: a signal meanwhile stops it cleanly, as one later does.
const handOverSignals = holdEarlySignals();
const { runCli } = await import("./cli-main.js");
void runCli(process.argv.slice(2), { onSignalsHandled: handOverSignals });
