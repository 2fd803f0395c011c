/**
 * accountplus, part 1: timestamp nonces (chain-protocol.md 4.5) and the `AccountState` query.
 * Authenticators (permissioned keys) come in part 2 on top of this slice.
 *
 * Store slice `accountplus/`:
 * - `nonce/<hex20>`: fixed-width {@link TimestampNonceDetails} (see `encodeNonceDetails`).
 */
import { create } from "@bufbuild/protobuf";
import { accountplus } from "@perpx/proto";
import { accAddressBytes, addressKey } from "../addresses.js";
import { invalidArgument, type Module, notFound, queryHandler } from "../module.js";
import { decodeNonceDetails, encodeNonceDetails, type TimestampNonceDetails } from "../nonce.js";
import type { StoreAccess } from "./auth.js";

/** The module's name and store prefix. */
export const ACCOUNTPLUS = "accountplus";

/** Reads and writes timestamp nonce details. */
export class AccountPlusKeeper {
  /** The account's timestamp nonce details, or undefined when it never used one. */
  nonceDetails(ctx: StoreAccess, address: Uint8Array): TimestampNonceDetails | undefined {
    const bytes = ctx.store(ACCOUNTPLUS).get(`nonce/${addressKey(address)}`);
    return bytes === undefined ? undefined : decodeNonceDetails(bytes);
  }

  /** Stores the account's timestamp nonce details. */
  setNonceDetails(ctx: StoreAccess, address: Uint8Array, details: TimestampNonceDetails): void {
    ctx.store(ACCOUNTPLUS).set(`nonce/${addressKey(address)}`, encodeNonceDetails(details));
  }
}

/** Builds the accountplus module (nonces only, for now). */
export function createAccountPlusModule(keeper: AccountPlusKeeper): Module {
  return {
    name: ACCOUNTPLUS,
    exportGenesis: () => ({
      accounts: [],
      params: { is_smart_account_active: true },
      next_authenticator_id: "0",
      authenticator_data: [],
    }),
    queries: {
      "/perpx.accountplus.v1.Query/AccountState": queryHandler(
        accountplus.AccountStateRequestSchema,
        accountplus.AccountStateResponseSchema,
        (ctx, req) => {
          let address: Uint8Array;
          try {
            address = accAddressBytes(req.address);
          } catch (error) {
            throw invalidArgument(error instanceof Error ? error.message : String(error));
          }
          const details = keeper.nonceDetails(ctx, address);
          if (details === undefined) throw notFound(`account state for ${req.address} not found`);
          return create(accountplus.AccountStateResponseSchema, {
            accountState: create(accountplus.AccountStateSchema, {
              address: req.address,
              timestampNonceDetails: create(accountplus.TimestampNonceDetailsSchema, {
                timestampNonces: [...details.timestampNonces],
                maxEjectedNonce: details.maxEjectedNonce,
              }),
            }),
          });
        },
      ),
      "/perpx.accountplus.v1.Query/Params": queryHandler(
        accountplus.QueryParamsRequestSchema,
        accountplus.QueryParamsResponseSchema,
        () =>
          create(accountplus.QueryParamsResponseSchema, {
            params: create(accountplus.ParamsSchema, { isSmartAccountActive: true }),
          }),
      ),
    },
  };
}
