/**
 * The errors our chain registers (codespace, code, root description), and named constants for the
 * codes a client branches on. A failure that reaches the client without its code (a simulation
 * answer carries only text over every transport) is identified by its root description, the text
 * every wrapped error log ends with.
 */

/**
 * Every error our chain registers, by codespace and code: the root description its logs end with
 * (`"<context>: <description>"`).
 *
 * @example
 * ```ts
 * CHAIN_ERRORS.wrap[7]; // "voucher does not back the local denom"
 * ```
 */
export const CHAIN_ERRORS = {
  sdk: {
    2: "tx parse error",
    3: "invalid sequence",
    4: "unauthorized",
    5: "insufficient funds",
    6: "unknown request",
    7: "invalid address",
    8: "invalid pubkey",
    9: "unknown address",
    10: "invalid coins",
    11: "out of gas",
    12: "memo too large",
    13: "insufficient fee",
    14: "maximum number of signatures exceeded",
    15: "no signatures supplied",
    18: "invalid request",
    19: "tx already in mempool",
    21: "tx too large",
    22: "key not found",
    26: "invalid height",
    28: "invalid chain-id",
    29: "invalid type",
    30: "tx timeout height",
    31: "unknown extension options",
    32: "incorrect account sequence",
    35: "internal logic error",
    37: "feature not supported",
    38: "not found",
    41: "invalid gas limit",
  },
  affiliates: {
    1: "Affiliate already exists for referee",
    3: "Invalid affiliate tier data",
    4: "invalid authority",
    5: "Invalid address",
    7: "Rev share safety violation",
    8: "Duplicate affiliate address for whitelist",
    9: "Affiliate tiers not set (affiliate program is not active)",
    10: "Self referral not allowed",
  },
  bank: {
    2: "no inputs to send transaction",
    3: "no outputs to send transaction",
    4: "sum inputs != sum outputs",
    5: "send transactions are disabled",
    6: "client denom metadata not found",
    7: "invalid key",
    8: "duplicate entry",
    9: "multiple senders not allowed",
  },
  bridge: {
    1: "invalid authority",
    2: "invalid event params",
    3: "bridging is disabled",
    4: "invalid bridge event",
    5: "unknown source chain",
    6: "invalid withdrawal",
    7: "message is injected by the chain",
  },
  channel: {
    3: "channel not found",
    6: "invalid channel state",
    8: "invalid packet timeout",
  },
  clob: {
    2: "Order does not exist in memclob",
    3: "Invalid order side",
    4: "Invalid order quantums",
    5: "Invalid order goodTilBlock",
    6: "Invalid order subticks",
    7: "Attempt to place an order that is already canceled",
    8: "ClobPair ID does not reference a valid CLOB",
    10: "The next block height is greater than the GoodTilBlock of the message",
    11: "The GoodTilBlock of the message is further than ShortBlockWindow blocks into the future",
    12: "MsgPlaceOrder is invalid",
    20: "An order with the same `OrderId` already exists for this CLOB with a greater-than-or-equal `GoodTilBlock` or Order Hash",
    24: "Order is fully filled",
    34: "Order conflicts with ClobPair status",
    46: "Batch cancel has failed",
    48: "This field has been deprecated",
    2001: "Reduce-only orders cannot increase the position size",
    2002: "Reduce-only orders cannot change the position side",
    2003: "Post-only order would cross one or more maker orders",
    2004: "IOC/FOK order is already filled, remaining size is cancelled.",
    3000: "Invalid order flags",
    3001: "Invalid order goodTilBlockTime",
    3002: "Stateful orders cannot require immediate execution",
    3003: "The block time is greater than the GoodTilBlockTime of the message",
    3004: "The GoodTilBlockTime of the message is further than StatefulOrderTimeWindow into the future",
    3005: "Existing stateful order has higher-or-equal priority than the new one",
    3006: "Stateful order does not exist",
    3007: "Stateful order collateralization check failed",
    5001: "Block rate limit exceeded",
    6000: "Conditional type is invalid",
    6001: "Conditional order trigger subticks is invalid",
    9003: "Reduce-only is currently disabled",
    10001: "Subaccount cannot open more orders due to equity tier limit.",
  },
  dydxaccountplus: {
    1: "Authenticator is not found",
    2: "Invalid account address",
    3: "Authenticator data exceeds maximum length",
    4: "Smart account is not active",
    5: "Error initializing authenticator",
    6: "The transaction has multiple signers",
    100: "signature verification failed",
    101: "message type verification failed",
    102: "clob pair id verification failed",
    103: "subaccount verification failed",
    104: "AllOf verification failed",
    105: "AnyOf verification failed",
  },
  feetiers: {
    400: "Must have at least one fee tier",
    401: "First fee tier must not have volume requirements",
    402: "Fee tiers must have ascending requirements",
    403: "No maker and taker fee combination should result in a net rebate",
    404: "Authority is invalid",
    406: "Invalid time range for market fee discount",
    407: "Market fee discount not found for the specified CLOB pair",
    408: "Invalid charge PPM value",
  },
  perpetuals: {
    1: "perpetual does not exist",
    2: "perpetual already exists",
    3: "invalid perpetual params",
    12: "invalid liquidity tier",
    13: "liquidity tier does not exist",
    14: "invalid authority",
    27: "open interest would become negative",
  },
  prices: {
    1: "invalid input",
    4: "market param does not exist",
    5: "market price does not exist",
    6: "market param already exists",
    20: "invalid authority",
  },
  ratelimit: {
    1001: "Authority is invalid",
    1002: "withdrawal amount would exceed rate-limit capacity",
    1003: "capacity list length does not match number of limiters",
    1004: "rate limit period should be positive",
    1005: "baseline_minimum should be positive",
    1006: "Baseline_tvl_ppm must in the range (0, 1_000_000)",
    1007: "Invalid input",
    2001: "daily withdrawal limit exceeded",
    2002: "no asset for denom",
  },
  sending: {
    1: "Sender is the same as recipient",
    2: "Invalid transfer amount",
    5: "Transfer does not contain all required fields",
    6: "Account address is invalid",
    8: "Authority is invalid",
    1101: "Non-USDC asset transfer not implemented",
  },
  subaccounts: {
    101: "multiple updates were specified for the same subaccountId",
    102: "failed to apply subaccount updates",
    201: "subaccount id owner is an invalid address",
    501: "asset transfer is not supported",
    700: "invalid leverage",
    701: "leverage exceeds maximum allowed",
    702: "initial margin ppm cannot be zero",
    703: "leverage violates margin requirements",
  },
  transfer: {
    3: "invalid token amount",
    4: "invalid denomination for cross-chain transfer",
  },
  wrap: {
    2: "invalid authority",
    3: "invalid wrap rule",
    4: "wrap rule not found",
    5: "invalid amount",
    6: "voucher denom is required",
    7: "voucher does not back the local denom",
    8: "insufficient voucher backing",
    9: "invalid timeout",
    10: "invalid receiver",
  },
} as const satisfies Record<string, Record<number, string>>;

/**
 * Codespaces of {@link CHAIN_ERRORS}.
 *
 * @example
 * ```ts
 * const codespace: ChainCodespace = "ratelimit";
 * ```
 */
export type ChainCodespace = keyof typeof CHAIN_ERRORS;

/**
 * Codes of the Cosmos SDK's root errors (codespace `sdk`), by name.
 *
 * @example
 * ```ts
 * const error = broadcastTxError({ abciCode: 13, codespace: "sdk", log: "", txHash: "AB12", phase: "checkTx" });
 * error.abciCode === SDK_CODES.insufficientFee; // true
 * ```
 */
export const SDK_CODES = {
  txDecode: 2,
  invalidSequence: 3,
  unauthorized: 4,
  insufficientFunds: 5,
  unknownRequest: 6,
  invalidAddress: 7,
  invalidPubKey: 8,
  unknownAddress: 9,
  invalidCoins: 10,
  outOfGas: 11,
  memoTooLarge: 12,
  insufficientFee: 13,
  tooManySignatures: 14,
  noSignatures: 15,
  invalidRequest: 18,
  txInMempoolCache: 19,
  txTooLarge: 21,
  keyNotFound: 22,
  invalidHeight: 26,
  invalidChainId: 28,
  invalidType: 29,
  txTimeoutHeight: 30,
  unknownExtensionOptions: 31,
  wrongSequence: 32,
  internalLogic: 35,
  notSupported: 37,
  notFound: 38,
  invalidGasLimit: 41,
} as const;

/**
 * gRPC status codes, by name (the numbers of `@connectrpc/connect`'s `Code`, and of
 * `QueryError.grpcCode`).
 *
 * @example
 * ```ts
 * GRPC_CODES.notFound; // 5
 * ```
 */
export const GRPC_CODES = {
  canceled: 1,
  unknown: 2,
  invalidArgument: 3,
  deadlineExceeded: 4,
  notFound: 5,
  alreadyExists: 6,
  permissionDenied: 7,
  resourceExhausted: 8,
  failedPrecondition: 9,
  aborted: 10,
  outOfRange: 11,
  unimplemented: 12,
  internal: 13,
  unavailable: 14,
  dataLoss: 15,
  unauthenticated: 16,
} as const;

/**
 * A registered chain error: its codespace, code and root description.
 *
 * @example
 * ```ts
 * const known: ChainError = { codespace: "ratelimit", code: 1002, description: "withdrawal amount would exceed rate-limit capacity" };
 * ```
 */
export interface ChainError {
  /** The codespace (`sdk`, `clob`, `wrap`, ...). */
  codespace: string;
  /** The code within the codespace. */
  code: number;
  /** The root description logs end with. */
  description: string;
}

const ALL: readonly ChainError[] = Object.entries(CHAIN_ERRORS)
  .flatMap(([codespace, codes]) =>
    Object.entries(codes as Record<string, string>).map(([code, description]) => ({
      codespace,
      code: Number(code),
      description,
    })),
  )
  .sort((a, b) => b.description.length - a.description.length);

/**
 * The registered error a log ends with (`"...: <description>"`), longest description first. When
 * several codespaces register the same description (`invalid authority`), the first of
 * `preferCodespaces` that does wins, else `sdk`, else the first registered.
 *
 * @param log - a tx or query log, without transport envelopes.
 * @param preferCodespaces - codespaces to prefer on a tie (the failing message's module, say).
 * @returns the error, or `undefined` when the log ends with no registered description.
 *
 * @example
 * ```ts
 * chainErrorOfLog("ibc/AB does not back uusdc: voucher does not back the local denom"); // { codespace: "wrap", code: 7, ... }
 * ```
 */
export function chainErrorOfLog(
  log: string,
  preferCodespaces: readonly string[] = [],
): ChainError | undefined {
  const text = log.trimEnd();
  const matches = ALL.filter(
    (e) =>
      text.endsWith(e.description) &&
      (text.length === e.description.length || text.endsWith(`: ${e.description}`)),
  );
  if (matches.length === 0) return undefined;
  const longest = matches.filter((e) => e.description.length === matches[0]!.description.length);
  for (const codespace of [...preferCodespaces, "sdk"]) {
    const hit = longest.find((e) => e.codespace === codespace);
    if (hit) return hit;
  }
  return longest[0];
}
