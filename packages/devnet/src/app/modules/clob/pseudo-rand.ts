/**
 * The pseudo-random numbers of the reference chain's clob: `GetPseudoRand` is Go's `math/rand`
 * (`rand.New(rand.NewSource(seed))`) seeded with the previous block's Unix time in seconds, and a
 * fresh generator is made for each use, so each draw is the first `Intn(n)` of that seed. The
 * liquidation pass draws its offsets from it (which liquidatable subaccount comes first, which of
 * its positions, which offsetting subaccount a deleveraging starts from).
 *
 * Go's generator is an additive lagged Fibonacci generator (lags 607 and 273, modulo 2^64) whose
 * seeding XORs a Park–Miller sequence of the seed into a fixed table, `rngCooked`: the state of the
 * same generator after 7.8e12 steps from its own seeding with 1 (`gen_cooked.go`). We compute that
 * table once, when first needed, by jumping ahead: the state after N steps is z^N modulo the
 * characteristic polynomial z^607 − z^334 − 1 applied to the starting state. Only the low 63 bits
 * take part in every output (`Int63` masks the sum), so the arithmetic is modulo 2^63, in three
 * 21-bit limbs per coefficient held in doubles (every sum stays below 2^53).
 */

const LEN = 607;
const TAP = 273;
/** Go's seeding: the feed index starts this far from the tap. */
const FEED = LEN - TAP;
const LIMB = 2 ** 21;
const MASK63 = (1n << 63n) - 1n;
/** 2^31 − 1: the modulus of the seeding sequence. */
const INT32_MAX = 2_147_483_647;
/** The steps `gen_cooked.go` runs before it prints the table. */
const COOKED_STEPS = 7_800_000_000_000n;

/** One step of the seeding sequence x → 48271·x mod (2^31 − 1), as Go computes it (Schrage). */
function seedStep(x: number): number {
  const hi = Math.trunc(x / 44_488);
  const lo = x % 44_488;
  const next = 48_271 * lo - 3_399 * hi;
  return next < 0 ? next + INT32_MAX : next;
}

/** The state `gen_cooked.go` starts from (its `srand(1)`), modulo 2^63. */
function cookedStart(): bigint[] {
  const vec: bigint[] = [];
  let x = 1;
  for (let i = -20; i < LEN; i++) {
    x = seedStep(x);
    if (i < 0) continue;
    let u = BigInt(x) << 20n;
    x = seedStep(x);
    u ^= BigInt(x) << 10n;
    x = seedStep(x);
    u ^= BigInt(x);
    vec.push(u & MASK63);
  }
  return vec;
}

/** Normalizes limb sums (each below 2^53) into coefficient `k` of `out`, modulo 2^63. */
function normalize(out: Float64Array, k: number, s0: number, s1: number, s2: number): void {
  const l0 = s0 % LIMB;
  const t1 = s1 + (s0 - l0) / LIMB;
  const l1 = t1 % LIMB;
  const t2 = s2 + (t1 - l1) / LIMB;
  out[3 * k] = l0;
  out[3 * k + 1] = l1;
  out[3 * k + 2] = t2 % LIMB;
}

/** Adds coefficient `from` of `poly` into coefficient `to`, modulo 2^63. */
function addCoefficient(poly: Float64Array, to: number, from: number): void {
  normalize(
    poly,
    to,
    (poly[3 * to] as number) + (poly[3 * from] as number),
    (poly[3 * to + 1] as number) + (poly[3 * from + 1] as number),
    (poly[3 * to + 2] as number) + (poly[3 * from + 2] as number),
  );
}

/** Reduces `poly` (degree up to `top`) modulo z^607 − z^334 − 1, in place; answers its first 607. */
function reduce(poly: Float64Array, top: number): Float64Array {
  for (let d = top; d >= LEN; d--) {
    addCoefficient(poly, d - TAP, d); // z^d = z^(d−273) + z^(d−607)
    addCoefficient(poly, d - LEN, d);
  }
  return poly.slice(0, 3 * LEN);
}

/** poly² modulo the characteristic polynomial. */
function square(poly: Float64Array): Float64Array {
  const size = 2 * LEN - 1;
  const s0 = new Float64Array(size);
  const s1 = new Float64Array(size);
  const s2 = new Float64Array(size);
  for (let i = 0; i < LEN; i++) {
    const a0 = poly[3 * i] as number;
    const a1 = poly[3 * i + 1] as number;
    const a2 = poly[3 * i + 2] as number;
    if (a0 === 0 && a1 === 0 && a2 === 0) continue;
    const k = 2 * i;
    s0[k] = (s0[k] as number) + a0 * a0;
    s1[k] = (s1[k] as number) + 2 * a0 * a1;
    s2[k] = (s2[k] as number) + 2 * a0 * a2 + a1 * a1;
    for (let j = i + 1; j < LEN; j++) {
      const b0 = poly[3 * j] as number;
      const b1 = poly[3 * j + 1] as number;
      const b2 = poly[3 * j + 2] as number;
      const m = i + j;
      s0[m] = (s0[m] as number) + 2 * a0 * b0;
      s1[m] = (s1[m] as number) + 2 * (a0 * b1 + a1 * b0);
      s2[m] = (s2[m] as number) + 2 * (a0 * b2 + a1 * b1 + a2 * b0);
    }
  }
  const out = new Float64Array(3 * size);
  for (let k = 0; k < size; k++) normalize(out, k, s0[k] as number, s1[k] as number, s2[k] as number);
  return reduce(out, size - 1);
}

/** poly · z modulo the characteristic polynomial. */
function timesZ(poly: Float64Array): Float64Array {
  const out = new Float64Array(3 * (LEN + 1));
  out.set(poly, 3);
  return reduce(out, LEN);
}

/** Σ poly_i · values_i modulo 2^63. */
function apply(poly: Float64Array, values: readonly bigint[]): bigint {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < LEN; i++) {
    const v = values[i] as bigint;
    const v0 = Number(v & 0x1fffffn);
    const v1 = Number((v >> 21n) & 0x1fffffn);
    const v2 = Number(v >> 42n);
    const a0 = poly[3 * i] as number;
    const a1 = poly[3 * i + 1] as number;
    const a2 = poly[3 * i + 2] as number;
    s0 += a0 * v0;
    s1 += a0 * v1 + a1 * v0;
    s2 += a0 * v2 + a1 * v1 + a2 * v0;
  }
  const out = new Float64Array(3);
  normalize(out, 0, s0, s1, s2);
  return BigInt(out[0] as number) + (BigInt(out[1] as number) << 21n) + (BigInt(out[2] as number) << 42n);
}

let cookedTable: readonly bigint[] | undefined;

/**
 * Go's `rngCooked` modulo 2^63. The sequence written by the generator obeys
 * y(k) = y(k − 607) + y(k − 273); its starting state holds y(−606..0), y(j) at index (334 − j) mod
 * 607, and after N steps index p holds the latest y(m) with m ≡ 334 − p (mod 607).
 */
function cooked(): readonly bigint[] {
  if (cookedTable !== undefined) return cookedTable;
  const start = cookedStart();
  const base: bigint[] = [];
  for (let i = 0; i < LEN; i++) base.push(start[(((FEED - (i - 606)) % LEN) + LEN) % LEN] as bigint);
  let power: Float64Array = new Float64Array(3 * LEN);
  power[0] = 1;
  for (const bit of COOKED_STEPS.toString(2)) {
    power = square(power);
    if (bit === "1") power = timesZ(power);
  }
  const table: bigint[] = new Array(LEN).fill(0n);
  // power = z^e gives y(e − 606); e runs over N..N+606, so m = e − 606 over N−606..N.
  for (let m = COOKED_STEPS - 606n; m <= COOKED_STEPS; m++) {
    const index = Number((((BigInt(FEED) - m) % 607n) + 607n) % 607n);
    table[index] = apply(power, base);
    power = timesZ(power);
  }
  cookedTable = table;
  return table;
}

/**
 * Go's `rand.New(rand.NewSource(seed))`: the same numbers for the same seed (`Int63`, `Int31`,
 * `Intn`).
 */
export class GoRand {
  readonly #vec: bigint[] = [];
  #tap = 0;
  #feed = FEED;

  /** @param seed - the seed (Go reduces it modulo 2^31 − 1; 0 becomes 89482311). */
  constructor(seed: bigint) {
    let reduced = seed % BigInt(INT32_MAX);
    if (reduced < 0n) reduced += BigInt(INT32_MAX);
    if (reduced === 0n) reduced = 89_482_311n;
    const table = cooked();
    let x = Number(reduced);
    for (let i = -20; i < LEN; i++) {
      x = seedStep(x);
      if (i < 0) continue;
      let u = BigInt(x) << 40n;
      x = seedStep(x);
      u ^= BigInt(x) << 20n;
      x = seedStep(x);
      u ^= BigInt(x);
      this.#vec.push((u ^ (table[i] as bigint)) & MASK63);
    }
  }

  /** The next non-negative 63-bit number (Go's `Int63`). */
  int63(): bigint {
    this.#tap = this.#tap === 0 ? LEN - 1 : this.#tap - 1;
    this.#feed = this.#feed === 0 ? LEN - 1 : this.#feed - 1;
    const value = ((this.#vec[this.#feed] as bigint) + (this.#vec[this.#tap] as bigint)) & MASK63;
    this.#vec[this.#feed] = value;
    return value;
  }

  /** The next non-negative 31-bit number (Go's `Int31`: the top bits of `Int63`). */
  int31(): number {
    return Number(this.int63() >> 32n);
  }

  /**
   * A number in [0, n) (Go's `Intn` for n below 2^31: `Int31n`, masking for a power of two,
   * rejecting the top partial range otherwise).
   *
   * @throws RangeError when n is not an integer in [1, 2^31 − 1].
   */
  intn(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > INT32_MAX)
      throw new RangeError(`invalid argument to Intn: ${n}`);
    if ((n & (n - 1)) === 0) return this.int31() & (n - 1);
    const max = INT32_MAX - (2 ** 31 % n);
    let v = this.int31();
    while (v > max) v = this.int31();
    return v % n;
  }
}

/** The draws of the latest block second, by n (a pass draws many times from one seed). */
const draws = { seconds: -1n, byN: new Map<number, number>() };

/**
 * The chain's `GetPseudoRand(ctx).Intn(n)` after a block: a fresh generator seeded with that
 * block's Unix time in seconds.
 */
export function blockIntn(blockTimeMs: bigint, n: number): number {
  if (n === 1) return 0; // Intn(1) masks every draw to 0: no need for the generator
  const seconds = blockTimeMs / 1000n;
  if (draws.seconds !== seconds) {
    draws.seconds = seconds;
    draws.byN.clear();
  }
  let value = draws.byN.get(n);
  if (value === undefined) {
    value = new GoRand(seconds).intn(n);
    draws.byN.set(n, value);
  }
  return value;
}
