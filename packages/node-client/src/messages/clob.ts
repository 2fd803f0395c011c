import { create } from "@bufbuild/protobuf";
import { InvalidOrderError, type SubaccountRef, sizeToQuantums } from "@perpx/core";
import { clob, typeUrlOf } from "@perpx/proto";
import type { TxMessage } from "../tx/encode.js";
import { clobPairIdOf, type OrderMarketRef, orderWireAmounts, triggerSubticksOf } from "./market.js";
import {
  type ConditionType,
  ORDER_FLAGS,
  type OrderKind,
  type OrderSide,
  type PlaceOrderParams,
  type TimeInForce,
} from "./orderTypes.js";
import { twapParametersOf } from "./twap.js";
import { bech32Address, checkParams, positiveOrderField, subaccountId, uint32 } from "./validate.js";

/** The largest builder fee, ppm (the chain's `MaxBuilderCodeFeePpm`). */
const MAX_BUILDER_FEE_PPM = 10_000;

/** The forms of a zero price (a market TWAP's subticks). */
const ZERO: ReadonlySet<unknown> = new Set([0, 0n, "0"]);

/**
 * The most cancels one `MsgBatchCancel` may carry.
 *
 * @example
 * ```ts
 * // One batch cancel holds at most this many client ids; send more as several.
 * const clientIds = Array.from({ length: 250 }, (_, i) => i + 1);
 * const batches = Math.ceil(clientIds.length / MAX_BATCH_CANCELS);
 * batches; // 3
 * ```
 */
export const MAX_BATCH_CANCELS = 100;

const SIDES: Record<OrderSide, clob.Order_Side> = { BUY: clob.Order_Side.BUY, SELL: clob.Order_Side.SELL };
const TIME_IN_FORCE: Record<TimeInForce, clob.Order_TimeInForce> = {
  GTC: clob.Order_TimeInForce.UNSPECIFIED,
  IOC: clob.Order_TimeInForce.IOC,
  POST_ONLY: clob.Order_TimeInForce.POST_ONLY,
  FILL_OR_KILL: clob.Order_TimeInForce.FILL_OR_KILL,
};
const CONDITIONS: Record<ConditionType, clob.Order_ConditionType> = {
  STOP_LOSS: clob.Order_ConditionType.STOP_LOSS,
  TAKE_PROFIT: clob.Order_ConditionType.TAKE_PROFIT,
};

function orderId(
  params: { subaccount: SubaccountRef; clientId: number; kind: OrderKind },
  clobPairId: number,
) {
  if (!(params.kind in ORDER_FLAGS)) {
    throw new InvalidOrderError(
      "kind",
      `must be short-term, long-term, conditional or twap, got ${String(params.kind)}`,
    );
  }
  // Literals rather than protobuf-es `create` here and in `placeOrderMsg` (on the signing path of
  // every order): the same plain objects, every field set, without `create`'s walk over the schema.
  // The types list every field, so a field added to the proto fails to compile here.
  const id: clob.OrderId = {
    $typeName: "perpx.clob.v1.OrderId",
    subaccountId: subaccountId(params.subaccount, "subaccount"),
    clientId: uint32(params.clientId, "clientId"),
    orderFlags: ORDER_FLAGS[params.kind],
    clobPairId: uint32(clobPairId, "clobPairId"),
  };
  return id;
}

function goodTil(params: { kind: OrderKind; goodTilBlock?: number; goodTilBlockTime?: number }) {
  if (params.kind === "short-term") {
    const block = params.goodTilBlock;
    if (block === undefined || !Number.isInteger(block) || block <= 0 || block > 0xffff_ffff) {
      throw new InvalidOrderError(
        "goodTilBlock",
        `a short-term order needs a positive block height, got ${String(block)}`,
      );
    }
    return { case: "goodTilBlock" as const, value: block };
  }
  const time = params.goodTilBlockTime;
  if (time === undefined || !Number.isInteger(time) || time <= 0 || time > 0xffff_ffff) {
    throw new InvalidOrderError(
      "goodTilBlockTime",
      `a ${params.kind} order needs a positive unix time in seconds, got ${String(time)}`,
    );
  }
  return { case: "goodTilBlockTime" as const, value: time };
}

/**
 * Builds a `MsgPlaceOrder` (short-term, long-term, conditional or TWAP). Checks the shape of the
 * order (addresses, subaccount number, positive size and price, the expiry that matches the kind,
 * a TWAP's schedule and tolerance as the chain bounds them, and with a `market` that each TWAP
 * suborder is at least one step); market rules (step, tick) are otherwise the chain's.
 *
 * @param params - the order (see {@link PlaceOrderParams}).
 *
 * @returns `{ typeUrl: "/perpx.clob.v1.MsgPlaceOrder", value }`.
 * @throws {InvalidOrderError | InvalidAddressError | InvalidSubaccountError | InvalidArgumentError} before anything is signed.
 *
 * @example
 * ```ts
 * const msg = placeOrderMsg({
 *   subaccount: { owner: wallet.address, number: 0 },
 *   clientId: 42, clobPairId: 0, side: "BUY",
 *   quantums: 1_000_000n, subticks: 2_868_800_000n,
 *   kind: "long-term", goodTilBlockTime: Math.floor(Date.now() / 1000) + 3600,
 * });
 * // A market TWAP: 0.005 BTC in five suborders a minute apart, each at most 1% above the oracle.
 * const twap = placeOrderMsg({
 *   subaccount: { owner: wallet.address, number: 0 },
 *   clientId: 43, market: btc, side: "BUY", size: "0.005", price: "0",
 *   kind: "twap", goodTilBlockTime: Math.floor(Date.now() / 1000) + 3600,
 *   twap: { durationSeconds: 300, intervalSeconds: 60, priceTolerancePpm: 10_000 },
 * });
 * twap.value.order?.orderId?.orderFlags; // 128
 * twap.value.order?.twapParameters?.interval; // 60
 * ```
 */
export function placeOrderMsg(params: PlaceOrderParams): TxMessage<typeof clob.MsgPlaceOrderSchema> {
  checkParams(params, "placeOrderMsg");
  const side = SIDES[params.side];
  if (side === undefined)
    throw new InvalidOrderError("side", `must be BUY or SELL, got ${String(params.side)}`);
  const timeInForce = TIME_IN_FORCE[params.timeInForce ?? "GTC"];
  if (timeInForce === undefined) {
    throw new InvalidOrderError(
      "timeInForce",
      `must be GTC, IOC, POST_ONLY or FILL_OR_KILL, got ${String(params.timeInForce)}`,
    );
  }
  if (params.reduceOnly !== undefined && typeof params.reduceOnly !== "boolean") {
    throw new InvalidOrderError("reduceOnly", `must be true or false, got ${typeof params.reduceOnly}`);
  }
  let conditionType = clob.Order_ConditionType.UNSPECIFIED;
  let trigger = 0n;
  if (params.kind === "conditional") {
    conditionType = CONDITIONS[params.conditionType];
    if (conditionType === undefined) {
      throw new InvalidOrderError(
        "conditionType",
        `must be STOP_LOSS or TAKE_PROFIT, got ${String(params.conditionType)}`,
      );
    }
    trigger = positiveOrderField(triggerSubticksOf(params), "triggerSubticks");
  }
  // A TWAP may have no price (subticks or price 0): a market TWAP, its suborders priced at the oracle.
  const marketTwap = params.kind === "twap" && ZERO.has("market" in params ? params.price : params.subticks);
  const amounts = orderWireAmounts(
    marketTwap && "market" in params
      ? {
          clobPairId: clobPairIdOf(params),
          quantums: sizeToQuantums(params.size, params.market),
          subticks: 0n,
        }
      : params,
  );
  const id = orderId(params, amounts.clobPairId);
  const quantums = positiveOrderField(amounts.quantums, "quantums");
  const subticks = marketTwap ? 0n : positiveOrderField(amounts.subticks, "subticks");
  const order: clob.Order = {
    $typeName: "perpx.clob.v1.Order",
    side,
    quantums,
    subticks,
    goodTilOneof: goodTil(params),
    timeInForce,
    reduceOnly: params.reduceOnly ?? false,
    clientMetadata: uint32(params.clientMetadata ?? 0, "clientMetadata"),
    conditionType,
    conditionalOrderTriggerSubticks: trigger,
    orderRouterAddress: params.orderRouterAddress ? bech32Address(params.orderRouterAddress) : "",
    orderId: id,
  };
  if (params.kind === "twap") {
    const market = "market" in params ? params.market : undefined;
    const step = market === undefined ? undefined : { quantums, stepBaseQuantums: market.stepBaseQuantums };
    order.twapParameters = twapParametersOf(params.twap, step);
  }
  if (params.builderCode) {
    const { feePpm } = params.builderCode;
    if (!Number.isInteger(feePpm) || feePpm < 1 || feePpm > MAX_BUILDER_FEE_PPM) {
      throw new InvalidOrderError(
        "builderCode.feePpm",
        `must be a whole number of ppm from 1 to ${MAX_BUILDER_FEE_PPM} (the chain's bound, clob 50), got ${String(feePpm)}`,
      );
    }
    order.builderCodeParameters = create(clob.BuilderCodeParametersSchema, {
      builderAddress: bech32Address(params.builderCode.builderAddress),
      feePpm,
    });
  }
  const value: clob.MsgPlaceOrder = { $typeName: "perpx.clob.v1.MsgPlaceOrder", order };
  return { typeUrl: typeUrlOf(clob.MsgPlaceOrderSchema), value };
}

/**
 * Parameters of {@link cancelOrderMsg}.
 *
 * @example
 * ```ts
 * const { height } = await client.getLatestBlock();
 * const params: CancelOrderParams = { subaccount, clientId: 1, clobPairId: 0, kind: "short-term", goodTilBlock: Number(height) + 10 };
 * ```
 */
export type CancelOrderParams = {
  /** The subaccount that placed the order. */
  subaccount: SubaccountRef;
  /** The order's client id. */
  clientId: number;
} & OrderMarketRef &
  (
    | {
        /** Cancels a short-term order. */
        kind: "short-term";
        /** The cancel is valid until this height (same window as placement). */
        goodTilBlock: number;
      }
    | {
        /** Cancels a stateful order (a TWAP: the chain places no more of its suborders). */
        kind: "long-term" | "conditional" | "twap";
        /** Unix seconds; at least the order's own goodTilBlockTime. */
        goodTilBlockTime: number;
      }
  );

/**
 * Builds a `MsgCancelOrder` for a short-term or stateful order.
 *
 * @param params - the message's fields in chain units (`CancelOrderParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidOrderError | InvalidAddressError | InvalidSubaccountError} before anything is signed.
 *
 * @example
 * ```ts
 * const goodTilBlockTime = Math.floor(Date.now() / 1000) + 3600;
 * const msg = cancelOrderMsg({ subaccount, clientId: 42, clobPairId: 0, kind: "long-term", goodTilBlockTime });
 * msg.value.orderId?.clientId; // 42
 * ```
 */
export function cancelOrderMsg(params: CancelOrderParams): TxMessage<typeof clob.MsgCancelOrderSchema> {
  checkParams(params, "cancelOrderMsg");
  return {
    typeUrl: typeUrlOf(clob.MsgCancelOrderSchema),
    value: create(clob.MsgCancelOrderSchema, {
      orderId: orderId(params, clobPairIdOf(params)),
      goodTilOneof: goodTil(params),
    }),
  };
}

/**
 * Parameters of {@link batchCancelMsg}.
 *
 * @example
 * ```ts
 * const { height } = await client.getLatestBlock();
 * const params: BatchCancelParams = { subaccount, cancels: [{ clobPairId: 0, clientIds: [1, 2] }], goodTilBlock: Number(height) + 10 };
 * ```
 */
export interface BatchCancelParams {
  /** The subaccount whose short-term orders are cancelled. */
  subaccount: SubaccountRef;
  /** Per market (`clobPairId` or `market`), the client ids to cancel (at most 100 in total). */
  cancels: ReadonlyArray<OrderMarketRef & { clientIds: readonly number[] }>;
  /** The cancels are valid until this height. */
  goodTilBlock: number;
}

/**
 * Builds a `MsgBatchCancel` of short-term orders (at most {@link MAX_BATCH_CANCELS} in total).
 *
 * @param params - the message's fields in chain units (`BatchCancelParams`: each field is
 *   documented there).
 * @returns the message (type URL and protobuf value) to pass to `sendTx` or an action; nothing is
 *   signed or sent.
 * @throws {InvalidOrderError | InvalidAddressError | InvalidSubaccountError} before anything is signed.
 *
 * @example
 * ```ts
 * const { height } = await client.getLatestBlock();
 * const msg = batchCancelMsg({ subaccount, cancels: [{ clobPairId: 0, clientIds: [1, 2, 3] }], goodTilBlock: Number(height) + 10 });
 * msg.value.shortTermCancels[0]?.clientIds; // [1, 2, 3]
 * ```
 */
export function batchCancelMsg(params: BatchCancelParams): TxMessage<typeof clob.MsgBatchCancelSchema> {
  checkParams(params, "batchCancelMsg");
  const total = params.cancels.reduce((n, batch) => n + batch.clientIds.length, 0);
  if (total === 0) throw new InvalidOrderError("cancels", "must name at least one order");
  if (total > MAX_BATCH_CANCELS) {
    throw new InvalidOrderError("cancels", `at most ${MAX_BATCH_CANCELS} cancels per batch, got ${total}`);
  }
  const goodTilBlock = goodTil({ kind: "short-term", goodTilBlock: params.goodTilBlock }).value;
  return {
    typeUrl: typeUrlOf(clob.MsgBatchCancelSchema),
    value: create(clob.MsgBatchCancelSchema, {
      subaccountId: subaccountId(params.subaccount, "subaccount"),
      shortTermCancels: params.cancels.map((batch, i) => ({
        clobPairId: uint32(clobPairIdOf(batch), `cancels[${i}].clobPairId`),
        clientIds: batch.clientIds.map((id, j) => uint32(id, `cancels[${i}].clientIds[${j}]`)),
      })),
      goodTilBlock,
    }),
  };
}

/**
 * True when a message is a short-term clob message (short-term place or cancel, or a batch cancel):
 * such a transaction pays no fee and uses no sequence, and must hold exactly one message.
 *
 * @param message - a message about to be sent.
 * @returns `true` for a short-term place, cancel or batch cancel: its transaction takes no sequence
 *   and never enters a block.
 * @example
 * ```ts
 * const order = { subaccount, clientId: 1, side: "BUY", market: btc, size: "0.001", price: "65000" } as const;
 * isShortTermClobMessage(placeOrderMsg({ ...order, kind: "short-term", goodTilBlock: 1_000 })); // true
 * isShortTermClobMessage(placeOrderMsg({ ...order, kind: "long-term", goodTilBlockTime: 1_900_000_000 })); // false
 * ```
 */
export function isShortTermClobMessage(message: TxMessage): boolean {
  switch (message.typeUrl) {
    case "/perpx.clob.v1.MsgBatchCancel":
      return true;
    case "/perpx.clob.v1.MsgPlaceOrder":
      return (message.value as clob.MsgPlaceOrder).order?.orderId?.orderFlags === 0;
    case "/perpx.clob.v1.MsgCancelOrder":
      return (message.value as clob.MsgCancelOrder).orderId?.orderFlags === 0;
    default:
      return false;
  }
}

const CLOB_FREE = new Set([
  "/perpx.clob.v1.MsgPlaceOrder",
  "/perpx.clob.v1.MsgCancelOrder",
  "/perpx.clob.v1.MsgBatchCancel",
  "/perpx.clob.v1.MsgUpdateLeverage",
]);

/**
 * True when a message sends its transaction down the clob's fee-free ante path (place, cancel,
 * batch cancel, update leverage): no fee is charged, so none is paid.
 *
 * @param message - a message about to be sent.
 * @returns `true` when the chain charges no fee for it, so the transaction is sent without one.
 * @example
 * ```ts
 * const order = { subaccount, clientId: 1, side: "BUY", market: btc, size: "0.001", price: "65000" } as const;
 * isFeeFreeClobMessage(placeOrderMsg({ ...order, kind: "short-term", goodTilBlock: 1_000 })); // true
 * isFeeFreeClobMessage(bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })); // false
 * ```
 */
export function isFeeFreeClobMessage(message: TxMessage): boolean {
  return CLOB_FREE.has(message.typeUrl);
}
