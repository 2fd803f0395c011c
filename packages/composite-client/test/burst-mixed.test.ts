/**
 * A burst of 200 places (short-term and long-term, no client ids) with withdrawals and transfers
 * from the same signer: ids are unique, every call settles (a value or a typed error), sequences
 * never collide, and `cancelAll` then cancels exactly the orders still open.
 */
import { isPerpxError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import { reachState, useDevnet } from "./support.js";

const net = useDevnet({ liquidity: false });

describe("a mixed burst on one client", () => {
  it("200 places with transfers and withdrawals: all settle typed, ids unique, cancelAll cancels the open ones", async () => {
    const client = await net.connect({ wallet: net.wallets[2]! });
    await client.deposit({ amount: "100000" });
    const bid = { market: "BTC-USD", side: "BUY", size: "0.001", price: "1000" } as const;
    const places = Array.from({ length: 200 }, (_, i) =>
      client.placeOrder(i % 2 === 0 ? bid : { ...bid, goodTil: { blocks: 30 } }),
    );
    const moves = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? client.withdraw({ amount: "1" })
        : client.transfer({ amount: "1", to: { owner: net.wallets[3]!.address, number: 0 } }),
    );
    const placed = await Promise.allSettled(places);
    const moved = await Promise.allSettled(moves);
    for (const o of [...placed, ...moved]) {
      if (o.status === "rejected") expect(isPerpxError(o.reason), String(o.reason)).toBe(true);
    }
    const movesFailed = moved
      .filter((o) => o.status === "rejected")
      .map((o) => String((o as PromiseRejectedResult).reason).slice(0, 160));
    const handles = placed.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
    expect(new Set(handles.map((h) => h.clientId)).size).toBe(handles.length);
    expect(movesFailed).toEqual([]);
    const cancelled = await client.cancelAll();
    const ids = (cancelled["BTC-USD"] ?? []).sort();
    expect(ids).toEqual(handles.map((h) => h.clientId).sort());
    for (const h of handles) expect((await reachState(h, "CANCELED")).status).toBe("CANCELED");
    // The next call works.
    const next = await client.placeOrder(bid);
    expect((await reachState(next, "RESTING")).status).toBe("RESTING");
  }, 120_000);
});
