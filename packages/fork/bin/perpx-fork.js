#!/usr/bin/env node
// `perpx-fork`: this committed file is the package's bin, so installing a fresh clone links it
// before anything is built; it runs the built command-line program.
try {
  await import("../dist/cli.js");
} catch (error) {
  if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/cli.js")) {
    process.stderr.write("perpx-fork: the package is not built yet; run `pnpm build` first\n");
    process.exit(1);
  }
  throw error;
}
