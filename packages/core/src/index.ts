/**
 * `@perpx/core`: network presets and constants, errors, exact price and size conversions, IBC
 * denoms, trading credentials and the ApproveAgent typed data. No I/O. Re-exports all of
 * `@perpx/errors` and `@perpx/address`. EVM encoding (transactions, ABI, EIP-712 hashing:
 * `@perpx/core/evm`, on `ox`) and signer recovery (`verifyApproveAgent`,
 * `decodeSignedEvmTx`: `@perpx/core/evm-verify`, on secp256k1) have entries of their own.
 *
 * @packageDocumentation
 */
export * from "@perpx/address";
export * from "@perpx/errors";
export {
  APPROVE_AGENT_DOMAIN_NAME,
  APPROVE_AGENT_DOMAIN_VERSION,
  APPROVE_AGENT_PRIMARY_TYPE,
  APPROVE_AGENT_TYPES,
  type ApproveAgentParams,
  approveAgentTypedData,
} from "./approve-agent.js";
export {
  createCredential,
  decodeCredential,
  encodeCredential,
  isValidCredential,
  TradingCredential,
  type TradingCredentialInput,
  type TradingCredentialJson,
} from "./credential.js";
export { CANONICAL_DECIMAL_PATTERN, type DecimalInput, type IntegerInput } from "./decimal.js";
export {
  ENDPOINT_ENV_VARS,
  ENDPOINT_NAMES,
  ENDPOINT_VARIABLES,
  type EndpointName,
  type Endpoints,
  type EndpointVariable,
  NETWORK_ENV_VAR,
  OTHER_ENV_VARS,
  type OtherEnvVar,
} from "./endpoint-table.js";
export {
  type Env,
  getEndpoint,
  indexerSocketUrl,
  type NetworkConfig,
  type ResolveNetworkOptions,
  resolveNetwork,
  validateEndpointUrl,
} from "./endpoints.js";
export { type EnvValues, endpointEnvValues, envTemplate } from "./env-template.js";
export {
  type AmountKind,
  InvalidAmountError,
  type InvalidAmountErrorParameters,
  type InvalidAmountReason,
  InvalidCredentialError,
  type InvalidCredentialReason,
  InvalidOrderError,
  isInvalidAmountError,
  isInvalidCredentialError,
  isInvalidOrderError,
  isMissingEndpointError,
  isUnknownNetworkError,
  type MissingEndpoint,
  MissingEndpointError,
  type MissingEndpointErrorOptions,
  UnknownNetworkError,
} from "./errors.js";
export { Exact, type ExactInput } from "./exact.js";
export type { DecimalLike, ExactPrecision, ExactRounding } from "./exact-math.js";
export { type FeeCoin, feeForGas } from "./fees.js";
export {
  type DenomTrace,
  formatDenomTrace,
  type IbcHop,
  ibcDenom,
  ibcDenomFromTrace,
  isChannelId,
  isClientId,
  isConnectionId,
  isIbcDenom,
  isPortId,
  parseDenomTrace,
} from "./ibc.js";
export {
  type BridgeSourceChain,
  type Denom,
  FAUCET_TOKENS_PATH,
  type GasPrice,
  getNetwork,
  INDEXER_PROTOCOL_VERSION,
  INDEXER_WS_PATH,
  isNetworkName,
  local,
  MCP_PATH,
  MINIMUM_GAS_PRICES,
  mainnet,
  NATIVE_DECIMALS,
  NATIVE_DENOM,
  NATIVE_SYMBOL,
  NETWORK_NAMES,
  NETWORKS,
  type Network,
  type NetworkName,
  NODE_RPC_WEBSOCKET_PATH,
  networkByChainId,
  QUOTE_ATOMIC_RESOLUTION,
  SHORT_BLOCK_WINDOW,
  STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS,
  STATEFUL_ORDER_TIME_WINDOW_SECONDS,
  testnet,
  USDC_ASSET_ID,
  USDC_DECIMALS,
  USDC_DENOM,
} from "./networks.js";
export {
  assertKnownKeys,
  isUnknownOptionError,
  optionKeys,
  UnknownOptionError,
} from "./options.js";
export {
  type AmountOptions,
  type AmountRounding,
  baseUnitsToNative,
  type ClobPairParams,
  decimalToUnits,
  type MarketPrice,
  marketPriceToPrice,
  nativeToBaseUnits,
  notionalQuoteQuantums,
  oraclePriceToSubticks,
  type PriceOptions,
  type PriceRounding,
  priceToMarketPrice,
  priceToSubticks,
  quantumsToSize,
  quoteQuantumsToUsdc,
  type SizeOptions,
  type SizeRounding,
  sizeToQuantums,
  stepSize,
  subticksToPrice,
  tickSize,
  unitsToDecimal,
  usdcToQuoteQuantums,
} from "./quantums.js";
export { checkDelayMs, type LongTimeout, MAX_TIMER_MS, setLongTimeout } from "./timers.js";
export type { TypedData, TypedDataField, TypedDataValue } from "./typed-data.js";
export {
  compareVersions,
  LATEST_VERSION,
  MAINNET_UPGRADES,
  type ParsedVersion,
  parseVersion,
  TESTNET_UPGRADES,
  type Upgrade,
  type UpgradeHistory,
  upgradeHeight,
  versionAtHeight,
} from "./upgrades.js";
