/**
 * Which full store keys (`"<module>/<key>"`) the modules keep in memory only ({@link volatileKeys},
 * from each module's `Module.volatileKey`).
 */
import type { Module } from "./module.js";

/**
 * The volatile keys of a module list as full store keys (`"<module>/<key>"`), for the root store
 * (see {@link Module.volatileKey}).
 */
export function volatileKeys(modules: readonly Module[]): (key: string) => boolean {
  let predicate = predicates.get(modules);
  if (predicate === undefined) {
    predicate = volatilePredicate(modules);
    predicates.set(modules, predicate);
  }
  return predicate;
}

/** The predicate of each module list: the root store and every CheckTx state share one, and its memo. */
const predicates = new WeakMap<readonly Module[], (key: string) => boolean>();

/** How many keys a {@link volatileKeys} predicate remembers (bounded: emptied when full). */
const REMEMBERED_KEYS = 16_384;

function volatilePredicate(modules: readonly Module[]): (key: string) => boolean {
  const byName = new Map<string, (key: string) => boolean>();
  for (const module of modules) {
    const volatileKey = module.volatileKey;
    if (volatileKey !== undefined) byName.set(module.name, (key) => volatileKey.call(module, key));
  }
  if (byName.size === 0) return () => false;
  // The answer for a key never changes (see `Module.volatileKey`), and a write asks for it twice
  // (the CheckTx state, then the root store): remember the recent answers.
  const known = new Map<string, boolean>();
  return (key) => {
    const answer = known.get(key);
    if (answer !== undefined) return answer;
    const slash = key.indexOf("/");
    const volatile = slash > 0 && byName.get(key.slice(0, slash))?.(key.slice(slash + 1)) === true;
    if (known.size >= REMEMBERED_KEYS) known.clear();
    known.set(key, volatile);
    return volatile;
  };
}
