/**
 * Transaction messages for people: each `Any` decoded from protobuf (its JSON as the chain prints
 * it), and for the messages traders send, a line in human units (sizes and prices from the market's
 * quantums and subticks, USDC from quote quantums, coins by their decimals).
 */
import { quoteQuantumsToUsdc, toBech32 } from "@perpx/core";
import type { cosmosTx } from "@perpx/proto";
import { schemaOf, toCosmosJson, unpackAny } from "@perpx/proto";
import { coin } from "./format.js";
import { expandOperations, type Markets, marketOf, type OrderRow, obj, ordersOf } from "./orders.js";

type Any = NonNullable<cosmosTx.TxBody["messages"]>[number];
type Json = Record<string, unknown>;

/** One decoded message. */
export interface DecodedMessage {
  readonly typeUrl: string;
  /** The message as the chain's JSON (a short-term placement's tx bytes decoded), or the decode error. */
  readonly json: unknown;
  /** A line in human units, for the messages known here. */
  readonly summary: string | undefined;
  /** The orders it places, cancels, fills or removes, in human units. */
  readonly orders: readonly OrderRow[];
}

function subaccount(value: unknown): string {
  const id = obj(value);
  return `${String(id.owner ?? "")}/${String(id.number ?? 0)}`;
}

function orderLine(order: Json, markets: Markets): string {
  const [row] = ordersOf("/perpx.clob.v1.MsgPlaceOrder", { order }, markets);
  if (row === undefined) return "";
  if (row.size.endsWith(" quantums")) return `${row.side} ${row.size} at ${row.price}`;
  return `${row.side} ${row.size.slice(0, row.size.lastIndexOf(" "))} ${row.market} at ${row.price} for ${row.owner}/${row.subaccountNumber}, client id ${row.clientId}`;
}

function summarize(typeUrl: string, json: Json, markets: Markets): string | undefined {
  switch (typeUrl) {
    case "/cosmos.bank.v1beta1.MsgSend": {
      const amounts = (Array.isArray(json.amount) ? json.amount : []).map((c) =>
        coin(String(obj(c).amount ?? 0), String(obj(c).denom ?? "")),
      );
      return `send ${amounts.join(", ")} from ${String(json.from_address)} to ${String(json.to_address)}`;
    }
    case "/perpx.clob.v1.MsgPlaceOrder":
      return `place ${orderLine(obj(json.order), markets)}`;
    case "/perpx.clob.v1.MsgCancelOrder": {
      const id = obj(json.order_id);
      const market = marketOf(markets, id.clob_pair_id);
      return `cancel order ${String(id.client_id ?? 0)} of ${subaccount(id.subaccount_id)} on ${market?.ticker ?? `clob pair ${String(id.clob_pair_id ?? 0)}`}`;
    }
    case "/perpx.sending.v1.MsgDepositToSubaccount":
      return `deposit ${quoteQuantumsToUsdc(String(json.quantums ?? 0))} USDC from ${String(json.sender)} to ${subaccount(json.recipient)}`;
    case "/perpx.sending.v1.MsgWithdrawFromSubaccount":
      return `withdraw ${quoteQuantumsToUsdc(String(json.quantums ?? 0))} USDC from ${subaccount(json.sender)} to ${String(json.recipient)}`;
    case "/perpx.sending.v1.MsgCreateTransfer": {
      const transfer = obj(json.transfer);
      return `transfer ${quoteQuantumsToUsdc(String(transfer.amount ?? 0))} USDC from ${subaccount(transfer.sender)} to ${subaccount(transfer.recipient)}`;
    }
    case "/perpx.clob.v1.MsgProposedOperations": {
      const queue = (Array.isArray(json.operations_queue) ? json.operations_queue : []).map(obj);
      const matches = queue.filter((op) => op.match !== undefined);
      const fills = matches.reduce((sum, op) => {
        const orders = obj(obj(op.match).match_orders);
        return sum + (Array.isArray(orders.fills) ? orders.fills.length : 0);
      }, 0);
      const removals = queue.filter((op) => op.order_removal !== undefined).length;
      const placements = queue.filter((op) => op.short_term_order_placement !== undefined).length;
      return `proposed operations: ${fills} fills in ${matches.length} matches, ${removals} removals, ${placements} short-term placements`;
    }
    default:
      return undefined;
  }
}

/** Decodes each message of a tx body and summarizes the known ones. */
export function decodeMessages(messages: readonly Any[], markets: Markets): DecodedMessage[] {
  return messages.map((any) => {
    try {
      const schema = schemaOf(any.typeUrl);
      const json = obj(toCosmosJson(schema, unpackAny(any) as never));
      return {
        typeUrl: any.typeUrl,
        json: any.typeUrl === "/perpx.clob.v1.MsgProposedOperations" ? expandOperations(json) : json,
        summary: summarize(any.typeUrl, json, markets),
        orders: ordersOf(any.typeUrl, json, markets),
      };
    } catch (error) {
      return {
        typeUrl: any.typeUrl,
        json: error instanceof Error ? error.message : String(error),
        summary: undefined,
        orders: [],
      };
    }
  });
}

/** The signer of a tx from its `tx` event (`acc_seq` is `address/sequence`), else the first message's sender. */
export function signerOf(
  events: ReadonlyArray<{ type: string; attributes: ReadonlyArray<{ key: string; value: string }> }>,
): string | undefined {
  for (const event of events) {
    if (event.type !== "tx") continue;
    const accSeq = event.attributes.find((a) => a.key === "acc_seq")?.value;
    if (accSeq?.includes("/")) return accSeq.slice(0, accSeq.lastIndexOf("/"));
  }
  for (const event of events) {
    if (event.type !== "message") continue;
    const sender = event.attributes.find((a) => a.key === "sender")?.value;
    if (sender) return toBech32(sender);
  }
  return undefined;
}
