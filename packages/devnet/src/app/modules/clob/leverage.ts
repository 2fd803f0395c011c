/**
 * Leverage choices (`MsgUpdateLeverage`): stored per subaccount and clob pair under
 * `lev/<owner>/<number:10>/<pair:10>` (custom initial margin fraction, ppm), checked as the real
 * chain checks them (clob 11002 for the message, subaccounts 701 and 703 for the choice), and read
 * by the subaccounts keeper's margin by perpetual.
 */
import type { clob } from "@perpx/proto";
import type { Context } from "../../kernel/module.js";
import { decodeU64, encodeU64 } from "../../lib/codec.js";
import type { StoreAccess } from "../auth/auth.js";
import type { SubaccountRef } from "../subaccounts/keeper.js";
import { CLOB_EVENTS, type ClobKeepers, perpetualOf } from "./engine.js";
import { CLOB, getPair, keys } from "./state.js";
import { validateLeverageUpdate } from "./validate.js";

/** A subaccount's stored leverage choices by perpetual id (custom initial margin ppm). */
export function leverageByPerpetual(ctx: StoreAccess, id: SubaccountRef): Map<number, number> {
  const store = ctx.store(CLOB);
  const prefix = keys.leveragePrefix(id.owner, id.number);
  const choices = new Map<number, number>();
  for (const [key, value] of store.entries(prefix)) {
    const pair = getPair(store, Number(key.slice(prefix.length)));
    if (pair !== undefined) choices.set(perpetualOf(pair), Number(decodeU64(value)));
  }
  return choices;
}

/**
 * Runs a `MsgUpdateLeverage`: the message's checks (clob 11002, 11001, 2 for an unknown pair), the
 * subaccounts keeper's (701 above the tier's leverage, 703 below the initial margin), then stores
 * the choices with one event each.
 */
export function updateLeverage(ctx: Context, keepers: ClobKeepers, msg: clob.MsgUpdateLeverage): void {
  const store = ctx.store(CLOB);
  const owner = msg.subaccountId?.owner ?? "";
  const number = msg.subaccountId?.number ?? 0;
  validateLeverageUpdate(msg, (id) => getPair(store, id) !== undefined);
  const choices = new Map<number, number>();
  for (const entry of msg.clobPairLeverage) {
    const pair = getPair(store, entry.clobPairId) as clob.ClobPair;
    choices.set(perpetualOf(pair), entry.customImfPpm);
  }
  keepers.subaccounts.checkLeverage(ctx, { owner, number }, choices);
  for (const entry of msg.clobPairLeverage) {
    store.set(keys.leverage(owner, number, entry.clobPairId), encodeU64(BigInt(entry.customImfPpm)));
    ctx.events.emitEvent(CLOB_EVENTS.leverage, [
      ["owner", owner],
      ["subaccount_number", String(number)],
      ["clob_pair_id", String(entry.clobPairId)],
      ["custom_imf_ppm", String(entry.customImfPpm)],
    ]);
  }
}
