import { assertKnownKeys, optionKeys } from "@perpx/core";
import type { FundingPaymentResponseObject } from "@perpx/core/indexer";
import type { SendTxResult } from "@perpx/node-client";
import type { LocalWallet } from "@perpx/node-client/wallets";
import { type AccountView, accountView, fundingPaymentsOf } from "./account.js";
import { type BridgeDeposit, type BridgeDepositParams, bridgeDeposit } from "./bridgeDeposit.js";
import { batchCancelOrders, cancelAllOrders } from "./cancels.js";
import { type ClientContext, type ConnectOptions, connectContext } from "./client.js";
import { setMarketLeverage } from "./collateral.js";
import { type FaucetGrant, faucetFor } from "./faucet.js";
import type { OrderHandle } from "./handle.js";
import type { CompositeMarket } from "./markets.js";
import { depositUsdc, withdrawUsdc } from "./money.js";
import { type MarketBook, watchMarketBook } from "./orderBook.js";
import type { HumanOrder } from "./orderPlan.js";
import { closeMarketPosition } from "./positions.js";
import { subaccountOf } from "./trader.js";
import { cancelPlacedOrder, type PlacedOrders, placeHumanOrder } from "./trading.js";
import { type AuthorizedKey, approveAgentFromEvm, authorizeTradingKey } from "./tradingKeys.js";
import { type TransferParams, transferUsdc } from "./transfers.js";
import {
  type BridgeDepositStatus,
  trackBridgeDeposit,
  wrapRedeemUsdc,
  wrapWithdrawUsdc,
} from "./wrapBridge.js";

const GET_MARKET_KEYS = optionKeys<{ ticker: string; refresh?: boolean }>({ ticker: true, refresh: true });

/**
 * One client for a perpx network: markets by ticker, human-unit orders with handles that follow
 * them, cancels, USDC moves, the account and the faucet. Each method is a few lines over the node
 * client and core (the functions of this package's other modules).
 *
 * @example
 * ```ts
 * import { LocalWallet } from "@perpx/node-client/wallets";
 *
 * const client = await CompositeClient.connect({ ...devnetOptions, wallet: LocalWallet.generate() });
 * await client.faucet(); // a new wallet: USDC from the devnet's faucet
 * const handle = await client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" });
 * await client.cancelOrder({ market: "BTC-USD", clientId: handle.clientId });
 * (await handle.result({ timeoutMs: 10_000 })).status; // "CANCELED"
 * client.close();
 * ```
 */
export class CompositeClient {
  /** What the client holds (node client, height, markets), for the functions it composes. */
  readonly context: ClientContext;
  readonly #placed: PlacedOrders = new Map();

  private constructor(context: ClientContext) {
    this.context = context;
  }

  /**
   * Connects to a network (a preset name, a network, or a resolved network config), read-only
   * without a `wallet`, `signer` or `credential`.
   *
   * @param options - see `ConnectOptions`: the network, the signer (`wallet`, `signer` or
   *   `credential`), the subaccount and the timeouts.
   * @returns resolves with a connected client (live height, market cache, indexer feed); rejects
   *   with `InvalidArgumentError` for a bad option and the transports' typed errors when the
   *   network cannot be reached.
   * @example
   * ```ts
   * // Endpoints come from `endpoints`, else from PERPX_NETWORK and the PERPX_*_URL variables of `env`.
   * const reader = await CompositeClient.connect(devnetOptions); // no wallet: read-only
   * reader.context.trader; // undefined
   * reader.close();
   * await CompositeClient.connect({ network: "testnet", env: {} }); // throws MissingEndpointError
   * ```
   */
  static async connect(options: ConnectOptions = {}): Promise<CompositeClient> {
    return new CompositeClient(await connectContext(options));
  }

  /**
   * The subaccount this client trades (`{ owner, number }`).
   *
   * @example
   * ```ts
   * client.subaccount.number; // 0
   * ```
   */
  get subaccount(): { owner: string; number: number } {
    return subaccountOf(this.context);
  }

  /**
   * The chain height, kept live in the background (no network call).
   *
   * @returns the latest block height the client has seen.
   * @example
   * ```ts
   * client.height() > 0n; // true
   * ```
   */
  height(): bigint {
    return this.context.height.current();
  }

  /**
   * A market by ticker, from the cache (loaded once, refreshed on a schedule); `refresh: true`
   * reloads it first.
   *
   * @param params - the market's `ticker`; `refresh: true` to reload it first.
   * @returns resolves with the market: ids, step and tick sizes as human decimals, oracle price,
   *   margin fractions.
   * @throws {InvalidArgumentError} for an unknown ticker, naming the ones the chain has.
   *
   * @example
   * ```ts
   * const btc = await client.getMarket({ ticker: "BTC-USD" });
   * ```
   */
  async getMarket(params: { ticker: string; refresh?: boolean }): Promise<CompositeMarket> {
    assertKnownKeys(params, GET_MARKET_KEYS, "getMarket");
    if (params.refresh) await this.context.markets.refresh(params.ticker);
    return this.context.markets.get(params.ticker);
  }

  /**
   * Places an order in human units and resolves once the chain accepted it, with its handle.
   * Short-term (MARKET, IOC, `goodTil: { blocks }`) or long-term (other LIMIT orders) or
   * conditional (STOP_*, TAKE_PROFIT*): see `orderKind`.
   *
   * @param order - the order in human units: market, side, price and size as decimal strings, type,
   *   time in force, `goodTil`, flags.
   * @returns resolves with the order's handle (`result()` waits for its final state, `updates()`
   *   streams them) once the chain accepted it.
   * @throws {InvalidAmountError} for a size or price off the grid without `rounding`.
   * @throws {InvalidOrderError | InvalidArgumentError} for anything else wrong, before signing
   *   (including what the chain would refuse: reduce-only off IOC, fill-or-kill, ...).
   * @throws {BroadcastTxError} when the chain refuses it.
   * @throws {OrderOutcomeUnknownError} when it was sent and no answer came: look it up with
   *   `error.handle.result()`; retrying with the same client id is safe. Any other error means the
   *   order is not on the chain.
   *
   * @example
   * ```ts
   * const handle = await client.placeOrder({ market: "BTC-USD", side: "SELL", type: "MARKET", size: "0.001", slippage: "0.5%" });
   * (await handle.result({ timeoutMs: 5_000 })).status; // "FILLED"
   * ```
   */
  placeOrder(order: HumanOrder): Promise<OrderHandle> {
    return placeHumanOrder(this.context, this.#placed, order);
  }

  /**
   * Cancels an order this client placed.
   *
   * @param params - the market's ticker and the order's client id.
   * @returns resolves when the node accepted the cancel; rejects with `InvalidArgumentError`
   *   (naming `clientId`) for an order this client did not place.
   * @example
   * ```ts
   * const handle = await client.placeOrder({ market: "BTC-USD", side: "BUY", size: "0.001", price: "30000" });
   * await client.cancelOrder({ market: "BTC-USD", clientId: handle.clientId });
   * (await handle.result({ timeoutMs: 10_000 })).status; // "CANCELED"
   * ```
   */
  cancelOrder(params: { market: string; clientId: number }): Promise<SendTxResult> {
    return cancelPlacedOrder(this.context, this.#placed, params);
  }

  /**
   * Cancels short-term orders of one market in one transaction.
   *
   * @param params - the market's ticker and the client ids of its short-term orders.
   * @returns resolves when the node accepted the `MsgBatchCancel`; rejects with `InvalidOrderError`
   *   for more than 100 ids or the id of a stateful order this client placed (cancel those with
   *   `cancelOrder`), and with `InvalidArgumentError` for `clientIds` that is not a non-empty
   *   array, before anything is signed.
   * @example
   * ```ts
   * const bid = { market: "BTC-USD", side: "BUY", size: "0.001", goodTil: { blocks: 20 } } as const;
   * const a = await client.placeOrder({ ...bid, price: "30000" });
   * const b = await client.placeOrder({ ...bid, price: "30001" });
   * await client.batchCancel({ market: "BTC-USD", clientIds: [a.clientId, b.clientId] });
   * (await a.result({ timeoutMs: 10_000 })).status; // "CANCELED"
   * ```
   */
  batchCancel(params: { market: string; clientIds: readonly number[] }): Promise<SendTxResult> {
    return batchCancelOrders(this.context, this.#placed, params);
  }

  /**
   * Cancels every order this client placed that is still open (of one market, or all) and answers
   * the client ids it removed, by market: never one that had already ended (a filled MARKET order).
   *
   * @param params - the market's ticker, or none for every market.
   * @returns resolves with the client ids the cancels removed, by ticker (markets with none are
   *   absent).
   * @throws the first cancel's failure (a `BroadcastTxError`, a `TransportError`), once every
   *   cancel already sent has settled; the orders it did not remove stay known, for the next call.
   * @example
   * ```ts
   * const sold = await client.placeOrder({ market: "BTC-USD", side: "SELL", type: "MARKET", size: "0.001", slippage: "1%" });
   * (await sold.result({ timeoutMs: 10_000 })).status; // "FILLED"
   * await client.cancelAll({ market: "BTC-USD" }); // {}: the filled order is not listed
   * ```
   */
  cancelAll(params: { market?: string } = {}): Promise<Record<string, number[]>> {
    return cancelAllOrders(this.context, this.#placed, params);
  }

  /**
   * Closes the position in a market with a reduce-only MARKET order bounded by `slippage`.
   *
   * @param params - the market's ticker and the worst price allowed, as a slippage from the oracle
   *   price (`"1%"`).
   * @returns resolves with the closing order's handle.
   * @throws {InvalidArgumentError} when there is no position in that market.
   *
   * @example
   * ```ts
   * await client.closePosition({ market: "BTC-USD", slippage: "1%" });
   * ```
   */
  closePosition(params: { market: string; slippage: string }): Promise<OrderHandle> {
    return closeMarketPosition(this.context, this.#placed, params);
  }

  /**
   * Sets the subaccount's leverage on a market (the owner's wallet signs `MsgUpdateLeverage`).
   *
   * @param params - the market's ticker and the leverage (a number or decimal string, e.g. `5`).
   * @returns resolves when the node accepted the transaction.
   * @throws {InvalidArgumentError} for a leverage below 1, a read-only client or a trading key.
   * @throws {BroadcastTxError} when the chain refuses it.
   *
   * @example
   * ```ts
   * await client.setLeverage({ market: "BTC-USD", leverage: 5 });
   * ```
   */
  setLeverage(params: { market: string; leverage: number | string }): Promise<SendTxResult> {
    return setMarketLeverage(this.context, params);
  }

  /**
   * Authorizes a trading key from this client's (owner's) wallet; resolves with the credential a
   * bot connects with. A fresh key unless `tradingKey` is given.
   *
   * @param params - the key to authorize; a fresh one when omitted.
   * @returns resolves with the authenticator id the chain gave the key, the key's public key, and
   *   `credential`: base64 of the key's secret and master address, what a bot connects with.
   * @example
   * ```ts
   * const { credential } = await client.authorizeTradingKey();
   * ```
   */
  authorizeTradingKey(params: { tradingKey?: LocalWallet } = {}): Promise<AuthorizedKey> {
    return authorizeTradingKey(this.context, params);
  }

  /**
   * Authorizes a trading key from an EVM wallet through EIP-712 `ApproveAgent` (the network's
   * approve-agent service registers it); resolves with the credential a bot connects with.
   *
   * @param params - the EVM wallet that signs, the key to authorize (fresh when omitted) and the
   *   approval's expiry.
   * @returns resolves with the key, its authenticator id and the base64 trading credential; rejects
   *   with `ApproveAgentError` when the service refuses the approval.
   * @example
   * ```ts
   * import { EvmWallet } from "@perpx/node-client/wallets";
   * const evmWallet = EvmWallet.generate();
   * await client.faucet({ owner: evmWallet.evmAddress }); // opens its account
   * const { credential } = await client.approveAgentFromEvm({ evmWallet });
   * typeof credential; // "string"
   * ```
   */
  approveAgentFromEvm(params: Parameters<typeof approveAgentFromEvm>[1]): Promise<AuthorizedKey> {
    return approveAgentFromEvm(this.context, params);
  }

  /**
   * Redeems wrapped USDC (human units) for its IBC voucher on this chain.
   *
   * @param params - the amount in human USDC (`"12.5"`) and, optionally, the voucher to receive.
   * @returns resolves when the node accepted the `MsgRedeem`; rejects with `InvalidArgumentError`
   *   when no voucher's backing covers the amount.
   * @example
   * ```ts
   * // No USDC came in over IBC on a fresh devnet: nothing backs a voucher, refused before signing.
   * await client.wrapRedeem({ amount: "1.5" }); // throws InvalidArgumentError
   * ```
   */
  wrapRedeem(params: { amount: string; voucherDenom?: string }): Promise<SendTxResult> {
    return wrapRedeemUsdc(this.context, params);
  }

  /**
   * Withdraws wrapped USDC (human units) over IBC to an account of the voucher's home chain.
   *
   * @param params - the amount in human USDC, the `receiver` on the home chain, and optionally the
   *   voucher and IBC timeout.
   * @returns resolves when the node accepted the `MsgWithdraw` (the IBC packet is then in flight);
   *   rejects with `InvalidArgumentError` when no voucher's backing covers the amount.
   * @example
   * ```ts
   * // As wrapRedeem: a fresh devnet holds no backing, so it is refused before signing.
   * await client.wrapWithdraw({ amount: "2", receiver: "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy" }); // throws InvalidArgumentError
   * ```
   */
  wrapWithdraw(params: Parameters<typeof wrapWithdrawUsdc>[1]): Promise<SendTxResult> {
    return wrapWithdrawUsdc(this.context, params);
  }

  /**
   * Follows a bridge deposit (by its source-chain tx hash or bridge event id) until this chain
   * credited it to `address` (this client's account by default).
   *
   * @param params - the deposit's source-chain tx hash or event id, an `onStatus` callback, a
   *   `signal`; `address` defaults to this client's.
   * @returns resolves with the final status once the chain credited the deposit; rejects with
   *   `AbortedError` when the signal aborts.
   * @example
   * ```ts
   * // A devnet's control route stands in for the deposit on the source chain.
   * const ethTxHash = `0x${"cd".repeat(32)}`;
   * await fetch(`${client.context.config.endpoints.devnetControl}/devnet/bridge/deposit`, {
   *   method: "POST",
   *   body: JSON.stringify({ sender: `0x${"12".repeat(20)}`, address: client.subaccount.owner, amount: "1000000", txHash: ethTxHash }),
   * });
   * const done = await client.trackBridgeDeposit({ ethTxHash, onStatus: (s) => console.log(s.status) });
   * done.status; // "COMPLETED"
   * ```
   */
  trackBridgeDeposit(
    params: Omit<Parameters<typeof trackBridgeDeposit>[1], "address"> & { address?: string },
  ): Promise<BridgeDepositStatus> {
    return trackBridgeDeposit(this.context, { ...params, address: params?.address ?? this.subaccount.owner });
  }

  /**
   * Deposits USDC from an EVM wallet on a bridge source chain (`l1` or `l2`) to this client's
   * account (or `recipient`): `approve` when needed, then the bridge's `deposit`, as signed EIP-1559
   * transactions; resolves once mined, with `credited` resolving when this chain credits it.
   *
   * @param params - see `BridgeDepositParams`: each field is documented there.
   * @returns resolves once the deposit transaction is in a source-chain block, with its `txHash`,
   *   `blockNumber`, `recipient` and `amount` (bigint, USDC base units), and `credited`, a promise
   *   of its status once this chain credits it.
   * @example
   * ```ts
   * import { EvmWallet } from "@perpx/node-client/wallets";
   *
   * const evmSigner = EvmWallet.fromMnemonic(devnet.accounts[1]!.mnemonic); // funded on the devnet's source chains
   * const deposit = await client.bridgeDeposit({ amount: "10", source: "l2", evmSigner });
   * (await deposit.credited).status; // "COMPLETED"
   * await client.bridgeDeposit({ amount: "10", source: "l3" as "l1", evmSigner }); // throws InvalidArgumentError
   * ```
   */
  bridgeDeposit(params: BridgeDepositParams): Promise<BridgeDeposit> {
    const recipient = params?.recipient ?? this.context.trader?.owner;
    return bridgeDeposit(this.context, recipient === undefined ? params : { ...params, recipient });
  }

  /**
   * Deposits USDC (human units) from the wallet into its subaccount.
   *
   * @param params - the amount in human USDC (`"100"`).
   * @returns resolves when the node accepted the deposit; rejects with `InvalidAmountError` for an
   *   amount with more than 6 decimals.
   * @example
   * ```ts
   * await client.deposit({ amount: "100" });
   * ```
   */
  deposit(params: { amount: string }): Promise<SendTxResult> {
    return depositUsdc(this.context, params);
  }

  /**
   * Withdraws USDC (human units) from the subaccount to a bank account.
   *
   * @param params - the amount in human USDC and the bank account to credit (the wallet's own by
   *   default).
   * @returns resolves when the node accepted the withdrawal; rejects with `BroadcastTxError` when
   *   the subaccount's free collateral cannot cover it.
   * @example
   * ```ts
   * await client.withdraw({ amount: "50" });
   * ```
   */
  withdraw(params: { amount: string; recipient?: string }): Promise<SendTxResult> {
    return withdrawUsdc(this.context, params);
  }

  /**
   * Transfers USDC (human units) between subaccounts: from any of the wallet's (`from`, this
   * client's by default) to any subaccount of the wallet or of another account (`to`).
   *
   * @param params - see `TransferParams`: each field is documented there.
   * @returns resolves when the node accepted the `MsgCreateTransfer`; rejects with a typed error
   *   naming the field (`InvalidAmountError`, `InvalidSubaccountError`...) before signing, and
   *   `BroadcastTxError` when the chain refuses it.
   * @throws {InvalidAmountError | InvalidArgumentError} naming the field, before signing.
   *
   * @example
   * ```ts
   * await client.transfer({ amount: "25", to: { number: 1 } });
   * await client.transfer({ amount: "25", from: { number: 1 }, to: { number: 0 } }); // and back
   * ```
   */
  transfer(params: TransferParams): Promise<SendTxResult> {
    return transferUsdc(this.context, params);
  }

  /**
   * A market's order book, live over this client's indexer socket (no second socket): resolves
   * once its snapshot is in; `top()` and `book()` answer undefined while it resyncs.
   *
   * @param params - the market's ticker.
   * @returns resolves with the live book once its snapshot is in; prices and sizes are human
   *   decimal strings.
   * @throws {InvalidArgumentError} for an unknown market or a client without a live feed.
   *
   * @example
   * ```ts
   * const book = await client.orderBook({ market: "BTC-USD" });
   * book.top()?.bid !== undefined; // true: the devnet's market maker quotes
   * book.close();
   * ```
   */
  orderBook(params: { market: string }): Promise<MarketBook> {
    return watchMarketBook(this.context, params);
  }

  /**
   * The account in human units: USDC, equity, free collateral, margin usage, leverage, positions
   * (entry price, unrealized PnL, estimated liquidation price), open orders and fills; live from
   * the indexer's feed when there is one.
   *
   * @returns resolves with the account's figures as human decimal strings (USDC, equity, free
   *   collateral, margin usage, leverage, positions).
   * @example
   * ```ts
   * const { equity, freeCollateral, positions } = await client.account();
   * ```
   */
  account(): Promise<AccountView> {
    return accountView(this.context);
  }

  /**
   * The account's funding payments, newest first, from the indexer.
   *
   * @param params - at most `limit` payments, of one market when `ticker` is given.
   * @returns resolves with the payments (amounts in human USDC, negative when paid); rejects with
   *   the indexer's typed errors.
   * @example
   * ```ts
   * const payments = await client.fundingPayments({ limit: 10 }).catch(() => []); // [] where the indexer has no such route
   * Array.isArray(payments); // true
   * ```
   */
  fundingPayments(
    params: { limit?: number; ticker?: string } = {},
  ): Promise<readonly FundingPaymentResponseObject[]> {
    return fundingPaymentsOf(this.context, params);
  }

  /**
   * Asks the network's faucet to fund a subaccount `{ owner, number }` (the owner in either address
   * form; this client's account and subaccount 0 by default).
   *
   * @param params - the owner (either form) and subaccount number to fund; this client's by default.
   * @returns resolves with what the faucet granted.
   * @throws {InvalidArgumentError} for `address` or `subaccountNumber` (use `owner`, `number`), before anything is sent.
   * @throws {MissingEndpointError} when the network has no faucet.
   * @throws {FaucetError} when the faucet refuses.
   *
   * @example
   * ```ts
   * import { addressToHex } from "@perpx/core";
   * import { LocalWallet } from "@perpx/node-client/wallets";
   *
   * const fresh = LocalWallet.generate();
   * const grant = await client.faucet({ owner: addressToHex(fresh.address) }); // either address form
   * grant.address === fresh.address; // true
   * ```
   */
  faucet(params: { owner?: string; number?: number } = {}): Promise<FaucetGrant> {
    return faucetFor(this.context, params);
  }

  /**
   * Stops the height subscription, the market schedule, the indexer feed and the node client's sockets.
   * Calls that sign after it (orders, cancels, transfers) are refused with an `AbortedError`
   * before anything is signed; calls already signing settle as they go.
   *
   * @example
   * ```ts
   * const reader = await CompositeClient.connect(devnetOptions);
   * reader.close(); // the process can now exit by itself
   * ```
   */
  close(): void {
    this.context.closed = true;
    this.context.height.stop();
    this.context.markets.stop();
    void this.context.feed?.stop();
    this.context.node.close();
  }
}
