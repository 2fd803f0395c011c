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

/**
 * A client id's claim given back and raced for, over `stores` (instances sharing one database):
 * claims made while it is held are refused as in flight; its holder gives it back once; `calls`
 * claims at once then claim it exactly once; a claim with a recorded outcome is never given back.
 * Answers what the claims at once answered (how many claimed) and what the last refusal carried.
 */
export async function raceClaims(stores: McpStore[], calls: number) {
  const first = stores[0] as McpStore;
  const key = { account, ticker: "BTC-USD", clientId: 77 };
  const claimAll = () =>
    Promise.all(
      Array.from({ length: calls }, (_, i) => (stores[i % stores.length] as McpStore).claimOrder(key)),
    );
  const held = { first: await first.claimOrder(key), during: await claimAll() };
  const released = [await first.releaseClaim(key), await first.releaseClaim(key)];
  const raced = await claimAll();
  await first.settleOrder(key, { state: "RESTING", txHash: "AB" });
  const settled = { release: await first.releaseClaim(key), claim: await first.claimOrder(key) };
  return {
    firstClaimed: held.first.claimed,
    claimedWhileHeld: held.during.filter((c) => c.claimed).length,
    released,
    claimedAtOnce: raced.filter((c) => c.claimed).length,
    settled,
  };
}
