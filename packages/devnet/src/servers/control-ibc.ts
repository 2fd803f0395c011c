/**
 * Control routes of the simulated IBC relayer (`src/app/modules/ibc/ibc-relayer.ts`): deliver pending
 * outgoing packets now, decide what the counterparty answers (success, an error acknowledgement,
 * no answer until the timeout), and set the relay delay or switch automatic relaying off. Bad
 * fields answer 400 naming the field (the operations throw `FieldError`s).
 */
import type { PersistentChainApp } from "../app/contract.js";
import type { ControlRouter } from "./control-router.js";

/**
 * Adds `POST /devnet/ibc/relay`, `POST /devnet/ibc/packet-fate`, `POST /devnet/ibc/relayer` and
 * `GET /devnet/ibc/relayer`.
 *
 * @param router - the control server's route table.
 * @param app - the chain application.
 */
export function addIbcRelayerControlRoutes(router: ControlRouter, app: PersistentChainApp): void {
  const op = (operation: string) => (request: { body: Readonly<Record<string, unknown>> }) =>
    app.control.moduleControl("ibc", operation, request.body);
  router.add("POST", "/ibc/relay", op("relay"));
  router.add("POST", "/ibc/packet-fate", op("packet-fate"));
  router.add("POST", "/ibc/relayer", op("relayer"));
  router.add("GET", "/ibc/relayer", () => app.control.moduleControl("ibc", "pending", {}));
}
