/**
 * A hostile indexer's position sizes (spec/indexer-api.md 1.2): a perpetual position's `size` is
 * signed and agrees with its `side` (negative SHORT, positive LONG, zero for a closed one); an
 * asset position's `size` is unsigned and its `side` says the sign. An answer or a frame breaking
 * that would flip a balance downstream (`side: SHORT` with `size: "-100"` adds 100 USDC where 100
 * are owed), so it is refused: a REST answer with an `IndexerDecodeError` naming the field, a
 * frame with an `IndexerFrameError` and a resync, while the stream goes on.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { watchSubaccount } from "../src/account/watch.js";
import { IndexerDecodeError } from "../src/errors.js";
import { createIndexerClient, createStaticFetch } from "../src/index.js";
import { connectIndexerSocket } from "../src/ws/connect.js";
import type { IndexerSocket } from "../src/ws/connection.js";
import { isIndexerFrameError } from "../src/ws/errors.js";
import { type FakeIndexer, startFakeIndexer } from "./support/fake-indexer.js";

const OWNER = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";
const HANG = { timeout: 30_000, interval: 20 };

const usdc = (side: string, size: string) => ({
  symbol: "USDC",
  side,
  size,
  assetId: "0",
  subaccountNumber: 0,
});
const btc = (side: string, size: string, status = "OPEN") => ({
  market: "BTC-USD",
  status,
  side,
  size,
  maxSize: size,
  entryPrice: "65000",
  exitPrice: null,
  realizedPnl: "0",
  unrealizedPnl: "0",
  createdAt: "2026-01-01T00:00:00.000Z",
  createdAtHeight: "3",
  closedAt: null,
  sumOpen: "0.1",
  sumClose: "0",
  netFunding: "0",
  subaccountNumber: 0,
});
const subaccount = (positions: object, assets: object) => ({
  address: OWNER,
  subaccountNumber: 0,
  equity: "100",
  freeCollateral: "100",
  openPerpetualPositions: positions,
  assetPositions: assets,
  marginEnabled: true,
  updatedAtHeight: "3",
  latestProcessedBlockHeight: "3",
});

/** The error a call rejects with. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("REST answers carrying positions", () => {
  const answering = (path: string, body: object) => {
    let calls = 0;
    const answers = createStaticFetch({ [path]: body });
    const client = createIndexerClient({
      baseUrl: "http://indexer.test",
      fetch: (input, init) => {
        calls++;
        return answers(input, init);
      },
    });
    return { client, calls: () => calls };
  };
  const params = { owner: OWNER, number: 0 };

  it("refuses a negative asset size, a size against its side and an unknown side, naming the field, unretried", async () => {
    const cases: [string, object, (c: ReturnType<typeof createIndexerClient>) => Promise<unknown>, string][] =
      [
        [
          "/v4/assetPositions",
          { positions: [usdc("SHORT", "-100")] },
          (c) => c.getAssetPositions(params),
          "positions[0].size",
        ],
        [
          "/v4/assetPositions",
          { positions: [usdc("LONG", "-100")] },
          (c) => c.getAssetPositions(params),
          "positions[0].size",
        ],
        [
          "/v4/assetPositions",
          { positions: [usdc("short", "100")] },
          (c) => c.getAssetPositions(params),
          "positions[0].side",
        ],
        [
          "/v4/assetPositions",
          { positions: [{ symbol: "USDC", size: "100" }] },
          (c) => c.getAssetPositions(params),
          "positions[0].side",
        ],
        [
          "/v4/perpetualPositions",
          { positions: [btc("SHORT", "0.1")] },
          (c) => c.getPerpetualPositions(params),
          "positions[0].size",
        ],
        [
          "/v4/perpetualPositions",
          { positions: [btc("LONG", "-0.1")] },
          (c) => c.getPerpetualPositions(params),
          "positions[0].size",
        ],
        [
          `/v4/addresses/${OWNER}/subaccountNumber/0`,
          { subaccount: subaccount({ "BTC-USD": btc("LONG", "-0.1") }, {}) },
          (c) => c.getSubaccount(params),
          'subaccount.openPerpetualPositions["BTC-USD"].size',
        ],
        [
          `/v4/addresses/${OWNER}/subaccountNumber/0`,
          { subaccount: subaccount({}, { USDC: usdc("SHORT", "-100") }) },
          (c) => c.getSubaccount(params),
          "subaccount.assetPositions.USDC.size",
        ],
        [
          `/v4/addresses/${OWNER}`,
          { subaccounts: [subaccount({}, { USDC: usdc("SHORT", "-5") })], totalTradingRewards: "0" },
          (c) => c.getAddress({ address: OWNER }),
          "subaccounts[0].assetPositions.USDC.size",
        ],
        [
          `/v4/addresses/${OWNER}/parentSubaccountNumber/0`,
          {
            subaccount: {
              address: OWNER,
              parentSubaccountNumber: 0,
              equity: "1",
              freeCollateral: "1",
              childSubaccounts: [subaccount({ "BTC-USD": btc("SHORT", "1") }, {})],
            },
          },
          (c) => c.getParentSubaccount({ owner: OWNER, number: 0 }),
          'subaccount.childSubaccounts[0].openPerpetualPositions["BTC-USD"].size',
        ],
      ];
    for (const [path, body, run, field] of cases) {
      const { client, calls } = answering(path, body);
      const error = await rejection(run(client));
      expect(error instanceof IndexerDecodeError, `${field}: ${String(error)}`).toBe(true);
      expect(String((error as Error).message)).toContain(field);
      expect((error as { code?: string }).code).toBe("DECODE");
      expect(calls()).toBe(1);
    }
  });

  it("takes what the indexer sends: signed perpetual sizes, a closed position at 0, unsigned balances owed", async () => {
    const positions = { positions: [btc("SHORT", "-0.1"), btc("LONG", "0.25"), btc("SHORT", "0", "CLOSED")] };
    expect(
      (await answering("/v4/perpetualPositions", positions).client.getPerpetualPositions(params)).positions,
    ).toHaveLength(3);
    const owed = { positions: [usdc("SHORT", "100.5"), usdc("LONG", "0")] };
    expect(
      (await answering("/v4/assetPositions", owed).client.getAssetPositions(params)).positions,
    ).toHaveLength(2);
    const body = {
      subaccount: subaccount({ "BTC-USD": btc("SHORT", "-0.1") }, { USDC: usdc("LONG", "7000") }),
    };
    const { client } = answering(`/v4/addresses/${OWNER}/subaccountNumber/0`, body);
    expect((await client.getSubaccount(params)).subaccount.equity).toBe("100");
  });
});

describe("v4_subaccounts frames carrying positions", { timeout: 60_000 }, () => {
  let fake: FakeIndexer;
  let socket: IndexerSocket | undefined;
  beforeEach(async () => {
    fake = await startFakeIndexer();
  });
  afterEach(async () => {
    await socket?.close();
    await fake.stop();
  });

  it("reports a negative size against SHORT (update and snapshot), resyncs, and the stream goes on", async () => {
    const id = `${OWNER}/0`;
    const good = subaccount({ "BTC-USD": btc("SHORT", "-0.1") }, { USDC: usdc("LONG", "7000") });
    fake.snapshots.set(`v4_subaccounts ${id}`, { subaccount: good, orders: [], blockHeight: "3" });
    socket = await connectIndexerSocket({ url: fake.url, reconnect: { initialDelayMs: 1, maxDelayMs: 4 } });
    const errors: unknown[] = [];
    socket.on("error", (error) => errors.push(error));
    const live = watchSubaccount(socket, { owner: OWNER, number: 0 });
    const view = await live.ready();
    const prices = { "BTC-USD": "60000" };
    expect(view.equity(prices)).toBe("1000"); // 7000 - 0.1 × 60000

    // an asset owed, its size sent negative: -(-100) would add 100 USDC
    const update = { address: OWNER, subaccountNumber: 0, positionId: "a1", assetId: "0", symbol: "USDC" };
    fake.publish("v4_subaccounts", id, { assetPositions: [{ ...update, side: "SHORT", size: "-100" }] });
    await vi.waitFor(() => expect(errors).toHaveLength(1), HANG);
    expect(isIndexerFrameError(errors[0])).toBe(true);
    expect(errors[0]).toMatchObject({ channel: "v4_subaccounts", id, path: "assetPositions[0].size" });
    await vi.waitFor(() => expect(live.subscription.state).toBe("live"), HANG);
    expect(view.equity(prices)).toBe("1000");

    // a short position sent with a positive size
    const position = { ...btc("SHORT", "0.2"), address: OWNER, positionId: "p1" };
    fake.publish("v4_subaccounts", id, { perpetualPositions: [position] });
    await vi.waitFor(() => expect(errors).toHaveLength(2), HANG);
    expect(errors[1]).toMatchObject({ path: "perpetualPositions[0].size" });
    await vi.waitFor(() => expect(live.subscription.state).toBe("live"), HANG);
    expect(view.positions().map((p) => p.size)).toEqual(["-0.1"]);

    // the stream goes on: a good update is applied
    fake.publish("v4_subaccounts", id, { assetPositions: [{ ...update, side: "SHORT", size: "100" }] });
    await vi.waitFor(() => expect(view.equity(prices)).toBe("-6100"), HANG); // -100 - 0.1 × 60000
    expect(errors).toHaveLength(2);

    // a snapshot with a long position sent negative is refused as well, until a good one comes
    const subscribes = fake.subscribes.length;
    fake.snapshots.set(`v4_subaccounts ${id}`, {
      subaccount: subaccount({ "BTC-USD": btc("LONG", "-0.1") }, {}),
      orders: [],
      blockHeight: "9",
    });
    fake.dropAll();
    await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(3), HANG);
    expect(errors[2]).toMatchObject({ path: 'subaccount.openPerpetualPositions["BTC-USD"].size' });
    expect(fake.subscribes.length).toBeGreaterThan(subscribes);
    fake.snapshots.set(`v4_subaccounts ${id}`, { subaccount: good, orders: [], blockHeight: "10" });
    await vi.waitFor(() => expect(view.blockHeight).toBe("10"), HANG);
    expect(view.equity(prices)).toBe("1000");
    live.close();
  });
});
