/**
 * The keys of the contract's response objects, as runtime lists the compiler holds exhaustive
 * (`satisfies Record<keyof T, boolean>`: a key added to or removed from the contract breaks the
 * build here), with `true` for the keys the server must always send.
 */
import type {
  AssetPositionResponseObject,
  OrderResponseObject,
  PerpetualMarketResponseObject,
  SubaccountResponseObject,
} from "@perpx/core/indexer";

export const MARKET_KEYS = {
  clobPairId: true,
  ticker: true,
  status: true,
  oraclePrice: true,
  priceChange24H: true,
  volume24H: true,
  trades24H: true,
  nextFundingRate: true,
  initialMarginFraction: true,
  maintenanceMarginFraction: true,
  openInterest: true,
  atomicResolution: true,
  quantumConversionExponent: true,
  tickSize: true,
  stepSize: true,
  stepBaseQuantums: true,
  subticksPerTick: true,
  marketType: true,
  openInterestLowerCap: false,
  openInterestUpperCap: false,
  baseOpenInterest: true,
  defaultFundingRate1H: false,
} satisfies Record<keyof PerpetualMarketResponseObject, boolean>;

export const SUBACCOUNT_KEYS = {
  address: true,
  subaccountNumber: true,
  equity: true,
  freeCollateral: true,
  openPerpetualPositions: true,
  assetPositions: true,
  marginEnabled: true,
  updatedAtHeight: true,
  latestProcessedBlockHeight: true,
} satisfies Record<keyof SubaccountResponseObject, boolean>;

export const ASSET_POSITION_KEYS = {
  symbol: true,
  side: true,
  size: true,
  assetId: true,
  subaccountNumber: true,
} satisfies Record<keyof AssetPositionResponseObject, boolean>;

export const ORDER_KEYS = {
  id: true,
  subaccountId: true,
  clientId: true,
  clobPairId: true,
  side: true,
  size: true,
  totalFilled: true,
  price: true,
  type: true,
  status: true,
  timeInForce: true,
  postOnly: true,
  reduceOnly: true,
  orderFlags: true,
  goodTilBlock: false,
  goodTilBlockTime: false,
  createdAtHeight: false,
  createdAt: false,
  clientMetadata: true,
  triggerPrice: false,
  updatedAt: false,
  updatedAtHeight: false,
  ticker: true,
  subaccountNumber: true,
  builderAddress: false,
  feePpm: false,
  orderRouterAddress: false,
  duration: false,
  interval: false,
  priceTolerance: false,
} satisfies Record<keyof OrderResponseObject, boolean>;

/** The keys of `value` outside the contract, and the contract's required keys it lacks. */
export function keyDrift(
  value: object,
  keys: Record<string, boolean>,
): { extra: string[]; missing: string[] } {
  const present = Object.keys(value);
  return {
    extra: present.filter((key) => !(key in keys)),
    missing: Object.entries(keys)
      .filter(([key, required]) => required && !present.includes(key))
      .map(([key]) => key),
  };
}
