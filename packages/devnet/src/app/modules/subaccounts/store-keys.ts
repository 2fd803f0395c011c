/**
 * The store keys of subaccounts (see `keeper.ts`: `usdc/<owner hex20>/<number:10>` and the
 * positions under `pos/<owner hex20>/<number:10>/`), spelled once per subaccount and kept: a fill
 * reads and writes the same two subaccounts' keys again and again.
 */
import { ownerAddressKey } from "../owner-keys.js";
import { padKey } from "../records.js";

/** A subaccount id (`SubaccountRef` of `keeper.ts`). */
interface SubaccountId {
  readonly owner: string;
  readonly number: number;
}

/** The store-key spelling of a subaccount: `<owner hex20>/<number:10>`. */
const refKey = (id: SubaccountId) => `${ownerAddressKey(id.owner)}/${padKey(id.number, 10)}`;

/** A subaccount's store keys: its USDC key and the prefix of its positions' keys. */
export interface StoreKeys {
  readonly usdc: string;
  readonly positions: string;
}

/** The store keys of the subaccount whose {@link refKey} is `k`. */
export const keysAt = (k: string): StoreKeys => ({ usdc: `usdc/${k}`, positions: `pos/${k}/` });

/** Store keys of the subaccounts named lately (numbers below 1024), by owner then number. */
const storeKeys = new Map<string, StoreKeys[]>();
const KEPT_OWNERS = 4096;

/** The store keys of a subaccount, spelled once. @throws AbciError (sdk 7) for an invalid owner. */
export function storeKeysOf(id: SubaccountId): StoreKeys {
  let table = storeKeys.get(id.owner);
  const kept = table?.[id.number];
  if (kept !== undefined) return kept;
  const keys = keysAt(refKey(id));
  if (Number.isInteger(id.number) && id.number >= 0 && id.number < 1024) {
    if (table === undefined) {
      if (storeKeys.size >= KEPT_OWNERS) storeKeys.clear();
      table = [];
      storeKeys.set(id.owner, table);
    }
    table[id.number] = keys;
  }
  return keys;
}
