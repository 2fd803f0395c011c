/**
 * Governance messages of revenue shares: an order router's share of the fees of the orders it
 * routes, the market mapper's share (its parameters and a market's expiry) and the unconditional
 * recipients of a share of every fill's net revenue.
 */
import { InvalidArgumentError } from "@perpx/core";
import { revshare } from "@perpx/proto";
import { bech32Address, checkParams, uint32 } from "../../messages/validate.js";
import type { TxMessage } from "../../tx/encode.js";
import { authorityOf, type GovernanceParams, intIn, list, object, ppm, timestampOf } from "./fields.js";
import { govMsg } from "./msg.js";

/**
 * Parameters of {@link setOrderRouterRevShareMsg}.
 *
 * @example
 * ```ts
 * const params: SetOrderRouterRevShareParams = { address: LocalWallet.generate().address, sharePpm: 500_000 };
 * ```
 */
export interface SetOrderRouterRevShareParams extends GovernanceParams {
  /** The order router's bech32 address. */
  address: string;
  /** Its share of the fees, ppm (the chain takes at most 800,000). */
  sharePpm: number;
}

/**
 * Builds a `MsgSetOrderRouterRevShare` (governance).
 *
 * @param params - the message's fields in chain units (`SetOrderRouterRevShareParams`: each field
 *   is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = setOrderRouterRevShareMsg({ address: LocalWallet.generate().address, sharePpm: 500_000 });
 * msg.typeUrl; // "/perpx.revshare.v1.MsgSetOrderRouterRevShare"
 * ```
 */
export function setOrderRouterRevShareMsg(
  params: SetOrderRouterRevShareParams,
): TxMessage<typeof revshare.MsgSetOrderRouterRevShareSchema> {
  checkParams(params, "setOrderRouterRevShareMsg");
  return govMsg(revshare.MsgSetOrderRouterRevShareSchema, {
    authority: authorityOf(params),
    orderRouterRevShare: {
      address: bech32Address(params.address),
      sharePpm: ppm(params.sharePpm, "sharePpm"),
    },
  });
}

/**
 * Parameters of {@link setMarketMapperRevenueShareMsg}.
 *
 * @example
 * ```ts
 * const params: SetMarketMapperRevenueShareParams = { address: LocalWallet.generate().address, revenueSharePpm: 100_000, validDays: 30 };
 * ```
 */
export interface SetMarketMapperRevenueShareParams extends GovernanceParams {
  /** The bech32 address paid the market mapper's share. */
  address: string;
  /** Its share of each fill's net revenue, ppm (below 1,000,000). */
  revenueSharePpm: number;
  /** Days after a market's creation during which the share is paid. */
  validDays: number;
}

/**
 * Builds a `MsgSetMarketMapperRevenueShare` (governance): the market mapper's address, share and
 * the days it lasts for each new market.
 *
 * @param params - the message's fields in chain units (`SetMarketMapperRevenueShareParams`: each
 *   field is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = setMarketMapperRevenueShareMsg({ address: LocalWallet.generate().address, revenueSharePpm: 100_000, validDays: 30 });
 * msg.typeUrl; // "/perpx.revshare.v1.MsgSetMarketMapperRevenueShare"
 * ```
 */
export function setMarketMapperRevenueShareMsg(
  params: SetMarketMapperRevenueShareParams,
): TxMessage<typeof revshare.MsgSetMarketMapperRevenueShareSchema> {
  checkParams(params, "setMarketMapperRevenueShareMsg");
  return govMsg(revshare.MsgSetMarketMapperRevenueShareSchema, {
    authority: authorityOf(params),
    params: {
      address: bech32Address(params.address),
      revenueSharePpm: intIn(params.revenueSharePpm, "revenueSharePpm", 0, 999_999),
      validDays: uint32(params.validDays, "validDays"),
    },
  });
}

/**
 * Parameters of {@link setMarketMapperRevShareDetailsForMarketMsg}.
 *
 * @example
 * ```ts
 * const params: SetMarketMapperRevShareDetailsForMarketParams = { marketId: 0, expiresAt: new Date("2030-01-01T00:00:00Z") };
 * ```
 */
export interface SetMarketMapperRevShareDetailsForMarketParams extends GovernanceParams {
  /** The oracle market id. */
  marketId: number;
  /** When the market mapper's share of the market's fills ends (whole seconds). */
  expiresAt: Date;
}

/**
 * Builds a `MsgSetMarketMapperRevShareDetailsForMarket` (governance): when a market's market
 * mapper share expires.
 *
 * @param params - the message's fields in chain units
 *   (`SetMarketMapperRevShareDetailsForMarketParams`: each field is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = setMarketMapperRevShareDetailsForMarketMsg({ marketId: 0, expiresAt: new Date("2030-01-01T00:00:00Z") });
 * msg.value.params?.expirationTs; // 1893456000n
 * ```
 */
export function setMarketMapperRevShareDetailsForMarketMsg(
  params: SetMarketMapperRevShareDetailsForMarketParams,
): TxMessage<typeof revshare.MsgSetMarketMapperRevShareDetailsForMarketSchema> {
  checkParams(params, "setMarketMapperRevShareDetailsForMarketMsg");
  const { seconds } = timestampOf(params.expiresAt, "expiresAt");
  if (seconds < 0n) throw new InvalidArgumentError("expiresAt", "must not be before 1970");
  return govMsg(revshare.MsgSetMarketMapperRevShareDetailsForMarketSchema, {
    authority: authorityOf(params),
    marketId: uint32(params.marketId, "marketId"),
    params: { expirationTs: seconds },
  });
}

/**
 * Parameters of {@link updateUnconditionalRevShareConfigMsg}.
 *
 * @example
 * ```ts
 * const params: UpdateUnconditionalRevShareConfigParams = { recipients: [{ address: LocalWallet.generate().address, sharePpm: 50_000 }] };
 * ```
 */
export interface UpdateUnconditionalRevShareConfigParams extends GovernanceParams {
  /** Who receives a share of every fill's net revenue, and how much (ppm; below 1,000,000 in all). */
  recipients: readonly { address: string; sharePpm: number }[];
}

/**
 * Builds a `MsgUpdateUnconditionalRevShareConfig` (governance): the recipients of a share of every
 * fill's net revenue.
 *
 * @param params - the message's fields in chain units (`UpdateUnconditionalRevShareConfigParams`:
 *   each field is documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built (the shares must
 * add up to less than 1,000,000 ppm).
 *
 * @example
 * ```ts
 * const msg = updateUnconditionalRevShareConfigMsg({ recipients: [{ address: LocalWallet.generate().address, sharePpm: 50_000 }] });
 * msg.value.config?.configs.length; // 1
 * ```
 */
export function updateUnconditionalRevShareConfigMsg(
  params: UpdateUnconditionalRevShareConfigParams,
): TxMessage<typeof revshare.MsgUpdateUnconditionalRevShareConfigSchema> {
  checkParams(params, "updateUnconditionalRevShareConfigMsg");
  const configs = list(params.recipients, "recipients").map((r, i) => ({
    address: bech32Address(object(r, `recipients[${i}]`).address),
    sharePpm: ppm(r.sharePpm, `recipients[${i}].sharePpm`),
  }));
  const total = configs.reduce((sum, c) => sum + c.sharePpm, 0);
  if (total >= 1_000_000) {
    throw new InvalidArgumentError("recipients", `shares must add up to less than 1000000 ppm, got ${total}`);
  }
  return govMsg(revshare.MsgUpdateUnconditionalRevShareConfigSchema, {
    authority: authorityOf(params),
    config: { configs },
  });
}
