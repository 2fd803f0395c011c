/**
 * The store-key spelling of bech32 owners (`addressKey` of their 20 bytes: 40 hex digits), each
 * decoded and spelled once and kept: a fill names the same few owners in many keys (subaccounts,
 * fee-tier volumes, referrals), and spelling one afresh allocates a string per hex digit.
 */
import { accAddressBytes, addressKey } from "../lib/addresses.js";

/** Owners kept before the table is emptied (a devnet names far fewer). */
const KEPT_OWNERS = 4096;
/** Valid owners' spellings. */
const spellings = new Map<string, string>();

/**
 * `addressKey(accAddressBytes(owner))`, the same string each time.
 *
 * @throws AbciError (sdk 7) for an invalid owner, as `accAddressBytes` (nothing is kept then).
 */
export function ownerAddressKey(owner: string): string {
  let key = spellings.get(owner);
  if (key === undefined) {
    key = addressKey(accAddressBytes(owner));
    if (spellings.size >= KEPT_OWNERS) spellings.clear();
    spellings.set(owner, key);
  }
  return key;
}
