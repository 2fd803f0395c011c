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

/** CometBFT's `reInt`: what its URI handler reads as an integer. */
const GO_INT = /^-?[0-9]+$/;
/** The URI parameters CometBFT declares `*int` (the other integers are `int64`). */
const GO_INT_PARAMS = new Set(["page", "per_page", "limit"]);

/**
 * A conversion error of the URI form, as CometBFT's `httpParamsToArgs` reports it: HTTP 500 (see
 * `framing.ts`), code -32602, message `Invalid params`, data `error converting http params to
 * arguments: <Go's error>`.
 */
function uriError(reason: string): RpcError {
  return new RpcError(
    RpcErrorCode.InvalidParams,
    "Invalid params",
    `error converting http params to arguments: ${reason}`,
  );
}

/** Whether a byte is an ASCII hex digit. */
const isHexDigit = (b: number): boolean =>
  (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

/** Go's `%#U` of a byte read as a rune: `U+0078 'x'` (no character when it is not printable). */
function goRune(b: number): string {
  const point = `U+${b.toString(16).toUpperCase().padStart(4, "0")}`;
  const printable = (b >= 0x20 && b < 0x7f) || b >= 0xa1;
  return printable && b !== 0xad ? `${point} '${String.fromCharCode(b)}'` : point;
}

/** Go's `%q` of a string (printable ASCII as JSON quotes it). */
const goQuote = (text: string): string => JSON.stringify(text);

/** The JSON kind Go's decoder names in `cannot unmarshal <kind> into Go value of type T`. */
function jsonKind(value: unknown): string {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  return Array.isArray(value) ? "array" : "object";
}

/**
 * What Go's `json.Unmarshal` says of `text` decoded into a `goType` scalar (bool, int64, string,
 * []byte), or undefined when it decodes. Syntax errors name the first character, as Go's scanner
 * does for a value that cannot start there; other malformed texts get Go's most common message.
 */
function goDecodeError(text: string, goType: string): string | undefined {
  if (text.trim() === "") return "unexpected end of JSON input";
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const first = text.trimStart()[0] ?? "";
    if (!/^[-0-9"tfn[{]$/.test(first)) return `invalid character '${first}' looking for beginning of value`;
    return "unexpected end of JSON input";
  }
  if (value === null) return undefined;
  const isInt = goType === "int" || goType === "int64";
  const ok =
    (goType === "bool" && typeof value === "boolean") ||
    (goType !== "bool" && !isInt && typeof value === "string") ||
    (isInt && typeof value === "number" && /^-?[0-9]+$/.test(text.trim()));
  if (ok) return undefined;
  const kind = jsonKind(value);
  // Go names the literal of a number it could not store in an integer, only the kind otherwise.
  const what = kind === "number" && isInt ? `number ${text.trim()}` : kind;
  return `json: cannot unmarshal ${what} into Go value of type ${goType}`;
}

/** Converts one URI integer parameter as CometBFT's `_nonJSONStringToArg` and `cmtjson` do. */
function fromUriInt(name: string, raw: string): bigint | undefined {
  const goType = GO_INT_PARAMS.has(name) ? "int" : "int64";
  let digits: string;
  if (GO_INT.test(raw)) digits = raw;
  else if (raw.toLowerCase().startsWith("0x"))
    throw uriError(`got a hex string arg, but expected '${goType}'`);
  else if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    // cmtjson unwraps the quotes of a 64-bit integer and hands the inside to encoding/json.
    const inner = raw.slice(1, -1);
    // A quoted null leaves the new integer at zero.
    if (inner.trim() === "null") return 0n;
    const error = goDecodeError(inner, goType);
    if (error !== undefined) throw uriError(error);
    digits = inner.trim();
  } else if (raw === "null") return undefined;
  else throw uriError(`invalid 64-bit integer encoding ${goQuote(raw)}, expected string`);
  const value = BigInt(digits);
  if (value > 0x7fff_ffff_ffff_ffffn || value < -0x8000_0000_0000_0000n) {
    throw uriError(`json: cannot unmarshal number ${digits} into Go value of type ${goType}`);
  }
  if (value < 0n) throw invalidParam(name, `must be a non-negative integer (got ${raw})`);
  return value;
}

/** Converts one URI (`GET /method?name=value`) parameter by CometBFT's conventions. */
function fromUriParam(name: string, kind: Kind, raw: string): Value | undefined {
  switch (kind) {
    case "string":
      return unquote(raw) ?? raw;
    case "bool": {
      if (raw.toLowerCase().startsWith("0x")) throw uriError("got a hex string arg, but expected 'bool'");
      const error = goDecodeError(raw, "bool");
      if (error !== undefined) throw uriError(error);
      return raw.trim() === "null" ? undefined : raw.trim() === "true";
    }
    case "int":
      return fromUriInt(name, raw);
    case "hexbytes":
    case "bytes": {
      if (raw.startsWith("0x") || raw.startsWith("0X")) {
        // Go's hex.DecodeString: the first invalid byte, else an odd length.
        const body = Buffer.from(raw.slice(2), "utf8");
        const bad = body.findIndex((b) => !isHexDigit(b));
        if (bad !== -1) throw uriError(`encoding/hex: invalid byte: ${goRune(body[bad] as number)}`);
        if (body.length % 2 !== 0) throw uriError("encoding/hex: odd length hex string");
        return new Uint8Array(Buffer.from(body.toString("latin1"), "hex"));
      }
      const text = unquote(raw);
      if (text !== undefined) return new Uint8Array(Buffer.from(text, "utf8"));
      if (kind === "hexbytes") throw uriError(`invalid hex string: ${raw}`);
      // `tx` is CometBFT's types.Tx, `hash` a []byte; both go to encoding/json unquoted.
      throw uriError(
        goDecodeError(raw, name === "tx" ? "types.Tx" : "[]uint8") ?? "unexpected end of JSON input",
      );
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
    // CometBFT's getParam: an empty value is no value (the parameter's default).
    const raw = search.get(name);
    if (raw !== null && raw !== "") params[name] = fromUriParam(name, kind, raw);
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
