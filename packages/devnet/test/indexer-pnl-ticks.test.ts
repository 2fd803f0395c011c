/**
 * roundtable's `create-pnl-ticks` over REST: which subaccounts get an hourly tick (only those with
 * a transfer, `SubaccountTable.getSubaccountsWithTransfers`) and how a tick's numbers print (big.js
 * `toFixed(6)` stored in an unconstrained `numeric`, which Postgres prints with its six decimals).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockRecord } from "../src/app/contract.js";
import { fundedAddresses } from "../src/app/genesis/funded-subaccounts.js";
import {
  deliver,
  getIndexer,
  type IndexedChain,
  signerAddresses,
  startFundedChain,
  transferMsg,
} from "./support/indexer-chain.js";

let chain: IndexedChain;
let alice: string;
let carol: string;
let tick: BlockRecord;

type Body = Record<string, unknown>;

beforeAll(async () => {
  // Alice deposits; Carol (a funded subaccount) holds only what genesis gave her: no transfer.
  chain = await startFundedChain([10_000_000_000n], { fundedSubaccounts: 1 });
  [alice] = signerAddresses(chain);
  carol = fundedAddresses(1)[0] as string;
  await deliver(chain, 0, [transferMsg({ owner: alice, number: 0 }, { owner: alice, number: 128 }, 25n)]);
  await deliver(chain, 0, [transferMsg({ owner: alice, number: 0 }, { owner: alice, number: 1 }, 10n)]);
  chain.devnet.app.control.advanceTime(3_600_000);
  tick = chain.devnet.mine(1)[0] as BlockRecord;
});

afterAll(async () => {
  await chain?.devnet.stop();
});

describe("hourly PnL ticks", () => {
  it("tick only the subaccounts with a transfer, as create-pnl-ticks selects them", async () => {
    const carolAccount = await getIndexer(chain, `/v4/addresses/${carol}/subaccountNumber/0`);
    // Carol's subaccount is indexed (funded at genesis) but never moved USDC in or out.
    expect(carolAccount.status).toBe(200);
    expect((carolAccount.body as { subaccount: Body }).subaccount.equity).not.toBe("0");
    const transfers = await getIndexer(chain, `/v4/transfers?address=${carol}&subaccountNumber=0`);
    expect((transfers.body as { transfers: Body[] }).transfers).toEqual([]);
    const carolTicks = await getIndexer(chain, `/v4/historical-pnl?address=${carol}&subaccountNumber=0`);
    expect(carolTicks).toMatchObject({ status: 200, body: { historicalPnl: [] } });
    const aliceTicks = await getIndexer(chain, `/v4/historical-pnl?address=${alice}&subaccountNumber=0`);
    const [latest] = (aliceTicks.body as { historicalPnl: Body[] }).historicalPnl;
    expect(latest?.blockHeight).toBe(tick.height.toString());
  });

  it("print equity, totalPnl and netTransfers with six decimals, as Postgres prints toFixed(6)", async () => {
    const answer = await getIndexer(chain, `/v4/historical-pnl?address=${alice}&subaccountNumber=0`);
    const [latest] = (answer.body as { historicalPnl: Body[] }).historicalPnl;
    // 10,000 deposited, 25 sent to subaccount 128 and 10 to subaccount 1, nothing traded.
    expect(latest).toMatchObject({
      equity: "9965.000000",
      totalPnl: "0.000000",
      netTransfers: "9965.000000",
    });
    const child = await getIndexer(chain, `/v4/historical-pnl?address=${alice}&subaccountNumber=128`);
    expect((child.body as { historicalPnl: Body[] }).historicalPnl[0]).toMatchObject({
      equity: "25.000000",
      totalPnl: "0.000000",
      netTransfers: "25.000000",
    });
    // The parent route: comlink's aggregateHourlyPnlTicks sums two children (0 and 128) with
    // big.js toString().
    const parent = await getIndexer(
      chain,
      `/v4/historical-pnl/parentSubaccountNumber?address=${alice}&parentSubaccountNumber=0`,
    );
    expect((parent.body as { historicalPnl: Body[] }).historicalPnl[0]).toMatchObject({
      equity: "9990",
      totalPnl: "0",
      netTransfers: "9990",
    });
    // A parent with one child's tick in the hour answers that row as stored.
    const lone = await getIndexer(
      chain,
      `/v4/historical-pnl/parentSubaccountNumber?address=${alice}&parentSubaccountNumber=1`,
    );
    expect((lone.body as { historicalPnl: Body[] }).historicalPnl[0]).toMatchObject({
      equity: "10.000000",
      totalPnl: "0.000000",
      netTransfers: "10.000000",
    });
  });
});
