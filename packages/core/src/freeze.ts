/**
 * Freezes a value and everything reachable from it (plain objects and arrays), so shared presets
 * cannot be changed by one user for all. Internal; call sites are marked pure for tree-shaking.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}
