import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { InvalidArgumentError } from "@perpx/errors";

const U64_MAX = (1n << 64n) - 1n;
const PORT_ID = /^[a-zA-Z0-9._+\-#[\]<>]{2,128}$/;
const CHANNEL_ID = /^channel-(0|[1-9][0-9]{0,19})$/;
const CONNECTION_ID = /^connection-(0|[1-9][0-9]{0,19})$/;
const CLIENT_ID = /^([0-9a-z][0-9a-z-]*[0-9a-z])-(0|[1-9][0-9]{0,19})$/;
const BASE_DENOM = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;
const IBC_DENOM = /^ibc\/[0-9A-F]{64}$/;

function sequenceFits(id: string): boolean {
  const digits = id.slice(id.lastIndexOf("-") + 1);
  return BigInt(digits) <= U64_MAX;
}

/**
 * True when `id` is an ICS-24 port identifier (2 to 128 characters of `a-z A-Z 0-9 . _ + - # [ ] < >`),
 * such as `transfer`.
 *
 * @param id - the identifier to check; any value is accepted.
 * @returns `true` for a valid port identifier, `false` for anything else.
 * @example
 * ```ts
 * isPortId("transfer"); // true
 * isPortId("a/b"); // false
 * ```
 */
export function isPortId(id: unknown): id is string {
  return typeof id === "string" && PORT_ID.test(id);
}

/**
 * True when `id` is a channel identifier `channel-<n>` (n a uint64 without leading zeros).
 *
 * @param id - the identifier to check; any value is accepted.
 * @returns `true` for a valid channel identifier, `false` for anything else.
 * @example
 * ```ts
 * isChannelId("channel-0"); // true
 * isChannelId("channel-01"); // false
 * ```
 */
export function isChannelId(id: unknown): id is string {
  return typeof id === "string" && CHANNEL_ID.test(id) && sequenceFits(id);
}

/**
 * True when `id` is a connection identifier `connection-<n>`.
 *
 * @param id - the identifier to check; any value is accepted.
 * @returns `true` for a valid connection identifier, `false` for anything else.
 * @example
 * ```ts
 * isConnectionId("connection-12"); // true
 * ```
 */
export function isConnectionId(id: unknown): id is string {
  return typeof id === "string" && CONNECTION_ID.test(id) && sequenceFits(id);
}

/**
 * True when `id` is a light-client identifier `<client-type>-<n>`, such as `07-tendermint-0`.
 *
 * @param id - the identifier to check; any value is accepted.
 * @returns `true` for a valid light-client identifier, `false` for anything else.
 * @example
 * ```ts
 * isClientId("07-tendermint-3"); // true
 * ```
 */
export function isClientId(id: unknown): id is string {
  return typeof id === "string" && id.length <= 64 && CLIENT_ID.test(id) && sequenceFits(id);
}

/**
 * True when `denom` is an IBC voucher denom: `ibc/` and 64 uppercase hex digits.
 *
 * @param denom - the denom to check; any value is accepted.
 * @returns `true` for an `ibc/<hash>` voucher denom, `false` for anything else (a native denom among them).
 * @example
 * ```ts
 * isIbcDenom("ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5"); // true
 * isIbcDenom("uusdc"); // false
 * ```
 */
export function isIbcDenom(denom: unknown): denom is string {
  return typeof denom === "string" && IBC_DENOM.test(denom);
}

/**
 * One hop of a denom trace: the port and channel on the receiving chain.
 *
 * @example
 * ```ts
 * const hop: IbcHop = { portId: "transfer", channelId: "channel-0" };
 * ```
 */
export interface IbcHop {
  readonly portId: string;
  readonly channelId: string;
}

/**
 * A denom trace: the hops a token took, nearest first, and its denom on the issuing chain.
 *
 * @example
 * ```ts
 * const trace: DenomTrace = { hops: [{ portId: "transfer", channelId: "channel-0" }], baseDenom: "uusdc" };
 * ```
 */
export interface DenomTrace {
  readonly hops: readonly IbcHop[];
  readonly baseDenom: string;
}

function checkHop(hop: IbcHop, at: string): void {
  if (!isPortId(hop.portId)) {
    throw new InvalidArgumentError(`${at}.portId`, `${JSON.stringify(hop.portId)} is not a port identifier`);
  }
  if (!isChannelId(hop.channelId)) {
    throw new InvalidArgumentError(
      `${at}.channelId`,
      `${JSON.stringify(hop.channelId)} is not of the form channel-<n>`,
    );
  }
}

function checkBaseDenom(baseDenom: string, at: string): void {
  if (typeof baseDenom !== "string" || !BASE_DENOM.test(baseDenom)) {
    throw new InvalidArgumentError(at, `${JSON.stringify(baseDenom)} is not a valid denom`);
  }
}

/**
 * Splits a full denom path such as `transfer/channel-1/transfer/channel-0/uusdc` into hops and
 * base denom. Leading `port/channel` pairs are hops; the rest (which may contain `/`) is the base
 * denom.
 *
 * @param path - the full denom path.
 * @returns the trace.
 * @throws {InvalidArgumentError} when the base denom is not a valid denom.
 *
 * @example
 * ```ts
 * parseDenomTrace("transfer/channel-0/uusdc");
 * // { hops: [{ portId: "transfer", channelId: "channel-0" }], baseDenom: "uusdc" }
 * ```
 */
export function parseDenomTrace(path: string): DenomTrace {
  if (typeof path !== "string") throw new InvalidArgumentError("path", "must be a string");
  const parts = path.split("/");
  const hops: IbcHop[] = [];
  let i = 0;
  while (i + 2 < parts.length && isPortId(parts[i]) && isChannelId(parts[i + 1])) {
    hops.push({ portId: parts[i] as string, channelId: parts[i + 1] as string });
    i += 2;
  }
  const baseDenom = parts.slice(i).join("/");
  checkBaseDenom(baseDenom, "path");
  return { hops, baseDenom };
}

/**
 * Joins a trace into its full denom path, `port/channel/.../baseDenom`.
 *
 * @param trace - hops (nearest first) and base denom.
 * @returns the path.
 * @throws {InvalidArgumentError} when a port, channel or the base denom is malformed.
 *
 * @example
 * ```ts
 * formatDenomTrace({ hops: [{ portId: "transfer", channelId: "channel-0" }], baseDenom: "uusdc" });
 * // "transfer/channel-0/uusdc"
 * ```
 */
export function formatDenomTrace(trace: DenomTrace): string {
  for (const [index, hop] of trace.hops.entries()) checkHop(hop, `hops[${index}]`);
  checkBaseDenom(trace.baseDenom, "baseDenom");
  return [...trace.hops.flatMap((hop) => [hop.portId, hop.channelId]), trace.baseDenom].join("/");
}

function hashPath(path: string): string {
  return `ibc/${bytesToHex(sha256(utf8ToBytes(path))).toUpperCase()}`;
}

/**
 * The voucher denom of a token that arrived over one IBC hop: `ibc/` followed by the uppercase hex
 * SHA-256 of `port/channel/baseDenom` (port and channel on the receiving chain).
 *
 * @param portId - the port on the receiving chain, usually `transfer`.
 * @param channelId - the channel on the receiving chain, `channel-<n>`.
 * @param baseDenom - the denom as the sending chain knows it (itself a path for multi-hop tokens).
 * @returns the voucher denom.
 * @throws {InvalidArgumentError} when the port, channel or denom is malformed.
 *
 * @example
 * ```ts
 * ibcDenom("transfer", "channel-0", "uusdc");
 * // "ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5"
 * ```
 */
export function ibcDenom(portId: string, channelId: string, baseDenom: string): string {
  checkHop({ portId, channelId }, "hop");
  checkBaseDenom(baseDenom, "baseDenom");
  return hashPath(`${portId}/${channelId}/${baseDenom}`);
}

/**
 * The voucher denom of a full trace (any number of hops). A trace without hops is a native token,
 * whose denom is its base denom, as in ibc-go.
 *
 * @param trace - a path such as `transfer/channel-1/transfer/channel-0/uusdc`, or a {@link DenomTrace}.
 * @returns the voucher denom (or the base denom when there are no hops).
 * @throws {InvalidArgumentError} when the trace is malformed.
 *
 * @example
 * ```ts
 * ibcDenomFromTrace("transfer/channel-1/uusdc");
 * // "ibc/65D0BEC6DAD96C7F5043D1E54E54B6BB5D5B3AEC3FF6CEBB75B9E059F3580EA3"
 * ```
 */
export function ibcDenomFromTrace(trace: string | DenomTrace): string {
  const parsed = typeof trace === "string" ? parseDenomTrace(trace) : trace;
  const path = formatDenomTrace(parsed);
  return parsed.hops.length === 0 ? parsed.baseDenom : hashPath(path);
}
