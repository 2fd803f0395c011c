/**
 * x/revshare, the order-router part: governance sets an order router's share of the trading fees
 * (`MsgSetOrderRouterRevShare`, at most 800,000 ppm, else revshare 2); a stateful order naming a
 * router without a share is revshare 8; at a fill, a router earns `share × min(taker fee, taker fee
 * + maker fee)` of the taker's side and `share × max(0, maker fee)` of the maker's, rounded down,
 * paid from the fee collector (the real chain's `getOrderRouterRevShares`).
 *
 * Store slice `revshare/`: `router/<bech32>`: `perpx.revshare.v1.OrderRouterRevShare`.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { addressBytes } from "@perpx/address";
import { USDC_DENOM } from "@perpx/core";
import { revshare } from "@perpx/proto";
import { abciError, registerError, sdkErrors } from "../errors.js";
import { requireGovAuthority } from "../governance.js";
import { type Context, emptyResponse, type Module, msgHandler, notFound, queryHandler } from "../module.js";
import type { StoreAccess } from "./auth.js";
import type { BankKeeper } from "./bank.js";

/** The module's name and store prefix. */
export const REVSHARE = "revshare";

/** The largest order router share, ppm. */
export const MAX_ORDER_ROUTER_SHARE_PPM = 800_000;

/** Errors of codespace `revshare`, as the real chain registers them. */
export const revshareErrors = {
  invalidAddress: registerError(REVSHARE, 1, "invalid address"),
  invalidRevenueSharePpm: registerError(REVSHARE, 2, "invalid revenue share ppm"),
  orderRouterRevShareNotFound: registerError(REVSHARE, 8, "order router rev share not found"),
} as const;

function checkAddress(address: string): Uint8Array {
  try {
    return addressBytes(address);
  } catch {
    throw abciError(revshareErrors.invalidAddress, `invalid address ${address}`);
  }
}

/** The order router shares (the keeper the clob uses at placements and fills). */
export class RevShareKeeper {
  constructor(private readonly bank: BankKeeper) {}

  /** A router's share in ppm, or undefined when none is set. */
  findRouterShare(ctx: StoreAccess, address: string): number | undefined {
    const bytes = ctx.store(REVSHARE).get(`router/${address}`);
    return bytes === undefined ? undefined : fromBinary(revshare.OrderRouterRevShareSchema, bytes).sharePpm;
  }

  /**
   * The share of an order's router (0 without a router).
   *
   * @throws AbciError revshare 1 for a bad address, 8 for a router without a share.
   */
  routerShare(ctx: StoreAccess, address: string): number {
    if (address === "") return 0;
    checkAddress(address);
    const share = this.findRouterShare(ctx, address);
    if (share === undefined) {
      throw abciError(revshareErrors.orderRouterRevShareNotFound, `order router ${address}`);
    }
    return share;
  }

  /** Stores a router's share. */
  setRouterShare(ctx: StoreAccess, value: revshare.OrderRouterRevShare): void {
    checkAddress(value.address);
    ctx.store(REVSHARE).set(`router/${value.address}`, toBinary(revshare.OrderRouterRevShareSchema, value));
  }

  /**
   * Pays the routers of a fill their shares of its fees from the fee collector; returns the
   * amounts (taker's router, maker's router). A router without a share earns nothing.
   */
  payRouters(
    ctx: Context,
    fill: { takerRouter: string; makerRouter: string; takerFee: bigint; makerFee: bigint },
  ): { taker: bigint; maker: bigint } {
    const shareOf = (address: string) =>
      address === "" ? 0n : BigInt(this.findRouterShare(ctx, address) ?? 0);
    // min(taker fee, taker fee + maker fee): a maker rebate comes off the taker's side.
    const takerSide = fill.makerFee < 0n ? fill.takerFee + fill.makerFee : fill.takerFee;
    const makerSide = fill.makerFee > 0n ? fill.makerFee : 0n;
    const taker = takerSide > 0n ? (shareOf(fill.takerRouter) * takerSide) / 1_000_000n : 0n;
    const maker = (shareOf(fill.makerRouter) * makerSide) / 1_000_000n;
    for (const [router, amount] of [
      [fill.takerRouter, taker],
      [fill.makerRouter, maker],
    ] as const) {
      if (amount <= 0n) continue;
      this.bank.sendCoinsFromModuleToAccount(ctx, "fee_collector", addressBytes(router), [
        { denom: USDC_DENOM, amount },
      ]);
    }
    return { taker, maker };
  }
}

/** The revshare module: `MsgSetOrderRouterRevShare` (governance) and the `OrderRouterRevShare` query. */
export function createRevShareModule(keeper: RevShareKeeper): Module {
  return {
    name: REVSHARE,
    msgs: [
      msgHandler({
        schema: revshare.MsgSetOrderRouterRevShareSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          // Only a proposal reaches this (signed by the gov module); the chain answers gov's invalid signer.
          requireGovAuthority(msg.authority, sdkErrors.unauthorized);
          const value = msg.orderRouterRevShare ?? create(revshare.OrderRouterRevShareSchema);
          if (value.sharePpm > MAX_ORDER_ROUTER_SHARE_PPM) {
            throw abciError(
              revshareErrors.invalidRevenueSharePpm,
              "rev share safety violation: rev shares greater than or equal to allowed amount",
            );
          }
          keeper.setRouterShare(ctx, value);
          return emptyResponse(revshare.MsgSetOrderRouterRevShareResponseSchema);
        },
      }),
    ],
    queries: {
      "/perpx.revshare.v1.Query/OrderRouterRevShare": queryHandler(
        revshare.QueryOrderRouterRevShareSchema,
        revshare.QueryOrderRouterRevShareResponseSchema,
        (ctx, req) => {
          const share = keeper.findRouterShare(ctx, req.address);
          if (share === undefined) throw notFound(`order router rev share of ${req.address}`);
          return create(revshare.QueryOrderRouterRevShareResponseSchema, {
            orderRouterRevShare: { address: req.address, sharePpm: share },
          });
        },
      ),
    },
  };
}
