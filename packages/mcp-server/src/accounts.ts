import type { ClientContext, PlacedOrders } from "@perpx/composite-client";
import type { IndexerClient } from "@perpx/indexer-client";
import { authenticatorOf, type Principal } from "./auth.js";
import type { ToolDeps } from "./tools/deps.js";
import { ToolFailure } from "./tools/result.js";

/**
 * What the tools of one session act with: the server's shared context (node, indexer, height,
 * markets) with this principal's trader, and the orders placed through it.
 *
 * @example
 * ```ts
 * const { context, placed } = await accounts.of(principal);
 * context.trader?.kind; // "tradingKey"
 * placed.size; // 0
 * ```
 */
export interface AccountContext {
  /** The principal. */
  principal: Principal;
  /** The shared context with the principal's trader (undefined trader: read-only). */
  context: ClientContext;
  /** Orders placed through this credential, shared by its sessions. */
  placed: PlacedOrders;
}

/**
 * Account contexts by credential fingerprint, built once (the authenticator is looked up on chain
 * the first time a trading credential is seen) and shared by that credential's sessions.
 *
 * @example
 * ```ts
 * const accounts = createAccounts(baseContext);
 * (await accounts.of(principal)).principal.account === principal.account; // true
 * ```
 */
export interface Accounts {
  /** The context of a principal. */
  of(principal: Principal): Promise<AccountContext>;
}

/**
 * Builds the account-context cache over the server's shared context.
 *
 * @param base - the server's shared client context (node, indexer, markets, height).
 * @returns the cache of account contexts, one per master account.
 *
 * @example
 * ```ts
 * import { connectContext } from "@perpx/composite-client";
 *
 * const base = await connectContext(devnetOptions);
 * const accounts = createAccounts(base);
 * (await accounts.of(principal)) === (await accounts.of(principal)); // true: built once a credential
 * base.height.stop();
 * base.markets.stop();
 * base.node.close();
 * ```
 */
export function createAccounts(base: ClientContext): Accounts {
  const cache = new Map<string, Promise<AccountContext>>();
  const build = async (principal: Principal): Promise<AccountContext> => {
    const { tradingKey } = principal;
    const trader = tradingKey
      ? {
          kind: "tradingKey" as const,
          tradingKey,
          authenticatorId: await authenticatorOf(base.node, tradingKey),
          owner: principal.account,
        }
      : undefined;
    return { principal, context: { ...base, trader, subaccountNumber: 0 }, placed: new Map() };
  };
  return {
    of(principal) {
      let found = cache.get(principal.fingerprint);
      if (!found) {
        found = build(principal);
        cache.set(principal.fingerprint, found);
        found.catch(() => cache.delete(principal.fingerprint));
      }
      return found;
    },
  };
}

/**
 * The indexer of a context, or a failure when the network has none.
 *
 * @throws {ToolFailure} UPSTREAM_UNAVAILABLE without an indexer endpoint.
 *
 * @example
 * ```ts
 * const indexer = indexerOf(account);
 * (await indexer.getPerpetualMarkets({ ticker: "BTC-USD" })).markets["BTC-USD"]?.ticker; // "BTC-USD"
 * ```
 */
export function indexerOf(account: AccountContext): IndexerClient {
  const { indexer } = account.context;
  if (!indexer)
    throw new ToolFailure("UPSTREAM_UNAVAILABLE", "this server has no indexer endpoint configured");
  return indexer;
}

/**
 * The open orders of the principal's subaccount (of one market, or all).
 *
 * @example
 * ```ts
 * const orders = await openOrders(deps, 0, "BTC-USD");
 * orders.every((order) => order.ticker === "BTC-USD"); // true
 * ```
 */
export async function openOrders(deps: ToolDeps, number: number, t?: string) {
  return indexerOf(deps.account).getOrders({
    owner: deps.account.principal.account,
    number,
    status: ["OPEN", "UNTRIGGERED", "BEST_EFFORT_OPENED"],
    limit: 1000,
    ...(t ? { ticker: t } : {}),
  });
}
