/**
 * The control routes of a fork and of the mirror maker:
 * - `GET /devnet/fork`: `{fork: false}` on a devnet of its own, else `{fork: true, moniker, source,
 *   height, chainId}`, so no one takes a fork for the network it copies;
 * - `POST /devnet/mirror/book {market, bids, asks}` (levels `{price, size}` as decimal strings):
 *   rests those levels in place of the mirror maker's previous ones: `{placed, canceled}`;
 * - `POST /devnet/mirror/trade-through {market, side, price, size}`: fills resting orders at or
 *   through `price` at their own price, as a live trade through it would have: `{code, log}`.
 */
import type { ForkState } from "../app/genesis/fork-state.js";
import { FieldError, type Fields, stringField } from "../app/lib/request-fields.js";
import type { MirrorLevel, MirrorMaker } from "../liquidity/mirror.js";
import { ControlError, type ControlRouter } from "./control-router.js";

const DECIMAL = /^\d+(\.\d+)?$/;

function marketOf(body: Fields): string | number {
  const market = body.market;
  if (typeof market === "number" && Number.isInteger(market) && market >= 0) return market;
  if (typeof market === "string" && market !== "") return market;
  throw new FieldError("market", 'must be a market id or a pair like "BTC-USD"');
}

function levelsOf(body: Fields, name: "bids" | "asks"): MirrorLevel[] {
  const raw = body[name];
  if (!Array.isArray(raw)) throw new FieldError(name, "must be an array of {price, size}");
  return raw.map((level: unknown, i) => {
    if (typeof level !== "object" || level === null)
      throw new FieldError(`${name}[${i}]`, "must be {price, size}");
    const fields = level as Fields;
    const form = "a decimal string";
    return {
      price: stringField(fields, "price", { path: `${name}[${i}]`, pattern: DECIMAL, form }),
      size: stringField(fields, "size", { path: `${name}[${i}]`, pattern: DECIMAL, form }),
    };
  });
}

/**
 * Adds the fork and mirror routes (see the module comment).
 *
 * @param router - the control server's route table.
 * @param fork - the fork's state, or undefined on a devnet of its own.
 * @param moniker - the node's moniker.
 * @param mirror - the mirror maker, when it runs.
 */
export function addForkControlRoutes(
  router: ControlRouter,
  fork: ForkState | undefined,
  moniker: string,
  mirror: MirrorMaker | undefined,
): void {
  router.add("GET", "/fork", () =>
    fork === undefined
      ? { fork: false, moniker }
      : { fork: true, moniker, source: fork.source, height: fork.height.toString(), chainId: fork.chainId },
  );
  const running = () => {
    if (mirror === undefined)
      throw new ControlError(
        404,
        "not_found",
        "the mirror maker is not running (start a fork, or pass mirror: true)",
      );
    return mirror;
  };
  router.add("POST", "/mirror/book", ({ body }) =>
    running().setBook(marketOf(body), { bids: levelsOf(body, "bids"), asks: levelsOf(body, "asks") }),
  );
  router.add("POST", "/mirror/trade-through", ({ body }) => {
    const side = body.side;
    if (side !== "buy" && side !== "sell") throw new FieldError("side", 'must be "buy" or "sell"');
    const price = stringField(body, "price", { pattern: DECIMAL, form: "a decimal string" });
    const size = stringField(body, "size", { pattern: DECIMAL, form: "a decimal string" });
    return running().tradeThrough(marketOf(body), side, price, size);
  });
}
