import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveNetwork } from "@perpx/core";
import { type Devnet, startDevnet } from "@perpx/devnet";
import { isBroadcastTxError, isTransportError } from "@perpx/node-client";
import { LocalWallet } from "@perpx/node-client/wallets";
import { afterAll, describe, expect, it } from "vitest";
import { CompositeClient, type OrderHandle, type OrderResult } from "../src/index.js";
import { type CountingProxy, startCountingProxy } from "./proxy.js";

const stateDir = mkdtempSync(join(tmpdir(), "composite-restart-"));
let devnet: Devnet | undefined;
let proxy: CountingProxy | undefined;
let client: CompositeClient | undefined;
afterAll(async () => {
  client?.close();
  await proxy?.close();
  await devnet?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

const options = { blockTimeMs: 100, faucetWindowMs: 0, liquidity: true, stateDir } as const;

describe("50 concurrent orders across a devnet restart", () => {
  it("each ends in one order, UNKNOWN or final; none doubled or resubmitted", async () => {
    devnet = await startDevnet({ ...options, ports: "free" });
    const ports = devnet.ports;
    proxy = await startCountingProxy(devnet.endpoints.nodeRpc);
    const local = resolveNetwork({ network: "local" });
    client = await CompositeClient.connect({
      network: {
        network: local.network,
        endpoints: {
          nodeRpc: proxy.url,
          indexer: devnet.endpoints.indexer,
          indexerWs: devnet.endpoints.indexerWs,
        },
      },
      wallet: LocalWallet.fromMnemonic(devnet.accounts[0]!.mnemonic),
      pollIntervalMs: 50,
    });
    await client.deposit({ amount: "20000" });
    const btc = await client.getMarket({ ticker: "BTC-USD" });
    const price = (Number(btc.oraclePrice) * 0.5).toFixed(0);
    const broadcastsBefore = proxy.requests.filter((r) => r.method?.startsWith("broadcast_tx")).length;
    const base = 700_000;
    const placing = Array.from({ length: 50 }, (_, i) =>
      client!
        .placeOrder({
          market: "BTC-USD",
          side: "BUY",
          size: "0.001",
          price,
          rounding: "down",
          clientId: base + i,
          ...(i % 2 === 0 ? { goodTil: { blocks: 40 } } : {}),
        })
        .then(
          (handle): { handle: OrderHandle } => ({ handle }),
          (error: unknown): { error: unknown } => ({ error }),
        ),
    );
    // Kill the devnet while the places are in flight, and bring it back on the same ports and state.
    await devnet.stop();
    devnet = await startDevnet({ ...options, ports });
    const outcomes = await Promise.all(placing);
    const results: (OrderResult | { error: unknown })[] = await Promise.all(
      outcomes.map((o) => ("handle" in o ? o.handle.result({ timeoutMs: 8_000 }) : o)),
    );
    for (const result of results) {
      if ("error" in result) {
        // Lost in flight or refused while the node was down: a typed error, nothing retried.
        expect(isTransportError(result.error) || isBroadcastTxError(result.error)).toBe(true);
        continue;
      }
      expect(result.status === "UNKNOWN" || result.final || result.status === "RESTING").toBe(true);
    }
    // One broadcast per order at most: nothing was resubmitted.
    const broadcasts =
      proxy.requests.filter((r) => r.method?.startsWith("broadcast_tx")).length - broadcastsBefore;
    expect(broadcasts).toBeLessThanOrEqual(50);
    // On chain, each client id is at most one order, and the account holds no order it did not place.
    const owner = client.subaccount.owner;
    for (const [i, outcome] of outcomes.entries()) {
      if (i % 2 === 0) continue; // short-term orders are not in state; their CheckTx answer was final
      const state = await client.context.node.getStatefulOrder({
        order: {
          subaccount: { owner, number: 0 },
          clientId: base + i,
          clobPairId: btc.clobPairId,
          kind: "long-term",
        },
      });
      // A long-term order the chain accepted survived the restart in state (--state).
      if ("handle" in outcome) expect(state?.orderPlacement?.order?.orderId?.clientId).toBe(base + i);
    }
    const url = `${devnet.endpoints.indexer}/v4/orders?address=${owner}&subaccountNumber=0&limit=1000`;
    const indexed = (await (await fetch(url)).json()) as { clientId: string }[];
    const ids = indexed.map((o) => Number(o.clientId)).filter((id) => id >= base && id < base + 50);
    expect(new Set(ids).size).toBe(ids.length);
    const placed = outcomes.filter((o) => "handle" in o).length;
    expect(placed).toBeGreaterThan(0);
    await client.cancelAll();
  });
});
