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

/** The predicate of each module list: the root store and every CheckTx state share one. */
const predicates = new WeakMap<readonly Module[], (key: string) => boolean>();

function volatilePredicate(modules: readonly Module[]): (key: string) => boolean {
  const byName = new Map<string, (key: string) => boolean>();
  for (const module of modules) {
    const volatileKey = module.volatileKey;
    if (volatileKey !== undefined) byName.set(module.name, (key) => volatileKey.call(module, key));
  }
  if (byName.size === 0) return () => false;
  // The answer for a key never changes (see `Module.volatileKey`), and a write through the CheckTx
  // state asks for the same key twice in a row (the CheckTx state, then the root store): the last
  // answer is kept (one key only, so the heap stays flat).
  let lastKey: string | undefined;
  let lastAnswer = false;
  return (key) => {
    if (key === lastKey) return lastAnswer;
    const slash = key.indexOf("/");
    lastAnswer = slash > 0 && byName.get(key.slice(0, slash))?.(key.slice(slash + 1)) === true;
    lastKey = key;
    return lastAnswer;
  };
}
