import { errorGuard, InvalidArgumentError, type PerpxErrorOptions } from "@perpx/errors";

/** Every key of every member of a union (`keyof (A | B)` keeps only the shared ones). */
type KeysOfUnion<T> = T extends unknown ? keyof T : never;

/**
 * An options object had a key the function does not know (a typo, or an option of another
 * function): refused rather than ignored, since an ignored option is a setting the caller believes
 * is in force. `argument` is the key's path (`endpoints.indexr`), `accepted` the keys allowed there.
 *
 * @example
 * ```ts
 * const error = new UnknownOptionError({ where: "connect", option: "caPem", accepted: ["network", "grpcCaCert"] });
 * error.argument; // "caPem"
 * error.shortMessage; // "Invalid caPem: connect takes no option caPem (it takes network, grpcCaCert)"
 * ```
 */
export class UnknownOptionError extends InvalidArgumentError {
  override name = "UnknownOptionError";
  /** The keys the options object takes at that place. */
  readonly accepted: readonly string[];
  /** The accepted key closest to the unknown one, when one is close. */
  readonly suggestion: string | undefined;

  /**
   * @param params - `where` (the function), `option` (the key's path), `accepted` (the keys
   *   allowed there) and an optional close-match `suggestion`.
   * @param options - cause and details.
   */
  constructor(
    params: { where: string; option: string; accepted: readonly string[]; suggestion?: string | undefined },
    options: PerpxErrorOptions = {},
  ) {
    const key = params.option.slice(params.option.lastIndexOf(".") + 1);
    const hint = params.suggestion === undefined ? "" : `; did you mean ${params.suggestion}?`;
    const list = params.accepted.length === 0 ? "none" : params.accepted.join(", ");
    super(params.option, `${params.where} takes no option ${key} (it takes ${list})${hint}`, options);
    this.accepted = params.accepted;
    this.suggestion = params.suggestion;
  }
}

/**
 * True when `value` is an {@link UnknownOptionError}.
 *
 * @param value - anything caught.
 * @returns whether it is an unknown-option refusal.
 *
 * @example
 * ```ts
 * const error: unknown = new UnknownOptionError({ where: "withdraw", option: "recipent", accepted: ["amount", "recipient"] });
 * isUnknownOptionError(error) && error.accepted; // ["amount", "recipient"]
 * ```
 */
export const isUnknownOptionError = errorGuard<UnknownOptionError>("UnknownOptionError");

/**
 * The key list of an options type, from a record that must name every key of `T` and no other
 * (the compiler holds the list to the type, so the runtime check cannot drift from it).
 *
 * @param table - `{ key: true }` for each key of `T` (every member's keys, for a union).
 * @returns the keys, for {@link assertKnownKeys}.
 *
 * @example
 * ```ts
 * interface Options { url: string; timeoutMs?: number }
 * const OPTION_KEYS = optionKeys<Options>({ url: true, timeoutMs: true });
 * OPTION_KEYS; // ["url", "timeoutMs"]
 * ```
 */
export function optionKeys<T>(table: { readonly [K in KeysOfUnion<T> & string]-?: true }): readonly string[] {
  return Object.freeze(Object.keys(table));
}

/** Edit distance of two short keys, case-insensitive (the keys are a few dozen characters). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[y.length] ?? 0;
}

/** The accepted key nearest a mistyped one: within a third of its length in edits, or containing it. */
function closest(key: string, accepted: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(key.length / 3));
  for (const candidate of accepted) {
    const d = distance(key, candidate);
    if (d <= bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best !== undefined || lower.length < 3) return best;
  return accepted.find((candidate) => candidate.toLowerCase().includes(lower));
}

/**
 * Checks an options object: it must be a plain object (not `null`, an array or a primitive), and
 * every key it has must be one of `allowed`. Runs before anything is signed or sent, so a misspelt
 * option (`caPem` for `grpcCaCert`) is an error instead of a setting silently left at its default.
 *
 * @param value - the options object as the caller passed it.
 * @param allowed - the keys it may have (see {@link optionKeys}).
 * @param where - the function, for the message (`"CompositeClient.connect"`).
 * @param path - where the object sits inside the options, for a nested one (`"endpoints"`).
 * @returns nothing; narrows `value` to a record.
 * @throws {UnknownOptionError} naming the first unknown key (as `path.key`) and the accepted ones.
 * @throws {InvalidArgumentError} when `value` is not a plain object, naming `path` (or `where`).
 *
 * @example
 * ```ts
 * const keys = optionKeys<{ amount: string; recipient?: string }>({ amount: true, recipient: true });
 * assertKnownKeys({ amount: "5" }, keys, "withdraw"); // passes
 * assertKnownKeys({ amount: "5", recipent: "perpx1..." }, keys, "withdraw"); // throws UnknownOptionError (did you mean recipient?)
 * assertKnownKeys(null, keys, "withdraw"); // throws InvalidArgumentError
 * ```
 */
export function assertKnownKeys(
  value: unknown,
  allowed: readonly string[],
  where: string,
  path = "",
): asserts value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const type = typeof value;
    const got =
      value === null
        ? "null"
        : Array.isArray(value)
          ? "an array"
          : `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
    throw new InvalidArgumentError(path === "" ? `${where} options` : path, `must be an object, got ${got}`);
  }
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    throw new UnknownOptionError({
      where,
      option: path === "" ? key : `${path}.${key}`,
      accepted: allowed,
      suggestion: closest(key, allowed),
    });
  }
}
