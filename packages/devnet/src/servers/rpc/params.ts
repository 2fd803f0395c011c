/**
 * Method parameters: their declared kinds, and their conversion from JSON-RPC params (POST or
 * WebSocket: by position or by name) and from URI query strings (`GET /method?name=value`, with
 * CometBFT's conventions: "quoted strings", 0x-prefixed hex).
 */
import type { Json } from "../comet-json.js";
import { fromBase64, fromHex, parseUint } from "../encoding.js";
import { invalidParam, RpcError, RpcErrorCode } from "./errors.js";

/** The kind of a parameter. */
export type Kind = "string" | "int" | "hexbytes" | "bytes" | "bool";
/** A converted parameter value. */
export type Value = string | bigint | Uint8Array | boolean;
/** A method's converted parameters, by name. */
export type Params = Record<string, Value | undefined>;
/** A method's parameters, in positional order. */
export type ParamSpec = ReadonlyArray<readonly [string, Kind]>;

/** One RPC method: its parameters and what it answers. */
export interface RpcMethod {
  readonly params: ParamSpec;
  run(params: Params): Json | Promise<Json>;
}

/** Methods by name. */
export type MethodTable = Readonly<Record<string, RpcMethod>>;

/** Converts one JSON (POST or WebSocket) parameter. */
function fromJsonParam(name: string, kind: Kind, raw: unknown): Value | undefined {
  if (raw === undefined || raw === null) return undefined;
  switch (kind) {
    case "string":
      if (typeof raw !== "string") throw invalidParam(name, "must be a string");
      return raw;
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      throw invalidParam(name, "must be a boolean");
    case "int": {
      if (typeof raw === "number" && Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw);
      if (typeof raw === "string") {
        if (raw === "") return undefined;
        const v = parseUint(raw);
        if (v !== undefined) return v;
      }
      throw invalidParam(name, `must be a non-negative integer (got ${JSON.stringify(raw)})`);
    }
    case "hexbytes": {
      if (typeof raw !== "string") throw invalidParam(name, "must be a hex string");
      const bytes = fromHex(raw);
      if (bytes === undefined) throw invalidParam(name, "must be hex");
      return bytes;
    }
    case "bytes": {
      if (typeof raw !== "string") throw invalidParam(name, "must be a base64 string");
      const bytes = fromBase64(raw);
      if (bytes === undefined) throw invalidParam(name, "must be base64");
      return bytes;
    }
  }
}

function unquote(text: string): string | undefined {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      const v: unknown = JSON.parse(text);
      return typeof v === "string" ? v : undefined;
    } catch {
      return text.slice(1, -1);
    }
  }
  return undefined;
}

/** Converts one URI (`GET /method?name=value`) parameter by CometBFT's conventions. */
function fromUriParam(name: string, kind: Kind, raw: string): Value | undefined {
  switch (kind) {
    case "string":
      return unquote(raw) ?? raw;
    case "bool": {
      const text = unquote(raw) ?? raw;
      if (text === "true" || text === "false") return text === "true";
      throw invalidParam(name, "must be true or false");
    }
    case "int": {
      const text = unquote(raw) ?? raw;
      if (text === "") return undefined;
      const v = parseUint(text);
      if (v === undefined) throw invalidParam(name, `must be a non-negative integer (got ${raw})`);
      return v;
    }
    case "hexbytes":
    case "bytes": {
      if (raw.startsWith("0x") || raw.startsWith("0X")) {
        const bytes = fromHex(raw);
        if (bytes === undefined) throw invalidParam(name, "must be 0x-prefixed hex");
        return bytes;
      }
      const text = unquote(raw);
      if (text !== undefined) return new Uint8Array(Buffer.from(text, "utf8"));
      throw invalidParam(name, 'must be 0x-prefixed hex or a "quoted string"');
    }
  }
}

/** The params of a JSON-RPC request (an array by position, or an object by name). */
export function jsonParams(spec: ParamSpec, raw: unknown): Params {
  const params: Params = {};
  if (raw === undefined || raw === null) return params;
  if (Array.isArray(raw)) {
    spec.forEach(([name, kind], i) => {
      params[name] = fromJsonParam(name, kind, raw[i]);
    });
    return params;
  }
  if (typeof raw !== "object") {
    throw new RpcError(RpcErrorCode.InvalidParams, "Invalid params: params must be an object or an array");
  }
  const object = raw as Record<string, unknown>;
  for (const [name, kind] of spec) params[name] = fromJsonParam(name, kind, object[name]);
  return params;
}

/** The params of a `GET /method?...` request. */
export function uriParams(spec: ParamSpec, search: URLSearchParams): Params {
  const params: Params = {};
  for (const [name, kind] of spec) {
    const raw = search.get(name);
    if (raw !== null) params[name] = fromUriParam(name, kind, raw);
  }
  return params;
}

/** A required bytes parameter. */
export function requireBytes(params: Params, name: string): Uint8Array {
  const v = params[name];
  if (!(v instanceof Uint8Array)) throw invalidParam(name, "is required");
  return v;
}

/** A required, non-empty string parameter. */
export function requireString(params: Params, name: string): string {
  const v = params[name];
  if (typeof v !== "string" || v === "") throw invalidParam(name, "is required");
  return v;
}
