/**
 * `DIR/fork.json`: the state a fork started from, kept beside the devnet's own state so a fork
 * resumes as the same fork (chain ids, moniker, source) without reading the live network again.
 * JSON with bigints as `{"$bigint": "..."}` and bytes as `{"$bytes": "<base64>"}`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InvalidArgumentError } from "@perpx/core";
import type { ForkState } from "@perpx/devnet";

/**
 * The file a fork's start state is kept in, inside its state directory.
 *
 * @example
 * ```ts
 * FORK_STATE_FILE; // "fork.json"
 * ```
 */
export const FORK_STATE_FILE = "fork.json";

function encode(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return { $bigint: value.toString() };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString("base64") };
  return value;
}

function decode(_key: string, value: unknown): unknown {
  if (typeof value === "object" && value !== null) {
    const tagged = value as { $bigint?: unknown; $bytes?: unknown };
    if (typeof tagged.$bigint === "string" && Object.keys(value).length === 1) return BigInt(tagged.$bigint);
    if (typeof tagged.$bytes === "string" && Object.keys(value).length === 1) {
      return new Uint8Array(Buffer.from(tagged.$bytes, "base64"));
    }
  }
  return value;
}

/** Reads the fork state of `dir`, or undefined when the directory holds none. */
export function readForkStateFile(dir: string): ForkState | undefined {
  const path = join(dir, FORK_STATE_FILE);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8"), decode) as ForkState;
  } catch (error) {
    throw new InvalidArgumentError("stateDir", `${path} is not a fork state`, { cause: error });
  }
}

/** Writes the fork state into `dir` (atomically: a temporary file renamed over it). */
export function writeForkStateFile(dir: string, state: ForkState): void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, FORK_STATE_FILE);
  writeFileSync(
    `${path}.tmp`,
    JSON.stringify(state, (key, value) => encode(key, value)),
  );
  renameSync(`${path}.tmp`, path);
}
