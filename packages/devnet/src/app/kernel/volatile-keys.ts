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
  // Each module that has volatile keys, by its slice's prefix ("<module>/": a module name holds no
  // slash, so a key's first slash ends at most one of them): a key is matched against each (a
  // handful at most) without cutting its module name out and looking it up.
  const slices: { readonly prefix: string; readonly volatileKey: (key: string) => boolean }[] = [];
  for (const module of modules) {
    const volatileKey = module.volatileKey;
    if (volatileKey !== undefined)
      slices.push({ prefix: `${module.name}/`, volatileKey: (key) => volatileKey.call(module, key) });
  }
  if (slices.length === 0) return () => false;
  // The answer for a key never changes (see `Module.volatileKey`), and a write through the CheckTx
  // state asks for the same key twice in a row (the CheckTx state, then the root store): the last
  // answer is kept (one key only, so the heap stays flat).
  let lastKey: string | undefined;
  let lastAnswer = false;
  return (key) => {
    if (key === lastKey) return lastAnswer;
    lastAnswer = false;
    for (const { prefix, volatileKey } of slices) {
      if (key.startsWith(prefix)) {
        lastAnswer = volatileKey(key.slice(prefix.length)) === true;
        break;
      }
    }
    lastKey = key;
    return lastAnswer;
  };
}
