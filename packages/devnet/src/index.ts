/**
 * `@perpx/devnet`: a local perpx network in one process (CometBFT RPC, Cosmos REST, gRPC with TLS,
 * EVM JSON-RPC, faucet and control), for tests and local development. Start it with
 * {@link startDevnet} or the `perpx-devnet` CLI.
 *
 * @packageDocumentation
 */
export { createChainApp } from "./app/app.js";
export type * from "./app/contract.js";
export type { ForkParams } from "./app/genesis/fork-params.js";
export {
  FORK_MONIKER,
  type ForkAccount,
  type ForkMarket,
  type ForkPosition,
  type ForkState,
  type ForkSubaccount,
} from "./app/genesis/fork-state.js";
export {
  FUNDED_SUBACCOUNT_QUANTUMS,
  type FundedSubaccountKey,
  fundedSubaccountKey,
} from "./app/genesis/funded-subaccounts.js";
export {
  GENESIS_ACCOUNTS,
  GENESIS_NATIVE_BALANCE,
  GENESIS_USDC_BALANCE,
  type GenesisAccount,
} from "./app/genesis/genesis-accounts.js";
export { startDevnet } from "./devnet.js";
export { DevnetError, type DevnetErrorReason, isDevnetError } from "./devnet-error.js";
export {
  DEFAULT_PORTS,
  type Devnet,
  type DevnetAccount,
  type DevnetEndpoints,
  type DevnetPorts,
  type StartDevnetOptions,
} from "./devnet-options.js";
export type { LiquidityOptions } from "./liquidity/maker.js";
export type { MirrorBook, MirrorLevel, MirrorMaker } from "./liquidity/mirror.js";
export { BLOCK_LOG_FILE, DevnetStateError, isDevnetStateError, STATE_FILE } from "./persistence.js";
export {
  ControlError,
  type ControlHandler,
  type ControlRequest,
  type ControlRouter,
} from "./servers/control-router.js";
export { DEFAULT_FAUCET_COINS, type FaucetCoin } from "./servers/faucet.js";
export { DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from "./servers/http.js";
export type { BlockProducer, BlockProducerOptions } from "./servers/producer.js";
export { TLS_FILES } from "./servers/tls.js";
export type { RunningSourceChain, SourceChainOptions } from "./source-chain/index.js";
export {
  DevnetStateLockedError,
  isDevnetStateLockedError,
  LOCK_FILE,
  type LockHolder,
} from "./state-lock.js";
