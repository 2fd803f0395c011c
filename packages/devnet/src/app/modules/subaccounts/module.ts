/**
 * The x/subaccounts module around its keeper (`keeper.ts`): the funded subaccounts at genesis, the
 * export, the faucet's control operation and the queries.
 */
import { create } from "@bufbuild/protobuf";
import { subaccounts } from "@perpx/proto";
import { FUNDED_SUBACCOUNT_QUANTUMS } from "../../genesis/funded-subaccounts.js";
import { invalidArgument, type Module, queryHandler } from "../../kernel/module.js";
import { accAddressBytes, addressKey, bech32Of, moduleAddress } from "../../lib/addresses.js";
import { utf8 } from "../../lib/codec.js";
import { abciError } from "../../lib/errors.js";
import { paginate } from "../../lib/pagination.js";
import { padKey } from "../records.js";
import {
  SUBACCOUNTS,
  type SubaccountRef,
  type SubaccountsKeeper,
  subaccountsErrors,
  validateSubaccountId,
} from "./keeper.js";
import { subaccountJson, subaccountProto } from "./views.js";
import { blockedInfoResponse, recordBlockTime } from "./withdrawal-gate.js";

/** What the subaccounts module creates at genesis. */
export interface SubaccountsGenesis {
  /** Owners whose subaccount 0 holds {@link FUNDED_SUBACCOUNT_QUANTUMS} of USDC. */
  readonly funded: readonly string[];
}

/** The subaccounts module: genesis (the funded subaccounts), export and the queries. */
export function createSubaccountsModule(
  keeper: SubaccountsKeeper,
  genesis: SubaccountsGenesis = { funded: [] },
): Module {
  return {
    name: SUBACCOUNTS,
    beginBlock: recordBlockTime,
    initGenesis(ctx) {
      keeper.fundAtGenesis(ctx, genesis.funded, FUNDED_SUBACCOUNT_QUANTUMS);
    },
    exportGenesis(ctx) {
      return { subaccounts: keeper.all(ctx).map(subaccountJson) };
    },
    control: {
      /** `{owner, number, quantums}`: mints uusdc into a subaccount (the faucet). */
      fund(ctx, request) {
        const id = validateSubaccountId({
          owner: typeof request.owner === "string" ? request.owner : "",
          number: typeof request.number === "number" ? request.number : -1,
        });
        const quantums =
          typeof request.quantums === "string" && /^\d+$/.test(request.quantums)
            ? BigInt(request.quantums)
            : 0n;
        if (quantums <= 0n)
          throw abciError(subaccountsErrors.failedToUpdate, "quantums must be a positive integer string");
        keeper.mintInto(ctx, id, quantums);
        return subaccountJson(keeper.get(ctx, id));
      },
    },
    queries: {
      "/perpx.subaccounts.v1.Query/Subaccount": queryHandler(
        () => subaccounts.QueryGetSubaccountRequestSchema,
        () => subaccounts.QuerySubaccountResponseSchema,
        (ctx, req) => {
          let id: SubaccountRef;
          try {
            id = validateSubaccountId({ owner: req.owner, number: req.number });
          } catch (error) {
            throw invalidArgument(error instanceof Error ? error.message : String(error));
          }
          return create(subaccounts.QuerySubaccountResponseSchema, {
            subaccount: subaccountProto(keeper.get(ctx, id)),
          });
        },
      ),
      "/perpx.subaccounts.v1.Query/SubaccountAll": queryHandler(
        () => subaccounts.QueryAllSubaccountRequestSchema,
        () => subaccounts.QuerySubaccountAllResponseSchema,
        (ctx, req) => {
          const items = keeper.all(ctx).map((view) => ({
            key: utf8(`${addressKey(accAddressBytes(view.id.owner))}/${padKey(view.id.number, 10)}`),
            value: subaccountProto(view),
          }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(subaccounts.QuerySubaccountAllResponseSchema, { subaccount: page, pagination });
        },
      ),
      "/perpx.subaccounts.v1.Query/GetWithdrawalAndTransfersBlockedInfo": queryHandler(
        () => subaccounts.QueryGetWithdrawalAndTransfersBlockedInfoRequestSchema,
        () => subaccounts.QueryGetWithdrawalAndTransfersBlockedInfoResponseSchema,
        (ctx, req) => blockedInfoResponse(ctx, keeper, req.perpetualId),
      ),
      "/perpx.subaccounts.v1.Query/CollateralPoolAddress": queryHandler(
        () => subaccounts.QueryCollateralPoolAddressRequestSchema,
        () => subaccounts.QueryCollateralPoolAddressResponseSchema,
        (ctx, req) =>
          create(subaccounts.QueryCollateralPoolAddressResponseSchema, {
            collateralPoolAddress: bech32Of(moduleAddress(keeper.collateralPoolName(ctx, req.perpetualId))),
          }),
      ),
    },
  };
}
