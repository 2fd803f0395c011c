/**
 * The checks of the REST answers that carry positions and balances (`spec/indexer-api.md` 1.1 and
 * 1.2), with the same per-position checks as the `v4_subaccounts` channel: a perpetual position's
 * signed `size` agrees with its `side`, an asset position's `size` is unsigned and its `side` is
 * LONG or SHORT. Other fields and routes are passed through as the connection checked them (a JSON
 * object or array).
 */
import type { IndexerRouteName } from "@perpx/core/indexer";
import { assetPosition, perpetualPosition } from "../ws/positions.js";
import { array, type Check, object, record, type ShapeProblem } from "../ws/shape.js";

const positionsOf = object(
  {},
  { openPerpetualPositions: record(perpetualPosition), assetPositions: record(assetPosition) },
);

const ANSWERS: Partial<Record<IndexerRouteName, Check>> = {
  getAddress: object({}, { subaccounts: array(positionsOf) }),
  getSubaccount: object({}, { subaccount: positionsOf }),
  getParentSubaccount: object({}, { subaccount: object({}, { childSubaccounts: array(positionsOf) }) }),
  getPerpetualPositions: object({}, { positions: array(perpetualPosition) }),
  getParentPerpetualPositions: object({}, { positions: array(perpetualPosition) }),
  getAssetPositions: object({}, { positions: array(assetPosition) }),
  getParentAssetPositions: object({}, { positions: array(assetPosition) }),
};

/**
 * Checks the answer of a route that carries positions.
 *
 * @param name - the route's name.
 * @param body - its parsed JSON body.
 * @returns the first bad field, or undefined when the answer fits (or the route has no check).
 */
export function checkAnswer(name: IndexerRouteName, body: unknown): ShapeProblem | undefined {
  return ANSWERS[name]?.(body, "");
}
