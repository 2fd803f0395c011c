/**
 * A {@link KvStore} over a context's module slices (`"<module>/<key>"` goes to
 * `ctx.store(module)`), so a block hook can branch its work with a `CacheStore` and drop it when a
 * step fails (a triggered conditional order that cannot be placed changes nothing).
 */

import { DevnetError } from "../../../devnet-error.js";
import { type Context, createContext } from "../../kernel/module.js";
import { CacheStore, type KvStore, type RangeOptions } from "../../kernel/store.js";
import { EventManager } from "../../lib/events.js";

function split(key: string): [string, string] {
  const slash = key.indexOf("/");
  if (slash < 0) throw new DevnetError("malformed", `key ${key} names no module slice`);
  return [key.slice(0, slash), key.slice(slash + 1)];
}

/** A store whose keys are `"<module>/<key>"`, read and written through `ctx.store(module)`. */
export class ContextKv implements KvStore {
  constructor(private readonly ctx: Context) {}

  get(key: string): Uint8Array | undefined {
    const [name, rest] = split(key);
    return this.ctx.store(name).get(rest);
  }

  has(key: string): boolean {
    const [name, rest] = split(key);
    return this.ctx.store(name).has(rest);
  }

  set(key: string, value: Uint8Array): void {
    const [name, rest] = split(key);
    this.ctx.store(name).set(rest, value);
  }

  delete(key: string): void {
    const [name, rest] = split(key);
    this.ctx.store(name).delete(rest);
  }

  *entries(prefix: string, options?: RangeOptions): Iterable<[string, Uint8Array]> {
    const [name, rest] = split(prefix);
    const range: RangeOptions = {};
    if (options?.reverse !== undefined) range.reverse = options.reverse;
    if (options?.start !== undefined) range.start = split(options.start)[1];
    if (options?.end !== undefined) range.end = split(options.end)[1];
    for (const [key, value] of this.ctx.store(name).entries(rest, range)) yield [`${name}/${key}`, value];
  }
}

/**
 * Runs `fn` in a branch of `ctx`: on success its writes and events join `ctx`; when it throws,
 * nothing of it stays and the error is returned.
 */
export function inBranch(ctx: Context, fn: (branch: Context) => void): unknown {
  const cache = new CacheStore(new ContextKv(ctx));
  const events = new EventManager();
  const branch = createContext({
    mode: ctx.mode,
    block: ctx.block,
    gasMeter: ctx.gasMeter,
    gasConfig: ctx.gasConfig,
    events,
    kv: cache,
  });
  try {
    fn(branch);
  } catch (error) {
    return error;
  }
  cache.write();
  ctx.events.absorb(events);
  return undefined;
}
