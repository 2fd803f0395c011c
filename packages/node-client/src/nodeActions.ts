import { getAccount, getAccountSequence } from "./query/auth.js";
import { getBalance, getBalances } from "./query/bank.js";

import { getChainId, getLatestBlock } from "./query/chain.js";
import { getMarket } from "./query/market.js";
import { getStatefulOrder, marketQueries } from "./query/markets.js";
import { getLeverage, getSubaccount, getSubaccounts } from "./query/subaccounts.js";
import { getTx } from "./query/txs.js";
import {
  addAuthenticator,
  bankMultiSend,
  bankSend,
  batchCancel,
  cancelOrder,
  depositToSubaccount,
  ibcTransfer,
  initiateWithdrawal,
  placeOrder,
  registerAffiliate,
  removeAuthenticator,
  transfer,
  updateLeverage,
  withdrawFromSubaccount,
  wrapRedeem,
  wrapWithdraw,
} from "./tx/actions.js";
import { broadcastTx, waitForTx } from "./tx/broadcast.js";
import { registerTradingKey, sendWithTradingKey } from "./tx/permissioned.js";
import { sendTx } from "./tx/send.js";
import { simulateTx } from "./tx/simulate.js";
import { watchShortTermOrder } from "./tx/watchOrder.js";

/**
 * Every action of a node client, by name: each is a free function `action(client, params)`, and a
 * client built by {@link createNodeClient} has it as a method `client.action(params)`. This table is
 * the one source of both. It holds a trader's actions (transactions, and the account, balance,
 * order and market reads); the chain-module queries are `queryActions` of
 * `@perpx/node-client/queries`, for `client.extend(queryActions)`.
 *
 * @example
 * ```ts
 * await nodeActions.getBalances(client, { address: wallet.address }); // what client.getBalances({ address: wallet.address }) does
 * ```
 */
export const nodeActions = {
  // Accounts and balances
  getAccount,
  getAccountSequence,
  getBalances,
  getBalance,
  getSubaccount,
  getSubaccounts,
  getLeverage,
  // Markets and orders
  ...marketQueries,
  getMarket,
  getStatefulOrder,
  // Chain facts a sender needs
  getChainId,
  getLatestBlock,
  getTx,
  // Transactions
  sendTx,
  simulateTx,
  broadcastTx,
  waitForTx,
  watchShortTermOrder,
  // One-message actions
  placeOrder,
  cancelOrder,
  batchCancel,
  depositToSubaccount,
  withdrawFromSubaccount,
  transfer,
  bankSend,
  bankMultiSend,
  addAuthenticator,
  removeAuthenticator,
  wrapWithdraw,
  wrapRedeem,
  ibcTransfer,
  updateLeverage,
  registerAffiliate,
  initiateWithdrawal,
  registerTradingKey,
  sendWithTradingKey,
} as const;

/**
 * The type of {@link nodeActions}.
 *
 * @example
 * ```ts
 * type Names = keyof NodeActions; // "getBalances" | "sendTx" | ...
 * ```
 */
export type NodeActions = typeof nodeActions;
