#!/usr/bin/env node
// `perpx-devnet`: this committed file is the package's bin, so installing a fresh clone links it
// before anything is built; it runs the built command-line program. CommonJS (`bin/package.json`),
// as is the launcher it requires: a start never sets up Node's ES module loader.
try {
  require("../dist/cli.cjs");
} catch (error) {
  if (error?.code === "MODULE_NOT_FOUND" && String(error.message).includes("dist/cli.cjs")) {
    process.stderr.write("perpx-devnet: the package is not built yet; run `pnpm build` first\n");
    process.exit(1);
  }
  throw error;
}
