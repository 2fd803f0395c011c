/** The clob module's error codes and their names. */

/**
 * Names of the clob errors (codespace `clob`) a trader meets, by ABCI code (chain-protocol 1.10).
 *
 * @example
 * ```ts
 * CLOB_ERRORS[3006]; // "stateful-order-does-not-exist"
 * ```
 */
export const CLOB_ERRORS = {
  2: "order-does-not-exist",
  7: "order-is-canceled",
  8: "invalid-clob-pair",
  9: "cancel-already-exists",
  10: "good-til-block-too-low",
  11: "good-til-block-beyond-window",
  12: "invalid-place-order",
  20: "invalid-replacement",
  24: "order-fully-filled",
  34: "conflicts-with-pair-status",
  46: "batch-cancel-failed",
  47: "clob-not-initialized",
  48: "deprecated-field",
  50: "invalid-builder-code",
  2001: "reduce-only-would-increase-position",
  2002: "reduce-only-would-change-side",
  2003: "post-only-would-cross",
  2004: "immediate-or-cancel-already-filled",
  3000: "invalid-order-flags",
  3001: "invalid-good-til-block-time",
  3002: "stateful-order-cannot-be-ioc",
  3003: "good-til-block-time-too-low",
  3004: "good-til-block-time-beyond-window",
  3005: "stateful-order-already-exists",
  3006: "stateful-order-does-not-exist",
  3007: "collateralization-check-failed",
  5001: "block-rate-limit-exceeded",
  6000: "invalid-condition-type",
  6001: "invalid-conditional-trigger",
  9003: "reduce-only-requires-ioc",
  10001: "equity-tier-limit",
} as const satisfies Record<number, string>;

/**
 * The clob codes by name: the inverse of {@link CLOB_ERRORS}, for branching on a code by its name.
 *
 * @example
 * ```ts
 * CLOB_CODES["post-only-would-cross"]; // 2003
 * ```
 */
export const CLOB_CODES: { readonly [Name in ClobErrorName]: number } = Object.freeze(
  Object.fromEntries(Object.entries(CLOB_ERRORS).map(([code, name]) => [name, Number(code)])) as {
    [Name in ClobErrorName]: number;
  },
);

/**
 * A clob error name from {@link CLOB_ERRORS}.
 *
 * @example
 * ```ts
 * const name: ClobErrorName = "post-only-would-cross";
 * ```
 */
export type ClobErrorName = (typeof CLOB_ERRORS)[keyof typeof CLOB_ERRORS];
