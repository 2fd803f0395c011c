import { type AddressOptions, parseAddress } from "./address.js";
import { InvalidSubaccountError, isInvalidAddressError, quote } from "./errors.js";

/**
 * The highest parent subaccount number: parents are numbered 0 to 127.
 *
 * @example
 * ```ts
 * isParentSubaccountNumber(MAX_PARENT_SUBACCOUNT_NUMBER); // true
 * ```
 */
export const MAX_PARENT_SUBACCOUNT_NUMBER = 127;

/**
 * The distance between a parent subaccount and its successive children: child k of parent p is
 * numbered `p + 128 * k`.
 *
 * @example
 * ```ts
 * childSubaccountNumber(3, 2) === 3 + 2 * CHILD_SUBACCOUNT_STRIDE; // true
 * ```
 */
export const CHILD_SUBACCOUNT_STRIDE = 128;

/**
 * The highest subaccount number the chain accepts (0 to 128,000 are valid).
 *
 * @example
 * ```ts
 * validateSubaccountNumber(MAX_SUBACCOUNT_NUMBER); // 128000
 * ```
 */
export const MAX_SUBACCOUNT_NUMBER = 128_000;

/**
 * A subaccount: the owner's address and the subaccount number.
 *
 * @example
 * ```ts
 * const ref: SubaccountRef = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 128 };
 * formatSubaccountId(ref); // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c/128"
 * ```
 */
export interface SubaccountRef {
  /** The owner's account address (bech32 when produced by this package). */
  owner: string;
  /** The subaccount number, 0 to {@link MAX_SUBACCOUNT_NUMBER}. */
  number: number;
}

/** Checks an integer in `[0, max]`, with `what` naming it in the error. */
function checkInteger(n: number, max: number, what: string): number {
  if (typeof n !== "number" || !Number.isInteger(n)) {
    throw new InvalidSubaccountError("not-an-integer", String(n), {
      problem: `${what} must be an integer, got ${typeof n === "number" ? String(n) : `a ${typeof n}`}`,
    });
  }
  if (n < 0 || n > max) {
    throw new InvalidSubaccountError("out-of-range", String(n), {
      problem: `${what} must be between 0 and ${max}, got ${n}`,
    });
  }
  return n;
}

/**
 * Returns `n` when it is a valid subaccount number: an integer from 0 to
 * {@link MAX_SUBACCOUNT_NUMBER}.
 *
 * @param n - the candidate subaccount number.
 * @returns `n` unchanged.
 * @throws {InvalidSubaccountError} `not-an-integer` or `out-of-range`.
 *
 * @example
 * ```ts
 * validateSubaccountNumber(0); // 0
 * validateSubaccountNumber(128_001); // throws InvalidSubaccountError (out-of-range)
 * ```
 */
export function validateSubaccountNumber(n: number): number {
  return checkInteger(n, MAX_SUBACCOUNT_NUMBER, "a subaccount number");
}

/**
 * True when `n` is a parent subaccount number: an integer from 0 to 127. Never throws.
 *
 * @param n - the candidate number.
 * @returns whether `n` numbers a parent subaccount.
 *
 * @example
 * ```ts
 * isParentSubaccountNumber(127); // true
 * isParentSubaccountNumber(128); // false: child 1 of parent 0
 * ```
 */
export function isParentSubaccountNumber(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n <= MAX_PARENT_SUBACCOUNT_NUMBER;
}

/**
 * The parent of a subaccount: `n % 128`. A parent is its own parent.
 *
 * @param n - any valid subaccount number.
 * @returns its parent subaccount number, 0 to 127.
 * @throws {InvalidSubaccountError} when `n` is not a valid subaccount number.
 *
 * @example
 * ```ts
 * parentSubaccountNumber(259); // 3 (259 = 3 + 2 * 128)
 * ```
 */
export function parentSubaccountNumber(n: number): number {
  return validateSubaccountNumber(n) % CHILD_SUBACCOUNT_STRIDE;
}

/**
 * The child index of a subaccount under its parent: `Math.floor(n / 128)`, so that
 * `n === childSubaccountNumber(parentSubaccountNumber(n), childSubaccountIndex(n))`. Parents have
 * index 0.
 *
 * @param n - any valid subaccount number.
 * @returns `k` such that `n = parent + 128 * k`.
 * @throws {InvalidSubaccountError} when `n` is not a valid subaccount number.
 *
 * @example
 * ```ts
 * childSubaccountIndex(259); // 2 (259 = 3 + 2 * 128)
 * ```
 */
export function childSubaccountIndex(n: number): number {
  return Math.floor(validateSubaccountNumber(n) / CHILD_SUBACCOUNT_STRIDE);
}

/**
 * The number of child `k` of a parent subaccount: `parent + 128 * k`. Child 0 is the parent itself.
 *
 * @param parent - the parent subaccount number, 0 to 127.
 * @param k - the child index, an integer from 0 while the result stays at most
 * {@link MAX_SUBACCOUNT_NUMBER} (so up to 1000 for parent 0 and 999 for the others).
 * @returns the child's subaccount number.
 * @throws {InvalidSubaccountError} `not-an-integer` or `out-of-range` for `parent` or `k`.
 *
 * @example
 * ```ts
 * childSubaccountNumber(3, 2); // 259
 * ```
 */
export function childSubaccountNumber(parent: number, k: number): number {
  checkInteger(parent, MAX_PARENT_SUBACCOUNT_NUMBER, "a parent subaccount number");
  const maxK = Math.floor((MAX_SUBACCOUNT_NUMBER - parent) / CHILD_SUBACCOUNT_STRIDE);
  checkInteger(k, maxK, `the child index of parent ${parent}`);
  return parent + CHILD_SUBACCOUNT_STRIDE * k;
}

/** Canonical decimal text of a subaccount number: digits only, no sign, no leading zeros. */
const NUMBER_TEXT = /^(0|[1-9][0-9]*)$/;

/**
 * Reads a subaccount id in its text form `{address}/{number}`, as used by the indexer's
 * `v4_subaccounts` channel. The owner may be a `0x` address or bech32 with `options.prefix`, and
 * is returned in bech32; the number is plain decimal (no sign, no leading zeros, no spaces).
 *
 * @param text - the subaccount id, like `perpx1.../0`.
 * @param options - `prefix`: the bech32 prefix the owner must carry and is returned with.
 * @returns the owner (bech32) and the subaccount number.
 * @throws {InvalidSubaccountError} `bad-format`, `bad-owner` (with the {@link InvalidAddressError}
 * as `cause`), or `out-of-range`.
 * @throws {InvalidArgumentError} when `options.prefix` is not a valid bech32 prefix.
 *
 * @example
 * ```ts
 * parseSubaccountId("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed/128");
 * // { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 128 }
 * ```
 */
export function parseSubaccountId(text: string, options: AddressOptions = {}): SubaccountRef {
  if (typeof text !== "string") {
    throw new InvalidSubaccountError("bad-format", String(text), { problem: "expected a string" });
  }
  const slash = text.indexOf("/");
  if (slash === -1 || slash !== text.lastIndexOf("/")) {
    throw new InvalidSubaccountError("bad-format", text, {
      problem: 'expected "{address}/{number}" with exactly one "/"',
    });
  }
  const ownerText = text.slice(0, slash);
  const numberText = text.slice(slash + 1);
  if (!NUMBER_TEXT.test(numberText)) {
    throw new InvalidSubaccountError("bad-format", text, {
      problem: `the subaccount number ${quote(numberText)} is not plain decimal digits without leading zeros`,
    });
  }
  const owner = parseOwner(ownerText, text, options);
  const number = Number(numberText);
  if (number > MAX_SUBACCOUNT_NUMBER) {
    throw new InvalidSubaccountError("out-of-range", text, {
      problem: `a subaccount number must be between 0 and ${MAX_SUBACCOUNT_NUMBER}, got ${numberText}`,
    });
  }
  return { owner, number };
}

/**
 * Writes a subaccount id in its text form `{address}/{number}`, with the owner in bech32.
 *
 * @param ref - the owner (`0x` or bech32 with `options.prefix`) and the subaccount number.
 * @param options - `prefix`: the bech32 prefix the owner must carry and is written with.
 * @returns the subaccount id, like `perpx1.../0`.
 * @throws {InvalidSubaccountError} `bad-owner` (with the {@link InvalidAddressError} as `cause`),
 * `not-an-integer` or `out-of-range`.
 * @throws {InvalidArgumentError} when `options.prefix` is not a valid bech32 prefix.
 *
 * @example
 * ```ts
 * formatSubaccountId({ owner: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", number: 0 });
 * // "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c/0"
 * ```
 */
export function formatSubaccountId(ref: SubaccountRef, options: AddressOptions = {}): string {
  if (typeof ref !== "object" || ref === null) {
    throw new InvalidSubaccountError("bad-format", String(ref), { problem: "expected { owner, number }" });
  }
  const number = validateSubaccountNumber(ref.number);
  const owner = parseOwner(ref.owner, `${String(ref.owner)}/${String(ref.number)}`, options);
  return `${owner}/${number}`;
}

/** The owner in bech32, or an InvalidSubaccountError caused by the InvalidAddressError. */
function parseOwner(owner: string, input: string, options: AddressOptions): string {
  let parsed: string;
  try {
    parsed = parseAddress(owner, options).bech32;
  } catch (error) {
    if (isInvalidAddressError(error)) {
      throw new InvalidSubaccountError("bad-owner", input, { problem: error.shortMessage, cause: error });
    }
    throw error;
  }
  return parsed;
}
