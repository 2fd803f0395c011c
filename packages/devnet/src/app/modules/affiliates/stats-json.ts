/**
 * The JSON the affiliate stats store for a block's fills, spelled directly: the same bytes as
 * `JSON.stringify` of the stored object (a fill) or number (the block's fill count), at a fraction
 * of its cost on the path every fill takes.
 */
import { fromUtf8 } from "../../lib/codec.js";

/** A fill's attribution as the block's stats store it. */
interface FillAttribution {
  readonly role: "taker" | "maker";
  readonly referrer: string;
  readonly volume: bigint;
}

/** What a block's stats store of a fill. */
export interface FillRecord {
  readonly taker: string;
  readonly maker: string;
  readonly notional: bigint;
  readonly affiliateFee: bigint;
  readonly attributions: readonly FillAttribution[];
}

/**
 * `JSON.stringify` of the stored fill `{ taker, maker, notional, affiliateFee, attributions: [{
 * role, referrer, volume }] }`, amounts as decimal strings (a bigint's decimal spelling needs no
 * escaping; the addresses are escaped by `JSON.stringify` itself).
 */
export function storedFillJson(fill: FillRecord): string {
  let attributions = "";
  for (const a of fill.attributions) {
    if (attributions !== "") attributions += ",";
    attributions += `{"role":"${a.role}","referrer":${JSON.stringify(a.referrer)},"volume":"${a.volume}"}`;
  }
  return `{"taker":${JSON.stringify(fill.taker)},"maker":${JSON.stringify(fill.maker)},"notional":"${fill.notional}","affiliateFee":"${fill.affiliateFee}","attributions":[${attributions}]}`;
}

/** The longest count read digit by digit (beyond it a double may round: JSON.parse reads it). */
const MAX_DIGITS = 15;

/**
 * `JSON.parse` of stored count bytes: a non-negative integer's decimal digits (no leading zero)
 * read directly, anything else handed to `JSON.parse` (which throws as it would).
 */
export function decodeCount(bytes: Uint8Array): number {
  const length = bytes.length;
  if (length === 0 || length > MAX_DIGITS || (length > 1 && bytes[0] === 0x30)) return parsed(bytes);
  let value = 0;
  for (let i = 0; i < length; i++) {
    const digit = (bytes[i] as number) - 0x30;
    if (digit < 0 || digit > 9) return parsed(bytes);
    value = value * 10 + digit;
  }
  return value;
}

function parsed(bytes: Uint8Array): number {
  return JSON.parse(fromUtf8(bytes)) as number;
}

/** The UTF-8 of `JSON.stringify(count)` (ASCII for any number). */
export function encodeCount(count: number): Uint8Array {
  const text = JSON.stringify(count);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}
