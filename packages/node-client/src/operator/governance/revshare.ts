/**
 * Governance messages of revenue shares: an order router's share of the fees of the orders it
 * routes.
 */
import { revshare } from "@perpx/proto";
import { bech32Address, checkParams } from "../../messages/validate.js";
import type { TxMessage } from "../../tx/encode.js";
import { authorityOf, type GovernanceParams, ppm } from "./fields.js";
import { govMsg } from "./msg.js";

/**
 * Parameters of {@link setOrderRouterRevShareMsg}.
 *
 * @example
 * ```ts
 * const params: SetOrderRouterRevShareParams = { address: LocalWallet.generate().address, sharePpm: 500_000 };
 * ```
 */
export interface SetOrderRouterRevShareParams extends GovernanceParams {
  /** The order router's bech32 address. */
  address: string;
  /** Its share of the fees, ppm (the chain takes at most 800,000). */
  sharePpm: number;
}

/**
 * Builds a `MsgSetOrderRouterRevShare` (governance).
 *
 * @throws {InvalidAddressError | InvalidArgumentError} before anything is built.
 *
 * @example
 * ```ts
 * const msg = setOrderRouterRevShareMsg({ address: LocalWallet.generate().address, sharePpm: 500_000 });
 * msg.typeUrl; // "/perpx.revshare.v1.MsgSetOrderRouterRevShare"
 * ```
 */
export function setOrderRouterRevShareMsg(
  params: SetOrderRouterRevShareParams,
): TxMessage<typeof revshare.MsgSetOrderRouterRevShareSchema> {
  checkParams(params, "setOrderRouterRevShareMsg");
  return govMsg(revshare.MsgSetOrderRouterRevShareSchema, {
    authority: authorityOf(params),
    orderRouterRevShare: {
      address: bech32Address(params.address),
      sharePpm: ppm(params.sharePpm, "sharePpm"),
    },
  });
}
