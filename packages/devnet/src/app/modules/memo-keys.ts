/**
 * Spellings of {@link ReadMemo} keys, each made once and kept: a key concatenated afresh at every
 * lookup is flattened and hashed by the memo's map each time, while a kept one carries its hash.
 * A fill's reads name the same few perpetuals, markets and subaccounts over and over.
 */

/** Ids below this are kept (perpetual, market, tier and pair ids; subaccount numbers). */
const KEPT_IDS = 1024;
/** Owners kept per prefix before the table is emptied (a devnet names far fewer). */
const KEPT_OWNERS = 4096;

/** `prefix/id` by prefix, indexed by id. */
const byId = new Map<string, string[]>();
/** `prefix/owner/number` by prefix and owner, indexed by number. */
const byOwner = new Map<string, Map<string, string[]>>();

/** `${prefix}/${id}`, the same string each time for a small non-negative integer id. */
export function idKey(prefix: string, id: number): string {
  if (!(id >= 0 && id < KEPT_IDS && Number.isInteger(id))) return `${prefix}/${id}`;
  let table = byId.get(prefix);
  if (table === undefined) {
    table = [];
    byId.set(prefix, table);
  }
  let key = table[id];
  if (key === undefined) {
    key = `${prefix}/${id}`;
    table[id] = key;
  }
  return key;
}

/** `${prefix}/${owner}/${number}`, the same string each time for a small non-negative integer number. */
export function ownerKey(prefix: string, owner: string, number: number): string {
  if (!(number >= 0 && number < KEPT_IDS && Number.isInteger(number))) return `${prefix}/${owner}/${number}`;
  let owners = byOwner.get(prefix);
  if (owners === undefined) {
    owners = new Map();
    byOwner.set(prefix, owners);
  }
  let table = owners.get(owner);
  if (table === undefined) {
    if (owners.size >= KEPT_OWNERS) owners.clear();
    table = [];
    owners.set(owner, table);
  }
  let key = table[number];
  if (key === undefined) {
    key = `${prefix}/${owner}/${number}`;
    table[number] = key;
  }
  return key;
}
