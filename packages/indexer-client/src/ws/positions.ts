/**
 * The checks of a position as the indexer writes it, shared by the `v4_subaccounts` channel and the
 * REST answers that carry positions: a perpetual position's signed `size` agrees with its `side`,
 * an asset position's `size` is unsigned and its `side` is LONG or SHORT.
 */
import {
  type Check,
  decimal,
  digits,
  integer,
  nonNegativeDecimal,
  nullable,
  object,
  oneOf,
  text,
} from "./shape.js";

/** The fields of a perpetual position besides its market, side and size. */
export const positionFields = {
  status: text,
  maxSize: decimal,
  entryPrice: decimal,
  exitPrice: nullable(decimal),
  realizedPnl: decimal,
  unrealizedPnl: decimal,
  createdAt: text,
  createdAtHeight: digits,
  closedAt: nullable(text),
  sumOpen: decimal,
  sumClose: decimal,
  netFunding: decimal,
  subaccountNumber: integer,
  address: text,
  positionId: text,
};
/** LONG or SHORT. */
export const positionSide = oneOf("LONG", "SHORT");
const ZERO = /^-?0+(\.0+)?([eE][+-]?\d+)?$/;

/**
 * A perpetual position whose `size` is signed as its `side` says, as the indexer writes it:
 * negative for SHORT, positive for LONG, zero for either (a closed position). A size against its
 * side would flip the position (and a balance computed from it) downstream.
 */
export function sideSigned(fields: Check): Check {
  return (value, path) => {
    const found = fields(value, path);
    if (found) return found;
    const { side, size } = value as { side: string; size: string };
    if (ZERO.test(size) || size.startsWith("-") === (side === "SHORT")) return undefined;
    const expected =
      side === "SHORT" ? "a negative decimal string (side SHORT)" : "a positive decimal string (side LONG)";
    return { path: path === "" ? "size" : `${path}.size`, expected, found: size };
  };
}

/** An open perpetual position (the REST object): signed size, agreeing with its side. */
export const perpetualPosition: Check = sideSigned(
  object({ market: text, side: positionSide, size: decimal }, positionFields),
);
/** An asset position (the REST object and the update): unsigned size, the side says the sign. */
export const assetPosition: Check = object(
  { symbol: text, side: positionSide, size: nonNegativeDecimal },
  { assetId: text, subaccountNumber: integer, address: text, positionId: text },
);
