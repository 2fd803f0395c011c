#!/usr/bin/env node
// `perpx-mcp`: this committed file is the package's bin, so installing a fresh clone links it
// before anything is built; it runs the built command-line program.
import { existsSync } from "node:fs";

const cli = new URL("../dist/cli.js", import.meta.url);
// Only a missing dist/cli.js means "not built": a dependency it cannot find is reported as itself.
if (!existsSync(cli)) {
  process.stderr.write("perpx-mcp: the package is not built yet; run `pnpm build` first\n");
  process.exit(1);
}
await import(cli.href);
