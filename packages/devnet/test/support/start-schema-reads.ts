/**
 * A child process for `start-without-descriptors.test.ts`: starts a devnet (every port free, as the
 * command line's default start) and prints, as JSON, every `@perpx/proto` schema or file descriptor
 * built before it was ready. A lazy namespace holds each one behind a getter until its first read,
 * which replaces the getter with the built value, so what is no longer a getter was built.
 */
import * as proto from "@perpx/proto";
import { startDevnet } from "../../src/index.js";

const devnet = await startDevnet({ ports: "free" });
const built: string[] = [];
for (const [namespace, value] of Object.entries(proto)) {
  if (value === null || typeof value !== "object" || Object.isExtensible(value)) continue;
  for (const key of Object.keys(value)) {
    if (!key.endsWith("Schema") && !key.startsWith("file_")) continue;
    if (Object.getOwnPropertyDescriptor(value, key)?.get === undefined) built.push(`${namespace}.${key}`);
  }
}
await devnet.stop();
process.stdout.write(`${JSON.stringify(built)}\n`);
