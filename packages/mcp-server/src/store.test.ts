import { describe, expect, it } from "vitest";
import { account, at, raceClaims, raceReservations, reservation } from "../test/race.js";
import { openSqliteStore } from "./store.js";

describe("reservations in the SQLite store", () => {
  it("are checked and made atomically per account: 40 at once with room for 3 store 3", async () => {
    const store = openSqliteStore({ path: ":memory:" });
    expect(await raceReservations([store], 40, 3)).toBe(3);
    expect(await store.reservations(account)).toHaveLength(3);
    await store.close();
  });

  it("lapse past their good-til (height or time), and are released by id or by order", async () => {
    const store = openSqliteStore({ path: ":memory:" });
    await store.reserve(account, at, async () => reservation("r1", { lapseHeight: 105 }));
    await store.reserve(account, at, async () =>
      reservation("r2", { lapseHeight: undefined, lapseAtMs: 2_000_000 }),
    );
    await store.reserve(account, at, async () => reservation("r3"));
    await store.reserve(account, at, async () => reservation("r4"));
    expect(await store.releaseLapsed(account, { height: 105, nowMs: 2_000_000 })).toBe(0);
    expect(await store.releaseLapsed(account, { height: 106, nowMs: 2_000_001 })).toBe(2);
    // Lapsed and looked-up releases are settled (counted); a release of an order never placed is not.
    expect(await store.settledCount(account)).toBe(2);
    await store.release(account, "r3", false);
    expect(await store.settledCount(account)).toBe(2);
    await store.releaseOrder({ account, ticker: "BTC-USD", clientId: 4 });
    expect(await store.settledCount(account)).toBe(3);
    expect(await store.reservations(account)).toEqual([]);
    // A decision that throws stores nothing, and the next one runs.
    await expect(
      store.reserve(account, at, async () => {
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(
      (await store.reserve(account, at, async (held) => (held.length === 0 ? reservation("r5") : undefined)))
        ?.id,
    ).toBe("r5");
    await store.close();
  });
});

describe("client-id claims in the SQLite store", () => {
  it("are given back only while no outcome is recorded, and 20 claims at once then claim it once", async () => {
    const store = openSqliteStore({ path: ":memory:" });
    expect(await raceClaims([store], 20)).toEqual({
      firstClaimed: true,
      claimedWhileHeld: 0,
      released: [true, false],
      claimedAtOnce: 1,
      settled: { release: false, claim: { claimed: false, outcome: { state: "RESTING", txHash: "AB" } } },
    });
    await store.close();
  });
});
