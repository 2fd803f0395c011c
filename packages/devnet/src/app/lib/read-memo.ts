/**
 * Lookups memoized over a span of store reads in which nothing is written (one collateral check,
 * or the checks of one fill): a perpetual, a price or a tier read and decoded once, however many
 * times the margin math asks for it. Gas stays exactly what the reads cost: a repeated lookup
 * charges the gas its first run charged, in one go, when that fits the meter's limit (then none of
 * the reads it stands for could have run out of gas); otherwise it runs again, so an out-of-gas
 * happens at the very read, with the very total, it happens at without the memo.
 */
import type { GasMeter } from "../kernel/gas.js";

interface Entry {
  readonly value: unknown;
  /** What the first run of the lookup charged the meter. */
  readonly gas: bigint;
}

/** The gas meter of a context, when it has one (a query context has none). */
function meterOf(ctx: object): GasMeter | undefined {
  return "gasMeter" in ctx ? (ctx as { gasMeter: GasMeter }).gasMeter : undefined;
}

/**
 * A memo of lookups over one context while nothing is written to it: drop it (make a new one) as
 * soon as anything may have been written.
 */
export class ReadMemo {
  private readonly entries = new Map<string, Entry>();
  private readonly meter: GasMeter | undefined;

  /** A memo over `ctx`'s store; repeats are charged to `ctx`'s gas meter (none for a query context). */
  constructor(ctx: object) {
    this.meter = meterOf(ctx);
  }

  /**
   * `lookup()`, run once per `key` (a lookup that throws is not kept: it runs again next time); a
   * repeat charges the gas the first run charged, or runs `lookup` again when that would pass the
   * meter's limit.
   */
  read<T>(key: string, lookup: () => T): T {
    const meter = this.meter;
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      if (meter === undefined) return hit.value as T;
      if (meter.limit === undefined || meter.consumed + hit.gas <= meter.limit) {
        if (hit.gas !== 0n) meter.consume(hit.gas, "ReadFlat");
        return hit.value as T;
      }
      return lookup();
    }
    const before = meter?.consumed ?? 0n;
    const value = lookup();
    this.entries.set(key, { value, gas: (meter?.consumed ?? 0n) - before });
    return value;
  }
}
