#!/usr/bin/env node
// Writes packages/core/env/<network>.env.example from core's envTemplate (build core first).
// packages/core/src/env-template.test.ts holds the committed files to this output.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { envTemplate, NETWORK_NAMES } from "../packages/core/dist/index.js";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "core", "env");
for (const network of NETWORK_NAMES) {
  writeFileSync(join(dir, `${network}.env.example`), envTemplate(network));
}
