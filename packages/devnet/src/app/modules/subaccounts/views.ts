/**
 * The wire forms of a subaccount: its protobuf `Subaccount` (queries) and the JSON the genesis
 * export writes, built directly.
 */
import { create } from "@bufbuild/protobuf";
import { USDC_ASSET_ID } from "@perpx/core";
import { encodeSerializableInt, subaccounts } from "@perpx/proto";
import type { SubaccountView } from "./keeper.js";

/** The wire `Subaccount` of a view (zero USDC is left out, as the chain does). */
export function subaccountProto(view: SubaccountView): subaccounts.Subaccount {
  return create(subaccounts.SubaccountSchema, {
    id: create(subaccounts.SubaccountIdSchema, { owner: view.id.owner, number: view.id.number }),
    assetPositions:
      view.usdc === 0n
        ? []
        : [
            create(subaccounts.AssetPositionSchema, {
              assetId: USDC_ASSET_ID,
              quantums: encodeSerializableInt(view.usdc),
            }),
          ],
    perpetualPositions: view.perpetualPositions.map((p) =>
      create(subaccounts.PerpetualPositionSchema, {
        perpetualId: p.perpetualId,
        quantums: encodeSerializableInt(p.quantums),
        fundingIndex: encodeSerializableInt(p.fundingIndex),
        quoteBalance: encodeSerializableInt(p.quoteBalance),
      }),
    ),
    // Trading never sets it on the reference chain, so every subaccount reads false there.
    marginEnabled: false,
  });
}

/**
 * The JSON of a subaccount as `toCosmosJson` writes its {@link subaccountProto}, built directly:
 * the genesis export lists every subaccount (tens of thousands with `fundedSubaccounts`), and the
 * generic writer costs a tenth of a millisecond each.
 */
export function subaccountJson(view: SubaccountView): Record<string, unknown> {
  return {
    id: { owner: view.id.owner, number: view.id.number },
    asset_positions:
      view.usdc === 0n ? [] : [{ asset_id: USDC_ASSET_ID, quantums: view.usdc.toString(), index: "0" }],
    perpetual_positions: view.perpetualPositions.map((p) => ({
      perpetual_id: p.perpetualId,
      quantums: p.quantums.toString(),
      funding_index: p.fundingIndex.toString(),
      quote_balance: p.quoteBalance.toString(),
    })),
    margin_enabled: false,
  };
}
