/**
 * Deterministic gas metering. Every cost is a fixed function of what a tx carries and of the keys
 * and values it touches, so a simulation counts exactly what delivery will (see {@link GasConfig}).
 */
import { AbciError, sdkErrors } from "../lib/errors.js";

/**
 * The gas schedule. Values follow the Cosmos SDK defaults (`KVGasConfig`, `TxSizeCostPerByte`,
 * `SigVerifyCostSecp256k1`) where the SDK has one.
 *
 * Reads are charged by key length only (never by the value found, which may differ between a
 * simulation and delivery); writes by key and value length; modules keep values whose size depends
 * on unrelated state at a fixed width, so simulation and delivery write the same bytes.
 */
export interface GasConfig {
  /** Flat cost of a store read. @default 1000 */
  readonly readCostFlat: bigint;
  /** Cost per key byte of a store read. @default 3 */
  readonly readCostPerByte: bigint;
  /** Flat cost of a store write. @default 2000 */
  readonly writeCostFlat: bigint;
  /** Cost per key and value byte of a store write. @default 30 */
  readonly writeCostPerByte: bigint;
  /** Flat cost of a delete. @default 1000 */
  readonly deleteCost: bigint;
  /** Cost per entry visited by an iterator (plus the read cost of its key). @default 30 */
  readonly iterNextCostFlat: bigint;
  /** Cost per tx byte counted by {@link txSizeGas}. @default 10 */
  readonly txSizeCostPerByte: bigint;
  /** Auth-info bytes per signer covered by the per-signer allowance. @default 256 */
  readonly authInfoAllowancePerSigner: number;
  /** Fixed auth-info allowance of every tx (fee, tip). @default 128 */
  readonly authInfoAllowanceBase: number;
  /** Verifying a `/cosmos.crypto.secp256k1.PubKey` signature. @default 1000 */
  readonly sigVerifyCostSecp256k1: bigint;
  /** Verifying an eth_secp256k1 signature (cosmos/evm's cost). @default 21000 */
  readonly sigVerifyCostEthSecp256k1: bigint;
  /** Per signer: loading and saving its account (sequence or timestamp nonce). @default 10000 */
  readonly accountUpdateCost: bigint;
  /** Checking and deducting the fee, whatever it holds (also charged in simulation). @default 10000 */
  readonly feeDeductionCost: bigint;
}

/** The default gas schedule. */
export const defaultGasConfig: GasConfig = Object.freeze({
  readCostFlat: 1000n,
  readCostPerByte: 3n,
  writeCostFlat: 2000n,
  writeCostPerByte: 30n,
  deleteCost: 1000n,
  iterNextCostFlat: 30n,
  txSizeCostPerByte: 10n,
  authInfoAllowancePerSigner: 256,
  authInfoAllowanceBase: 128,
  sigVerifyCostSecp256k1: 1000n,
  sigVerifyCostEthSecp256k1: 21000n,
  accountUpdateCost: 10000n,
  feeDeductionCost: 10000n,
});

/**
 * Gas charged for a tx's size: the body bytes in full, the auth-info bytes beyond a fixed allowance
 * per signer, and nothing for the signatures. A simulated tx (empty fee, empty signatures) and the
 * signed tx built from it therefore pay the same, as long as the auth info stays within the
 * allowance (it always does for one coin of fee and a 33-byte key).
 */
export function txSizeGas(
  config: GasConfig,
  sizes: { bodyBytes: number; authInfoBytes: number; signers: number },
): bigint {
  const allowance = config.authInfoAllowanceBase + config.authInfoAllowancePerSigner * sizes.signers;
  const counted = sizes.bodyBytes + Math.max(0, sizes.authInfoBytes - allowance);
  return BigInt(counted) * config.txSizeCostPerByte;
}

/** Counts gas against a limit; throws sdk code 11 when the limit is passed. */
export interface GasMeter {
  /** Gas consumed so far (may exceed the limit once, as the SDK reports it). */
  readonly consumed: bigint;
  /** The limit, or undefined for an infinite meter. */
  readonly limit: bigint | undefined;
  /** Adds `amount`; throws {@link OutOfGasError} when the total passes the limit. */
  consume(amount: bigint, descriptor: string): void;
}

/** Thrown by {@link GasMeter.consume} when the limit is passed. */
export class OutOfGasError extends AbciError {
  override name = "AbciError";
  /** Where gas ran out ("txSize", "WriteFlat", ...). */
  readonly descriptor: string;

  constructor(descriptor: string) {
    super(sdkErrors.outOfGas, `out of gas in location: ${descriptor}`);
    this.descriptor = descriptor;
  }
}

/** A gas meter with a limit (`undefined`: infinite, counts without ever failing). */
export function createGasMeter(limit: bigint | undefined): GasMeter {
  return new LimitedGasMeter(limit);
}

/**
 * The meter of {@link createGasMeter}: a class (a literal with a getter is built by the slow path,
 * once per tx and context); `consumed` reads from outside through the read-only {@link GasMeter}.
 */
class LimitedGasMeter implements GasMeter {
  private total = 0n;

  constructor(readonly limit: bigint | undefined) {}

  get consumed(): bigint {
    return this.total;
  }

  consume(amount: bigint, descriptor: string): void {
    this.total += amount;
    if (this.limit !== undefined && this.total > this.limit) throw new OutOfGasError(descriptor);
  }
}

/** Byte counts below which {@link perByte} keeps the costs it works out. */
const KEPT_LENGTHS = 2048;

/** A per-byte cost times each byte count below {@link KEPT_LENGTHS}, filled on first use. */
export interface PerByteCosts {
  readonly cost: bigint;
  readonly byLength: (bigint | undefined)[];
}

/** The read and write per-byte costs of each gas config, by config (a config's fields are read-only). */
const costsOfConfig = new WeakMap<GasConfig, { read: PerByteCosts; write: PerByteCosts }>();

/** The read and write per-byte costs of `config`, with the products worked out so far. */
export function perByteCosts(config: GasConfig): { read: PerByteCosts; write: PerByteCosts } {
  let costs = costsOfConfig.get(config);
  if (costs === undefined) {
    costs = {
      read: { cost: config.readCostPerByte, byLength: new Array(KEPT_LENGTHS) },
      write: { cost: config.writeCostPerByte, byLength: new Array(KEPT_LENGTHS) },
    };
    costsOfConfig.set(config, costs);
  }
  return costs;
}

/** `costs.cost * length`, one BigInt product per byte count (metered keys come in a few lengths). */
export function perByte(costs: PerByteCosts, length: number): bigint {
  if (length >= KEPT_LENGTHS) return costs.cost * BigInt(length);
  let product = costs.byLength[length];
  if (product === undefined) {
    product = costs.cost * BigInt(length);
    costs.byLength[length] = product;
  }
  return product;
}
