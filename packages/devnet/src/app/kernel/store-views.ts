/**
 * The views of a store a module reads and writes through:
 *
 * - {@link GasStore}: charges a {@link GasMeter} for every access (see {@link GasConfig}).
 * - {@link PrefixStore}: a module's slice (`"bank/"`, `"auth/"`, ...), and {@link moduleSlices},
 *   each module's slice of a store made once.
 */

import { type GasConfig, type GasMeter, type PerByteCosts, perByte, perByteCosts } from "./gas.js";
import type { KvStore, RangeOptions } from "./store.js";

/** A view of a store that charges gas for every access. */
export class GasStore implements KvStore {
  private readonly readPerByte: PerByteCosts;
  private readonly writePerByte: PerByteCosts;

  constructor(
    private readonly parent: KvStore,
    private readonly meter: GasMeter,
    private readonly config: GasConfig,
  ) {
    const costs = perByteCosts(config);
    this.readPerByte = costs.read;
    this.writePerByte = costs.write;
  }

  private chargeRead(key: string): void {
    this.meter.consume(this.config.readCostFlat, "ReadFlat");
    this.meter.consume(perByte(this.readPerByte, key.length), "ReadPerByte");
  }

  get(key: string): Uint8Array | undefined {
    this.chargeRead(key);
    return this.parent.get(key);
  }

  has(key: string): boolean {
    this.chargeRead(key);
    return this.parent.has(key);
  }

  set(key: string, value: Uint8Array): void {
    this.meter.consume(this.config.writeCostFlat, "WriteFlat");
    this.meter.consume(perByte(this.writePerByte, key.length + value.length), "WritePerByte");
    this.parent.set(key, value);
  }

  delete(key: string): void {
    this.meter.consume(this.config.deleteCost, "Delete");
    this.parent.delete(key);
  }

  *entries(prefix: string, options?: RangeOptions): Iterable<[string, Uint8Array]> {
    for (const entry of this.parent.entries(prefix, options)) {
      this.meter.consume(this.config.iterNextCostFlat, "IterNextFlat");
      this.meter.consume(perByte(this.readPerByte, entry[0].length), "IterNextPerByte");
      yield entry;
    }
  }
}

/**
 * `key`, flattened in place: a key built by concatenation is a rope (a V8 cons string), which every
 * `Map` of the layers below would hash through a temporary copy and compare piece by piece. Reading
 * a character of a rope makes V8 flatten it, once, for all of them.
 */
function flat(key: string): string {
  key.charCodeAt(0);
  return key;
}

/** A module's slice of a store: every key is stored under `prefix`; keys it returns have it removed. */
export class PrefixStore implements KvStore {
  constructor(
    private readonly parent: KvStore,
    private readonly prefix: string,
  ) {}

  get(key: string): Uint8Array | undefined {
    return this.parent.get(flat(this.prefix + key));
  }

  has(key: string): boolean {
    return this.parent.has(flat(this.prefix + key));
  }

  set(key: string, value: Uint8Array): void {
    this.parent.set(flat(this.prefix + key), value);
  }

  delete(key: string): void {
    this.parent.delete(flat(this.prefix + key));
  }

  *entries(prefix: string, options?: RangeOptions): Iterable<[string, Uint8Array]> {
    const range: RangeOptions = {};
    if (options?.reverse !== undefined) range.reverse = options.reverse;
    if (options?.start !== undefined) range.start = this.prefix + options.start;
    if (options?.end !== undefined) range.end = this.prefix + options.end;
    const cut = this.prefix.length;
    for (const [key, value] of this.parent.entries(this.prefix + prefix, range)) {
      yield [key.slice(cut), value];
    }
  }
}

/**
 * The module slices of `kv`: `name`'s is the {@link PrefixStore} under `name/`, made at its first
 * use and kept (a reader touches a few modules).
 */
export function moduleSlices(kv: KvStore): (name: string) => KvStore {
  const slices = new Map<string, KvStore>();
  return (name) => {
    let slice = slices.get(name);
    if (slice === undefined) {
      slice = new PrefixStore(kv, `${name}/`);
      slices.set(name, slice);
    }
    return slice;
  };
}
