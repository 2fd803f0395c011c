/**
 * Bytes of the block-event stream's records, for the block log (`block-codec.ts`): JSON text with
 * integers as decimal strings and orders as their protobuf bytes in base64.
 */
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { DevnetError } from "../../devnet-error.js";
import type { IndexerEvent } from "./indexer-events.js";

const ORDER_KEYS = new Set(["taker", "maker", "order"]);

function toJson(key: string, value: unknown): unknown {
  if (typeof value === "bigint") return { $int: value.toString() };
  if (ORDER_KEYS.has(key) && typeof value === "object" && value !== null && "$typeName" in value) {
    return { $order: Buffer.from(toBinary(clob.OrderSchema, value as clob.Order)).toString("base64") };
  }
  return value;
}

function fromJson(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if ("$int" in value && typeof value.$int === "string") return BigInt(value.$int);
  if ("$order" in value && typeof value.$order === "string") {
    return fromBinary(clob.OrderSchema, Buffer.from(value.$order, "base64"));
  }
  return value;
}

/** Encodes indexer events as text ("" for none). */
export function encodeIndexerEvents(events: readonly IndexerEvent[] | undefined): string {
  if (events === undefined || events.length === 0) return "";
  return JSON.stringify(events, toJson);
}

/**
 * Decodes {@link encodeIndexerEvents}' text.
 *
 * @throws {DevnetError} (`malformed`) when the text is not a list of events.
 */
export function decodeIndexerEvents(text: string): IndexerEvent[] {
  if (text === "") return [];
  const parsed: unknown = JSON.parse(text, fromJson);
  if (!Array.isArray(parsed)) throw new DevnetError("malformed", "indexer events are not a list");
  return parsed as IndexerEvent[];
}
