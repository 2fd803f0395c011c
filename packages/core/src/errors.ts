import { errorGuard, PerpxError, type PerpxErrorOptions, redactSecrets } from "@perpx/errors";

/**
 * Why a trading credential was refused.
 *
 * - `base64`: the text is not base64 (standard or URL-safe alphabet).
 * - `json`: the decoded bytes are not UTF-8 JSON.
 * - `shape`: the JSON is not an object with a string `masterAddress` and an optional string
 *   `tradingPrivateKey`.
 * - `hex`: `tradingPrivateKey` is not hexadecimal (an optional `0x` prefix is allowed).
 * - `key-length`: `tradingPrivateKey` is not 32 bytes.
 * - `key-range`: `tradingPrivateKey` is 0 or not below the secp256k1 group order.
 * - `address`: `masterAddress` is not a `perpx1...` account address.
 *
 * @example
 * ```ts
 * try {
 *   decodeCredential("not base64!");
 * } catch (error) {
 *   isInvalidCredentialError(error) && error.reason; // "base64"
 * }
 * ```
 */
export type InvalidCredentialReason =
  | "base64"
  | "json"
  | "shape"
  | "hex"
  | "key-length"
  | "key-range"
  | "address";

/**
 * A trading credential that is not base64 JSON of the documented shape. The message never contains
 * the credential or its private key; `reason` says which check failed.
 *
 * @example
 * ```ts
 * import { decodeCredential, isInvalidCredentialError } from "@perpx/core";
 *
 * try {
 *   decodeCredential("not base64!");
 * } catch (error) {
 *   if (isInvalidCredentialError(error)) console.log(error.reason); // "base64"
 * }
 * ```
 */
export class InvalidCredentialError extends PerpxError {
  override name = "InvalidCredentialError";
  /** Which check the credential failed. */
  readonly reason: InvalidCredentialReason;

  /**
   * @param reason - which check failed.
   * @param problem - what was wrong, in words; must not contain the credential or its key.
   * @param options - details, docs path and meta lines (no cause that could carry the secret).
   */
  constructor(reason: InvalidCredentialReason, problem: string, options: PerpxErrorOptions = {}) {
    super("INVALID_CREDENTIAL", `Invalid trading credential: ${problem}`, {
      docsPath: "/core/credentials",
      ...options,
    });
    this.reason = reason;
  }
}

/**
 * True when `value` is an {@link InvalidCredentialError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * try {
 *   decodeCredential("not base64!");
 * } catch (error) {
 *   isInvalidCredentialError(error); // true
 * }
 * ```
 */
export const isInvalidCredentialError = errorGuard<InvalidCredentialError>("InvalidCredentialError");

/**
 * Which kind of amount an {@link InvalidAmountError} is about.
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * try {
 *   sizeToQuantums("0.00015", btc);
 * } catch (error) {
 *   isInvalidAmountError(error) && error.kind; // "size"
 * }
 * ```
 */
export type AmountKind = "size" | "price" | "amount";

/**
 * Why an amount was refused.
 *
 * - `not-a-decimal`: not a finite decimal string or `Decimal` (JS numbers are refused too).
 * - `not-positive`: zero or negative where a positive value is needed.
 * - `below-minimum`: positive but below one step (size) or one tick (price), or it would round to 0.
 * - `off-grid`: not a multiple of the step, tick or base unit, under the `"exact"` policy.
 * - `out-of-range`: too large for the chain's integer type (uint64).
 *
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * try {
 *   sizeToQuantums("0.00015", btc);
 * } catch (error) {
 *   isInvalidAmountError(error) && error.reason; // "off-grid"
 * }
 * ```
 */
export type InvalidAmountReason =
  | "not-a-decimal"
  | "not-positive"
  | "below-minimum"
  | "off-grid"
  | "out-of-range";

/**
 * Fields of an {@link InvalidAmountError}.
 *
 * @example
 * ```ts
 * const error = new InvalidAmountError({
 *   kind: "size",
 *   value: "0.00015",
 *   reason: "off-grid",
 *   problem: "not a multiple of the step 0.0001",
 *   nearest: ["0.0001", "0.0002"],
 * });
 * error.nearest; // ["0.0001", "0.0002"]
 * ```
 */
export interface InvalidAmountErrorParameters {
  /** Which kind of amount. */
  kind: AmountKind;
  /** The value as given (a decimal string; `String(value)` for anything else). */
  value: string;
  /** Why it was refused. */
  reason: InvalidAmountReason;
  /** What was wrong, in words. */
  problem: string;
  /** The valid values nearest to `value`, in human units, ascending (empty when there are none). */
  nearest?: readonly string[];
}

/**
 * A price, size or amount that does not convert exactly under the requested rounding policy. It
 * names the value and, when there are any, the nearest valid values.
 *
 * @example
 * ```ts
 * import { isInvalidAmountError, sizeToQuantums } from "@perpx/core";
 *
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000n };
 * try {
 *   sizeToQuantums("0.00015", btc);
 * } catch (error) {
 *   if (isInvalidAmountError(error)) console.log(error.nearest); // ["0.0001", "0.0002"]
 * }
 * ```
 */
export class InvalidAmountError extends PerpxError {
  override name = "InvalidAmountError";
  /** Which kind of amount was refused. */
  readonly kind: AmountKind;
  /** The value as given, with any secret in it (a key, a mnemonic) replaced by `[redacted]`. */
  readonly value: string;
  /** Why it was refused. */
  readonly reason: InvalidAmountReason;
  /** The valid values nearest to `value`, in human units, ascending. */
  readonly nearest: readonly string[];

  /**
   * @param parameters - kind, value, reason, problem and nearest valid values.
   * @param options - cause, details and meta lines (shown after the nearest valid values), and a
   *   docs path in place of the conversions guide.
   */
  constructor(parameters: InvalidAmountErrorParameters, options: PerpxErrorOptions = {}) {
    const nearest = parameters.nearest ?? [];
    const value = redactSecrets(parameters.value);
    const hint =
      nearest.length === 0
        ? []
        : [`Nearest valid ${parameters.kind}${nearest.length > 1 ? "s" : ""}: ${nearest.join(" and ")}`];
    super("INVALID_AMOUNT", `Invalid ${parameters.kind} ${value}: ${parameters.problem}`, {
      metaMessages: [...hint, ...(options.metaMessages ?? [])],
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      ...(options.details === undefined ? {} : { details: options.details }),
      docsPath: options.docsPath ?? "/core/conversions",
    });
    this.kind = parameters.kind;
    this.value = value;
    this.reason = parameters.reason;
    this.nearest = nearest;
  }
}

/**
 * True when `value` is an {@link InvalidAmountError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * const btc = { atomicResolution: -10, quantumConversionExponent: -9, stepBaseQuantums: 1_000_000n, subticksPerTick: 100_000 };
 * try {
 *   sizeToQuantums("0.00015", btc);
 * } catch (error) {
 *   isInvalidAmountError(error) && error.nearest; // ["0.0001", "0.0002"]
 * }
 * ```
 */
export const isInvalidAmountError = errorGuard<InvalidAmountError>("InvalidAmountError");

/**
 * One endpoint left unset, as {@link MissingEndpointError} lists it.
 *
 * @example
 * ```ts
 * const missing: MissingEndpoint = { endpoint: "indexer", envVar: "PERPX_INDEXER_URL", required: true };
 * ```
 */
export interface MissingEndpoint {
  /** The endpoint's name, e.g. `"indexer"`. */
  readonly endpoint: string;
  /** The environment variable that configures it, e.g. `"PERPX_INDEXER_URL"`. */
  readonly envVar: string;
  /** Whether the network is refused without it (see core's `ENDPOINT_VARIABLES`). */
  readonly required: boolean;
}

/**
 * Options of {@link MissingEndpointError}: the error options, and every endpoint a network lacks.
 *
 * @example
 * ```ts
 * const options: MissingEndpointErrorOptions = { missing: [{ endpoint: "nodeRpc", envVar: "PERPX_NODE_RPC_URL", required: true }] };
 * ```
 */
export interface MissingEndpointErrorOptions extends PerpxErrorOptions {
  /** Every endpoint left unset, required and optional. @default only `endpoint`, as required */
  missing?: readonly MissingEndpoint[];
}

const listMissing = (missing: readonly MissingEndpoint[]) =>
  missing.map((m) => `${m.envVar} (${m.endpoint})`).join(", ");

/**
 * An endpoint a call needs that neither the caller nor the environment configured; from
 * `resolveNetwork({ requireEndpoints: true })`, every endpoint of the network left unset at once
 * (`missing`), the required ones named in the message first.
 *
 * @example
 * ```ts
 * import { getEndpoint, isMissingEndpointError, resolveNetwork } from "@perpx/core";
 *
 * try {
 *   getEndpoint(resolveNetwork({ network: "mainnet", env: {} }), "indexer");
 * } catch (error) {
 *   if (isMissingEndpointError(error)) console.log(error.envVar); // "PERPX_INDEXER_URL"
 * }
 * ```
 */
export class MissingEndpointError extends PerpxError {
  override name = "MissingEndpointError";
  /** The endpoint that was asked for (the first required one missing), e.g. `"indexer"`. */
  readonly endpoint: string;
  /** The environment variable that would have configured it, e.g. `"PERPX_INDEXER_URL"`. */
  readonly envVar: string;
  /** The network preset it was asked on. */
  readonly network: string;
  /** Every endpoint left unset, required and optional (just `endpoint` when one call asked). */
  readonly missing: readonly MissingEndpoint[];

  /**
   * @param endpoint - the endpoint's name.
   * @param envVar - the environment variable that configures it.
   * @param network - the network preset's name.
   * @param options - error options and `missing`, every endpoint left unset.
   */
  constructor(endpoint: string, envVar: string, network: string, options: MissingEndpointErrorOptions = {}) {
    const { missing = [{ endpoint, envVar, required: true }], ...rest } = options;
    const required = missing.filter((m) => m.required);
    const optional = missing.filter((m) => !m.required);
    const short =
      required.length > 1
        ? `No ${required.map((m) => m.endpoint).join(", ")} endpoints are configured for ${network}`
        : `No ${endpoint} endpoint is configured for ${network}`;
    const meta =
      missing.length > 1
        ? [
            `Required, set each: ${listMissing(required)}.`,
            ...(optional.length ? [`Optional, not set: ${listMissing(optional)}.`] : []),
            `Or pass them as endpoints.<name>. A commented template of every variable: envTemplate(${JSON.stringify(network)}) of @perpx/core (@perpx/core/env/${network}.env.example).`,
          ]
        : [`Pass endpoints.${endpoint} or set the environment variable ${envVar}.`];
    super("MISSING_ENDPOINT", short, { metaMessages: meta, docsPath: "/core/networks", ...rest });
    this.endpoint = endpoint;
    this.envVar = envVar;
    this.network = network;
    this.missing = missing;
  }
}

/**
 * True when `value` is a {@link MissingEndpointError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * try {
 *   getEndpoint(resolveNetwork({ network: "mainnet", env: {} }), "indexer");
 * } catch (error) {
 *   isMissingEndpointError(error) && error.envVar; // "PERPX_INDEXER_URL"
 * }
 * ```
 */
export const isMissingEndpointError = errorGuard<MissingEndpointError>("MissingEndpointError");

/**
 * A network preset name that does not exist.
 *
 * @example
 * ```ts
 * import { getNetwork, isUnknownNetworkError } from "@perpx/core";
 *
 * try {
 *   getNetwork("devnet");
 * } catch (error) {
 *   if (isUnknownNetworkError(error)) console.log(error.known); // ["mainnet", "testnet", "local"]
 * }
 * ```
 */
export class UnknownNetworkError extends PerpxError {
  override name = "UnknownNetworkError";
  /** The name that was asked for (any secret in it redacted). */
  readonly network: string;
  /** The preset names that exist. */
  readonly known: readonly string[];

  /**
   * @param network - the unknown name.
   * @param known - the names that exist.
   * @param source - where the name came from, e.g. `"PERPX_NETWORK"`, shown in the message.
   * @param options - cause and details; meta lines or a docs path given here replace the defaults.
   */
  constructor(network: string, known: readonly string[], source?: string, options: PerpxErrorOptions = {}) {
    super(
      "UNKNOWN_NETWORK",
      `Unknown network ${JSON.stringify(network)}${source ? ` (from ${source})` : ""}`,
      { metaMessages: [`Known networks: ${known.join(", ")}`], docsPath: "/core/networks", ...options },
    );
    this.network = redactSecrets(network);
    this.known = known;
  }
}

/**
 * True when `value` is an {@link UnknownNetworkError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * try {
 *   getNetwork("devnet");
 * } catch (error) {
 *   isUnknownNetworkError(error) && error.known; // ["mainnet", "testnet", "local"]
 * }
 * ```
 */
export const isUnknownNetworkError = errorGuard<UnknownNetworkError>("UnknownNetworkError");

/**
 * An order that cannot be placed as given (size, price, time in force, expiry...). Thrown by the
 * order builders of the client packages before anything is signed.
 *
 * @example
 * ```ts
 * const error = new InvalidOrderError("goodTilBlock", "must be within 40 blocks of the next height");
 * error.field; // "goodTilBlock"
 * error.shortMessage; // "Invalid order goodTilBlock: must be within 40 blocks of the next height"
 * ```
 */
export class InvalidOrderError extends PerpxError {
  override name = "InvalidOrderError";
  /** The order field that was wrong, e.g. `"goodTilBlock"`. */
  readonly field: string;

  /**
   * @param field - the order field that was wrong.
   * @param problem - what was wrong with it.
   * @param options - cause (an {@link InvalidAmountError}, say), details and meta lines.
   */
  constructor(field: string, problem: string, options: PerpxErrorOptions = {}) {
    super("INVALID_ORDER", `Invalid order ${field}: ${problem}`, options);
    this.field = field;
  }
}

/**
 * True when `value` is an {@link InvalidOrderError}.
 *
 * @param value - anything, typically a caught error.
 * @returns `true` when `value` is that error or one of its subclasses; the test is by class
 *   name, so it holds across copies of the package where `instanceof` fails.
 * @example
 * ```ts
 * isInvalidOrderError(new InvalidOrderError("goodTilBlock", "must be within 40 blocks of the next height")); // true
 * ```
 */
export const isInvalidOrderError = errorGuard<InvalidOrderError>("InvalidOrderError");
