/**
 * A TWAP order: buy 0.005 BTC over five minutes in five suborders a minute apart, each priced at
 * most 1% above the oracle (a market TWAP: no price). The chain places the suborders itself; the
 * order's handle follows them and reports each fill, then the end. On a devnet the example moves
 * the chain's clock one interval on after each fill (its control route), so the five minutes pass
 * at once; on another network it takes the five minutes.
 *
 * Output (checked by tests/examples.test.ts):
 *   placed twap buy 0.005 BTC-USD over 300 s every 60 s (tolerance 1%), client id <id>
 *   suborder 1 filled 0.001 BTC-USD @ <price> in block <height>
 *   suborder 2 filled 0.001 BTC-USD @ <price> in block <height>
 *   suborder 3 filled 0.001 BTC-USD @ <price> in block <height>
 *   suborder 4 filled 0.001 BTC-USD @ <price> in block <height>
 *   suborder 5 filled 0.001 BTC-USD @ <price> in block <height>
 *   status: FILLED, 0.005 BTC-USD at an average <price> USD
 */
import type { OrderResult } from "@perpx/composite-client";
import { runExample } from "../support/network.js";

const TWAP = { durationSeconds: 300, intervalSeconds: 60, priceTolerance: "1%" };

await runExample(
  async ({ client }) => {
    const control = client.context.config.endpoints.devnetControl;
    const order = await client.placeOrder({
      market: "BTC-USD",
      side: "BUY",
      type: "TWAP",
      size: "0.005",
      twap: TWAP,
    });
    console.log(
      `placed ${order.kind} buy 0.005 BTC-USD over ${TWAP.durationSeconds} s every ${TWAP.intervalSeconds} s (tolerance ${TWAP.priceTolerance}), client id ${order.clientId}`,
    );
    // Follow the order to its end. On a devnet, each fill moves the clock one interval on, so the
    // next suborder comes with the next block rather than a minute later.
    let filled = "0";
    let end: OrderResult | undefined;
    for await (const state of order.updates()) {
      end = state;
      if (state.final) break;
      if (control !== undefined && state.filledSize !== filled) {
        filled = state.filledSize;
        await fetch(`${control}/devnet/advance-time`, {
          method: "POST",
          body: JSON.stringify({ seconds: TWAP.intervalSeconds, mine: false }),
        });
      }
    }
    if (end === undefined) throw new Error(`order ${order.clientId} reported no state`);
    end.fills.forEach((fill, i) => {
      console.log(`suborder ${i + 1} filled ${fill.size} BTC-USD @ ${fill.price} in block ${fill.height}`);
    });
    console.log(`status: ${end.status}, ${end.filledSize} BTC-USD at an average ${end.averagePrice} USD`);
  },
  { collateral: "1000" },
);
