/**
 * Reading one server frame: JSON text with a string `type` and a numeric `message_id`, or an
 * {@link IndexerMessageError} saying why not.
 */
import { IndexerMessageError } from "./errors.js";
import { readOrderbookFrame } from "./hot-frame.js";

/** A server message as the socket reads it (contents stay opaque until a channel types them). */
export interface Frame {
  readonly type: string;
  readonly message_id: number;
  readonly connection_id?: string;
  readonly channel?: string;
  readonly id?: string;
  readonly version?: string;
  readonly contents?: unknown;
  readonly message?: string;
  readonly subaccountNumber?: number;
}

// Strict: in Node, `ws` leaves text frames' UTF-8 to this decoder (`platform-node.ts`).
const decoder = new TextDecoder("utf-8", { fatal: true });

function text(data: unknown): string | undefined | null {
  if (typeof data === "string") return data;
  try {
    if (data instanceof ArrayBuffer) return decoder.decode(data);
    if (ArrayBuffer.isView(data)) return decoder.decode(data as Uint8Array);
  } catch {
    return null;
  }
  return undefined;
}

/** Parses a frame; never throws. */
export function readFrame(data: unknown): Frame | IndexerMessageError {
  const raw = text(data);
  if (raw === undefined) return new IndexerMessageError("not text", String(data));
  if (raw === null) return new IndexerMessageError("not UTF-8", String(data));
  const hot = readOrderbookFrame(raw);
  if (hot !== undefined) return hot;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return new IndexerMessageError("not JSON", raw);
  }
  if (typeof value !== "object" || value === null) return new IndexerMessageError("not an object", raw);
  const frame = value as Frame;
  if (typeof frame.type !== "string") return new IndexerMessageError("no type", raw);
  if (typeof frame.message_id !== "number" || !Number.isInteger(frame.message_id)) {
    return new IndexerMessageError("no integer message_id", raw);
  }
  return frame;
}

const encoder = new TextEncoder();

/**
 * The size in bytes of a frame larger than `maxBytes`, or undefined when it fits. A string is
 * measured as UTF-8, and only when its length leaves the answer in doubt.
 */
export function oversize(data: unknown, maxBytes: number): number | undefined {
  let bytes: number;
  if (typeof data === "string") {
    if (data.length * 3 <= maxBytes) return undefined;
    bytes = data.length > maxBytes ? data.length : encoder.encode(data).byteLength;
  } else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
    bytes = data.byteLength;
  } else {
    return undefined;
  }
  return bytes > maxBytes ? bytes : undefined;
}
