/**
 * x/revshare's state: order routers' shares, the market mapper's parameters and each market's
 * details (its expiry), and the unconditional recipients; the real chain's checks on them.
 *
 * Store slice `revshare/`: `router/<bech32>`: `OrderRouterRevShare`; `mm_params`:
 * `MarketMapperRevenueShareParams`; `mm_details/<market id:10>`: `MarketMapperRevShareDetails`;
 * `unconditional`: `UnconditionalRevShareConfig`.
 */
import { toBinary } from "@bufbuild/protobuf";
import { addressBytes } from "@perpx/address";
import { revshare } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { abciError, registerError } from "../../lib/errors.js";
import { fromBinaryCached, wireDecodeCached } from "../../lib/proto-cache.js";
import { wireCreate, wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";
import type { BankKeeper } from "../bank/bank.js";
import { idStoreKey } from "../records.js";
import type { Recipient } from "./shares.js";

/** The bytes of a message no one stored: decoded, its defaults (shared and frozen, see `fromBinaryCached`). */
const NOTHING_STORED = new Uint8Array(0);

/** The module's name and store prefix. */
export const REVSHARE = "revshare";

/** The largest order router share, ppm. */
export const MAX_ORDER_ROUTER_SHARE_PPM = 800_000;

/** Errors of codespace `revshare`, as the real chain registers them. */
export const revshareErrors = {
  invalidAddress: registerError(REVSHARE, 1, "invalid address"),
  invalidRevenueSharePpm: registerError(REVSHARE, 2, "invalid revenue share ppm"),
  detailsNotFound: registerError(REVSHARE, 3, "MarketMapperRevShareDetails not found for marketId"),
  invalidRevShareConfig: registerError(REVSHARE, 4, "invalid unconditional revshare config"),
  revShareSafetyViolation: registerError(REVSHARE, 5, "rev shares greater than or equal to 100%"),
  orderRouterRevShareNotFound: registerError(REVSHARE, 8, "order router rev share not found"),
} as const;

/**
 * The bytes of a bech32 address, or revshare's invalid address error (1).
 *
 * @throws AbciError revshare 1.
 */
export function checkRevShareAddress(address: string): Uint8Array {
  try {
    return addressBytes(address);
  } catch {
    throw abciError(revshareErrors.invalidAddress, `invalid address ${address}`);
  }
}

const detailsKey = (marketId: number) => idStoreKey("mm_details", marketId);

/** Recipients decoded lately (valid ones; emptied when full): the fills of a market pay the same few. */
const decodedRecipients = new Map<string, Uint8Array>();
const KEPT_RECIPIENTS = 256;

/**
 * `addressBytes(address)` of a revenue share's recipient, decoded once while kept (a fresh copy
 * each call).
 *
 * @throws as `addressBytes` for an invalid address.
 */
export function recipientBytes(address: string): Uint8Array {
  let bytes = decodedRecipients.get(address);
  if (bytes === undefined) {
    bytes = addressBytes(address);
    if (decodedRecipients.size >= KEPT_RECIPIENTS) decodedRecipients.clear();
    decodedRecipients.set(address, bytes);
  }
  return bytes.slice();
}

/** The revenue share keeper (see the module comment); the clob asks it at placements and fills. */
export class RevShareKeeper {
  constructor(readonly bank: BankKeeper) {}

  /** A router's share in ppm, or undefined when none is set. */
  findRouterShare(ctx: StoreAccess, address: string): number | undefined {
    const bytes = ctx.store(REVSHARE).get(`router/${address}`);
    return bytes === undefined
      ? undefined
      : fromBinaryCached(revshare.OrderRouterRevShareSchema, bytes).sharePpm;
  }

  /**
   * The share of an order's router (0 without a router).
   *
   * @throws AbciError revshare 1 for a bad address, 8 for a router without a share.
   */
  routerShare(ctx: StoreAccess, address: string): number {
    if (address === "") return 0;
    checkRevShareAddress(address);
    const share = this.findRouterShare(ctx, address);
    if (share === undefined) {
      throw abciError(revshareErrors.orderRouterRevShareNotFound, `order router ${address}`);
    }
    return share;
  }

  /** A fill's router and its share, or undefined (no router, a bad address, no share: ignored). */
  routerRecipient(ctx: StoreAccess, address: string): Recipient | undefined {
    if (address === "") return undefined;
    try {
      return { address, ppm: this.routerShare(ctx, address) };
    } catch {
      return undefined;
    }
  }

  /** Stores a router's share. */
  setRouterShare(ctx: StoreAccess, value: revshare.OrderRouterRevShare): void {
    checkRevShareAddress(value.address);
    ctx.store(REVSHARE).set(`router/${value.address}`, toBinary(revshare.OrderRouterRevShareSchema, value));
  }

  /** The market mapper parameters (zeros before genesis writes them). */
  marketMapperParams(ctx: StoreAccess): revshare.MarketMapperRevenueShareParams {
    const bytes = ctx.store(REVSHARE).get("mm_params");
    return bytes === undefined
      ? wireCreate(wire.perpx_revshare_v1_MarketMapperRevenueShareParams)
      : wireDecodeCached(wire.perpx_revshare_v1_MarketMapperRevenueShareParams, bytes);
  }

  /**
   * Stores the market mapper parameters after the real chain's checks.
   *
   * @throws AbciError revshare 1 (address), 2 (a share of 100% or more).
   */
  setMarketMapperParams(ctx: StoreAccess, params: revshare.MarketMapperRevenueShareParams): void {
    checkRevShareAddress(params.address);
    if (params.revenueSharePpm >= 1_000_000) {
      throw abciError(revshareErrors.invalidRevenueSharePpm, `${params.revenueSharePpm}`);
    }
    ctx
      .store(REVSHARE)
      .set("mm_params", wireEncode(wire.perpx_revshare_v1_MarketMapperRevenueShareParams, params));
  }

  /** A market's market mapper details, or undefined. */
  marketMapperDetails(ctx: StoreAccess, marketId: number): revshare.MarketMapperRevShareDetails | undefined {
    const bytes = ctx.store(REVSHARE).get(detailsKey(marketId));
    return bytes === undefined
      ? undefined
      : wireDecodeCached(wire.perpx_revshare_v1_MarketMapperRevShareDetails, bytes);
  }

  /** Stores a market's market mapper details. */
  setMarketMapperDetails(
    ctx: StoreAccess,
    marketId: number,
    details: revshare.MarketMapperRevShareDetails,
  ): void {
    ctx
      .store(REVSHARE)
      .set(detailsKey(marketId), wireEncode(wire.perpx_revshare_v1_MarketMapperRevShareDetails, details));
  }

  /**
   * A new market's details (the real chain's `CreateNewMarketRevShare`, run by market creation):
   * the share expires `valid_days` after the block.
   */
  createMarketDetails(ctx: Context, marketId: number): void {
    const days = BigInt(this.marketMapperParams(ctx).validDays);
    this.setMarketMapperDetails(
      ctx,
      marketId,
      wireCreate(wire.perpx_revshare_v1_MarketMapperRevShareDetails, {
        expirationTs: ctx.block.timeMs / 1000n + days * 86_400n,
      }),
    );
  }

  /**
   * The market mapper of a market at the block and its share: undefined once expired (or at 0
   * ppm), "missing" for a market without details or a bad address (the chain's error).
   */
  marketMapperRecipient(ctx: Context, marketId: number): Recipient | undefined | "missing" {
    const details = this.marketMapperDetails(ctx, marketId);
    if (details === undefined) return "missing";
    if (details.expirationTs < ctx.block.timeMs / 1000n) return undefined;
    const params = this.marketMapperParams(ctx);
    try {
      recipientBytes(params.address);
    } catch {
      return "missing";
    }
    return params.revenueSharePpm === 0
      ? undefined
      : { address: params.address, ppm: params.revenueSharePpm };
  }

  /**
   * The unconditional recipients (none when nothing is stored); shared and frozen, as
   * `fromBinaryCached` gives it: every fill reads it.
   */
  unconditionalConfig(ctx: StoreAccess): revshare.UnconditionalRevShareConfig {
    const bytes = ctx.store(REVSHARE).get("unconditional");
    return fromBinaryCached(revshare.UnconditionalRevShareConfigSchema, bytes ?? NOTHING_STORED);
  }

  /** Stores the unconditional recipients. */
  setUnconditionalConfig(ctx: StoreAccess, config: revshare.UnconditionalRevShareConfig): void {
    ctx.store(REVSHARE).set("unconditional", toBinary(revshare.UnconditionalRevShareConfigSchema, config));
  }
}
