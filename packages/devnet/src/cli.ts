#!/usr/bin/env node
/**
 * `perpx-devnet` from the sources (`node --import tsx src/cli.ts start ...`, as the CLI tests run
 * it). The built command line is `cli-launcher.ts`: the same program, loaded through V8's code cache.
 */
import { runCli } from "./cli-main.js";

void runCli(process.argv.slice(2));
