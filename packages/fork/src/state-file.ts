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

type Check = (value: unknown) => boolean;
const isString: Check = (value) => typeof value === "string";
const isBigint: Check = (value) => typeof value === "bigint";
const isInteger: Check = (value) => Number.isSafeInteger(value);
const isBytes: Check = (value) => value instanceof Uint8Array;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const fields =
  (shape: Record<string, Check>): Check =>
  (value) =>
    isObject(value) && Object.entries(shape).every(([key, check]) => check(value[key]));
const listOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);

/** What a fork's start state holds, field by field (the protobuf params are checked as objects). */
const FORK_STATE: Record<string, Check> = {
  source: isString,
  height: isBigint,
  profile: (value) => value === "local" || value === "testnet" || value === "mainnet",
  chainId: isString,
  evmChainId: isInteger,
  fromPreset: optional(listOf((value) => value === "evmChainId" || value === "upgrades")),
  upgrades: listOf(fields({ version: isString, height: isBigint })),
  moniker: optional(isString),
  markets: listOf(
    fields({
      id: isInteger,
      pair: isString,
      exponent: isInteger,
      price: isBigint,
      minPriceChangePpm: isInteger,
      atomicResolution: isInteger,
      liquidityTier: isInteger,
      marketType: isInteger,
      defaultFundingPpm: isInteger,
      stepBaseQuantums: isBigint,
      subticksPerTick: isInteger,
      quantumConversionExponent: isInteger,
      fundingIndex: isBigint,
    }),
  ),
  liquidityTiers: optional(listOf(isObject)),
  feeParams: optional(isObject),
  params: optional(isObject),
  accounts: listOf(
    fields({
      address: isString,
      accountNumber: isBigint,
      sequence: isBigint,
      pubKey: optional(
        fields({ algo: (value) => value === "secp256k1" || value === "eth_secp256k1", key: isBytes }),
      ),
      balances: listOf(fields({ denom: isString, amount: isBigint })),
      subaccounts: listOf(
        fields({
          number: isInteger,
          usdc: isBigint,
          positions: listOf(
            fields({
              perpetualId: isInteger,
              quantums: isBigint,
              fundingIndex: isBigint,
              quoteBalance: optional(isBigint),
            }),
          ),
        }),
      ),
      authenticators: listOf(fields({ id: isBigint, type: isString, config: isBytes })),
    }),
  ),
  testAccounts: optional((value) => typeof value === "boolean"),
};

/**
 * Reads the fork state of `dir`, or undefined when the directory holds none.
 *
 * @throws {InvalidArgumentError} naming `stateDir` and the file when it is not JSON or not a fork
 *   state (the first field that is missing or of another type is named), before anything starts.
 */
export function readForkStateFile(dir: string): ForkState | undefined {
  const path = join(dir, FORK_STATE_FILE);
  if (!existsSync(path)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"), decode);
  } catch (error) {
    throw new InvalidArgumentError("stateDir", `${path} is not a fork state`, { cause: error });
  }
  if (!isObject(value))
    throw new InvalidArgumentError("stateDir", `${path} is not a fork state: not an object`);
  for (const [key, check] of Object.entries(FORK_STATE)) {
    if (!check(value[key])) {
      throw new InvalidArgumentError(
        "stateDir",
        `${path} is not a fork state: its "${key}" is missing or malformed`,
      );
    }
  }
  return value as unknown as ForkState;
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
