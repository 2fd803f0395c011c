import { setImmediate as tick } from "node:timers/promises";
import type { McpStore, Reservation } from "../src/index.js";

/** The account the races reserve for. */
export const account = "perpx1store";
/** Where the chain and the clock stand in the races. */
export const at = { height: 100, nowMs: 1_000_000 };
/** A reservation of the race account (client id from the id's digits). */
export const reservation = (id: string, extra: Partial<Reservation> = {}): Reservation => ({
  id,
  account,
  ticker: "BTC-USD",
  clientId: Number(id.replace(/\D/g, "") || 0),
  side: "BUY",
  size: "0.006",
  price: "65325",
  reduceOnly: false,
  mayRest: false,
  lossBudget: "1.95",
  lapseHeight: 110,
  lapseAtMs: undefined,
  ...extra,
});

/** Reserves `calls` times at once, each admitted while fewer than `room` are held; answers how many were stored. */
export async function raceReservations(stores: McpStore[], calls: number, room: number): Promise<number> {
  const decided = await Promise.all(
    Array.from({ length: calls }, (_, i) =>
      (stores[i % stores.length] as McpStore).reserve(account, at, async (held) => {
        // A decision reads the chain: other reservations must wait for it.
        await tick();
        await new Promise((resolve) => setTimeout(resolve, 1));
        return held.length < room ? reservation(`r${i}`) : undefined;
      }),
    ),
  );
  return decided.filter(Boolean).length;
}
