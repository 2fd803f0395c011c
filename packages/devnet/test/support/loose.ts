/**
 * Test-only: JSON responses are read loosely and their shapes asserted with `expect`.
 */
// biome-ignore lint/suspicious/noExplicitAny: the one place tests read untyped JSON; every read is asserted.
export type Loose = any;
