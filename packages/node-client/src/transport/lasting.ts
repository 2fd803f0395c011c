/**
 * The transport failures that asking again cannot mend, kept apart from the passing ones (a
 * refused, dropped or reset connection, a timeout, a 5xx, a gateway's page): a malformed answer
 * (the node did answer, with something that is not what the method returns) and a call on a
 * closed client. They stay plain `TransportError`s for callers; a wait that rides out a flaky
 * node (`waitForTx`) asks {@link isLastingFailure} to end at once on them.
 */

const lasting = new WeakSet<object>();

/**
 * Marks an error as one that asking again cannot mend.
 *
 * @param error - the error (a `TransportError` of a malformed answer or a closed client).
 * @returns the same error.
 * @example
 * ```ts
 * const error = lastingFailure(new TransportError({ transport: "rpc", problem: "the node's tx height is not an integer" }));
 * isLastingFailure(error); // true
 * ```
 */
export function lastingFailure<E extends Error>(error: E): E {
  lasting.add(error);
  return error;
}

/**
 * True for an error marked by {@link lastingFailure}: a malformed answer or a closed client.
 *
 * @param error - anything, typically a caught error.
 * @returns whether asking again cannot mend it.
 * @example
 * ```ts
 * isLastingFailure(new TransportError({ transport: "rpc", problem: "socket hang up" })); // false: it may pass
 * ```
 */
export function isLastingFailure(error: unknown): boolean {
  return typeof error === "object" && error !== null && lasting.has(error);
}
