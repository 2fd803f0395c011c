/**
 * Fork states for tests: the local chain's identity, BTC-USD as the devnet's default market (id 0,
 * 65,000 USD, no default funding), and accounts holding one subaccount each.
 */
import { DEFAULT_MARKETS } from "../../src/app/genesis/genesis-markets.js";
import type { ForkAccount, ForkMarket, ForkState } from "../../src/index.js";

/** BTC-USD as a fork market: the devnet's default BTC market with `fundingIndex`, funding rate 0. */
export function btcForkMarket(fundingIndex = 0n): ForkMarket {
  return { ...(DEFAULT_MARKETS[0] as ForkMarket), id: 0, defaultFundingPpm: 0, fundingIndex };
}

/** An account with subaccount 0 holding `usdc` quote quantums and `positions` (BTC-USD by default). */
export function forkAccount(
  address: string,
  accountNumber: bigint,
  usdc: bigint,
  positions: ForkAccount["subaccounts"][number]["positions"] = [],
): ForkAccount {
  return {
    address,
    accountNumber,
    sequence: 0n,
    balances: [],
    subaccounts: [{ number: 0, usdc, positions }],
    authenticators: [],
  };
}

/** A fork of the local chain at `height` with one BTC-USD market and the given parts. */
export function localFork(
  source: string,
  height: bigint,
  parts: Pick<ForkState, "accounts"> & Partial<ForkState>,
): ForkState {
  return {
    source,
    height,
    profile: "local",
    chainId: "perpx-local-1",
    evmChainId: 31337,
    upgrades: [],
    markets: [btcForkMarket()],
    ...parts,
  };
}
