/**
 * The orders a message carries, in human units: a placement's market, side, size in the base asset
 * and price in USD (from quantums and subticks by the market's atomic resolution and quantum
 * conversion exponent, exact, as strings), a cancellation, and the proposer's operations: each
 * short-term placement decoded from its signed tx bytes, each fill's size, at the maker's price when
 * the maker's placement is in the same queue, and each removal with its reason.
 */
import { quantumsToSize, subticksToPrice } from "@perpx/core";
import type { PerpetualMarketResponseObject } from "@perpx/core/indexer";
import { cosmosTx, decodeMessage, schemaOf, toCosmosJson, unpackAny } from "@perpx/proto";
import { baseAsset, time } from "./format.js";

type Json = Record<string, unknown>;
/** The indexer's markets by ticker. */
export type Markets = Readonly<Record<string, PerpetualMarketResponseObject>>;

/** One order of a message, for a table: every figure with its unit. */
export interface OrderRow {
  /** `place`, `cancel`, `fill` or `remove`. */
  readonly action: string;
  /** The market's ticker, or `clob pair N` when the indexer does not list it. */
  readonly market: string;
  readonly side: string;
  /** The size in the base asset (`0.001 BTC`), or in quantums when the market is unknown. */
  readonly size: string;
  /** The price in USD, or in subticks when the market is unknown; empty when not known here. */
  readonly price: string;
  /** The owner's bech32 address. */
  readonly owner: string;
  readonly subaccountNumber: string;
  readonly clientId: string;
  /** Time in force, good-til, reduce-only; a fill's maker; a removal's reason. */
  readonly detail: string;
}

/** A JSON object, or an empty one. */
export function obj(value: unknown): Json {
  return typeof value === "object" && value !== null ? (value as Json) : {};
}

/** The market of a clob pair id. */
export function marketOf(markets: Markets, clobPairId: unknown): PerpetualMarketResponseObject | undefined {
  return Object.values(markets).find((m) => m.clobPairId === String(clobPairId ?? 0));
}

const paramsOf = (market: PerpetualMarketResponseObject) => ({
  atomicResolution: market.atomicResolution,
  quantumConversionExponent: market.quantumConversionExponent,
  stepBaseQuantums: market.stepBaseQuantums,
  subticksPerTick: market.subticksPerTick,
});

/**
 * An unsigned integer as the chain's JSON writes it (decimal digits, or a safe integer), read
 * strictly: hex, a fraction, a sign, blanks or anything else is undefined (`BigInt` would read
 * `"0x10"` as 16 and `""` as 0, and throw on `"1.5"`).
 */
export function unsignedOf(value: unknown): bigint | undefined {
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  return typeof value === "string" && /^\d+$/.test(value) ? BigInt(value) : undefined;
}

/** A value that is not what it should be, shown as such (cut to 40 characters). */
export function bad(what: string, value: unknown): string {
  const shown = JSON.stringify(value) ?? String(value);
  return `bad ${what} ${shown.length > 40 ? `${shown.slice(0, 40)}...` : shown}`;
}

/** A size of `quantums` on `market`, with its unit. */
function sizeOf(market: PerpetualMarketResponseObject | undefined, quantums: unknown): string {
  const q = unsignedOf(quantums ?? 0);
  if (q === undefined) return bad("quantums", quantums);
  if (market === undefined) return `${q} quantums`;
  return `${quantumsToSize(q, paramsOf(market))} ${baseAsset(market.ticker)}`;
}

/** A price of `subticks` on `market`, with its unit. */
function priceOf(market: PerpetualMarketResponseObject | undefined, subticks: unknown): string {
  const s = unsignedOf(subticks ?? 0);
  if (s === undefined) return bad("subticks", subticks);
  if (market === undefined) return `${s} subticks`;
  return `${subticksToPrice(s, paramsOf(market))} USD`;
}

function idParts(markets: Markets, orderId: unknown) {
  const id = obj(orderId);
  const sub = obj(id.subaccount_id);
  const market = marketOf(markets, id.clob_pair_id);
  return {
    market,
    ticker: market?.ticker ?? `clob pair ${String(id.clob_pair_id ?? 0)}`,
    owner: String(sub.owner ?? ""),
    subaccountNumber: String(sub.number ?? 0),
    clientId: String(id.client_id ?? 0),
  };
}

/** The key of an order id, to find a maker's placement. */
function idKey(orderId: unknown): string {
  const id = obj(orderId);
  const sub = obj(id.subaccount_id);
  return [sub.owner, sub.number ?? 0, id.client_id ?? 0, id.clob_pair_id ?? 0, id.order_flags ?? 0].join("/");
}

const side = (value: unknown) => String(value ?? "").replace("SIDE_", "");

/** A placed order's row. */
function placedOrder(order: Json, markets: Markets): OrderRow {
  const id = idParts(markets, order.order_id);
  const details = [
    String(order.time_in_force ?? "")
      .replace("TIME_IN_FORCE_", "")
      .toLowerCase(),
  ];
  if (order.good_til_block !== undefined) details.push(`good til block ${String(order.good_til_block)}`);
  if (order.good_til_block_time !== undefined)
    details.push(`good til ${time(new Date(Number(order.good_til_block_time) * 1000))}`);
  if (order.reduce_only === true) details.push("reduce-only");
  return {
    action: "place",
    market: id.ticker,
    side: side(order.side),
    size: sizeOf(id.market, order.quantums),
    price: priceOf(id.market, order.subticks),
    owner: id.owner,
    subaccountNumber: id.subaccountNumber,
    clientId: id.clientId,
    detail: details.filter((d) => d !== "" && d !== "unspecified").join(", "),
  };
}

/** The messages in the signed tx bytes of a short-term placement, as JSON; `[]` when they do not decode. */
function placementMessages(base64: string): Array<{ typeUrl: string; json: Json }> {
  try {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const raw = decodeMessage(cosmosTx.TxRawSchema, bytes);
    const body = decodeMessage(cosmosTx.TxBodySchema, raw.bodyBytes);
    return body.messages.map((any) => ({
      typeUrl: any.typeUrl,
      json: obj(toCosmosJson(schemaOf(any.typeUrl), unpackAny(any) as never)),
    }));
  } catch {
    return [];
  }
}

/** The proposer's operations with each short-term placement's bytes replaced by its messages. */
export function expandOperations(json: Json): Json {
  const queue = Array.isArray(json.operations_queue) ? json.operations_queue.map(obj) : [];
  return {
    ...json,
    operations_queue: queue.map((op) =>
      typeof op.short_term_order_placement === "string"
        ? { short_term_order_placement: placementMessages(op.short_term_order_placement) }
        : op,
    ),
  };
}

function operationRows(json: Json, markets: Markets): OrderRow[] {
  const queue = Array.isArray(json.operations_queue) ? json.operations_queue.map(obj) : [];
  const placed = new Map<string, Json>();
  const rows: OrderRow[] = [];
  for (const op of queue) {
    if (typeof op.short_term_order_placement === "string") {
      for (const message of placementMessages(op.short_term_order_placement)) {
        const order = obj(message.json.order);
        placed.set(idKey(order.order_id), order);
        rows.push(placedOrder(order, markets));
      }
    } else if (op.match !== undefined) {
      const match = obj(op.match);
      const orders = obj(match.match_orders);
      const liquidation = obj(match.match_perpetual_liquidation);
      const taker =
        match.match_orders !== undefined
          ? idParts(markets, orders.taker_order_id)
          : {
              ...idParts(markets, {
                subaccount_id: liquidation.liquidated,
                clob_pair_id: liquidation.clob_pair_id,
              }),
              clientId: "",
            };
      const takerSide =
        match.match_orders !== undefined
          ? side(placed.get(idKey(orders.taker_order_id))?.side)
          : liquidation.is_buy === true
            ? "BUY"
            : "SELL";
      const fills = (
        Array.isArray(orders.fills) ? orders.fills : Array.isArray(liquidation.fills) ? liquidation.fills : []
      ).map(obj);
      for (const fill of fills) {
        const maker = idParts(markets, fill.maker_order_id);
        const makerOrder = placed.get(idKey(fill.maker_order_id));
        rows.push({
          action: match.match_orders !== undefined ? "fill" : "liquidation fill",
          market: taker.ticker,
          side: takerSide,
          size: sizeOf(taker.market, fill.fill_amount),
          price: makerOrder === undefined ? "" : priceOf(taker.market, makerOrder.subticks),
          owner: taker.owner,
          subaccountNumber: taker.subaccountNumber,
          clientId: taker.clientId,
          detail: `maker ${maker.owner}/${maker.subaccountNumber}, client id ${maker.clientId}`,
        });
      }
    } else if (op.order_removal !== undefined) {
      const removal = obj(op.order_removal);
      const reason = String(removal.removal_reason ?? "")
        .replace("REMOVAL_REASON_", "")
        .toLowerCase()
        .replaceAll("_", " ");
      rows.push(idOnlyRow("remove", markets, removal.order_id, reason));
    }
  }
  return rows;
}

/** The row of an action that names an order by its id alone (a cancel, a removal): no side, size or price. */
function idOnlyRow(action: OrderRow["action"], markets: Markets, orderId: unknown, detail: string): OrderRow {
  const id = idParts(markets, orderId);
  return {
    action,
    market: id.ticker,
    side: "",
    size: "",
    price: "",
    owner: id.owner,
    subaccountNumber: id.subaccountNumber,
    clientId: id.clientId,
    detail,
  };
}

/** The orders of a message (its chain JSON) in human units; `[]` for a message that carries none. */
export function ordersOf(typeUrl: string, json: Json, markets: Markets): OrderRow[] {
  switch (typeUrl) {
    case "/perpx.clob.v1.MsgPlaceOrder":
      return [placedOrder(obj(json.order), markets)];
    case "/perpx.clob.v1.MsgCancelOrder":
      return [idOnlyRow("cancel", markets, json.order_id, "")];
    case "/perpx.clob.v1.MsgProposedOperations":
      return operationRows(json, markets);
    default:
      return [];
  }
}
