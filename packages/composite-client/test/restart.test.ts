import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveNetwork } from "@perpx/core";
import { DEFAULT_PORTS, type Devnet, type DevnetPorts, startDevnet } from "@perpx/devnet";
import { isBroadcastTxError, isTransportError } from "@perpx/node-client";
import { LocalWallet } from "@perpx/node-client/wallets";
import { afterAll, describe, expect, it } from "vitest";
import { sparePortsByName } from "../../../tests/support/spare-ports.js";
import { CompositeClient, isOrderOutcomeUnknownError, type OrderHandle } from "../src/index.js";
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
  it("each ends accepted, UNKNOWN (then looked up) or not sent; none doubled or resubmitted", async () => {
    // Spare ports, which no parallel test takes while the devnet is down.
    const ports = await sparePortsByName(Object.keys(DEFAULT_PORTS) as (keyof DevnetPorts)[]);
    devnet = await startDevnet({ ...options, ports });
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
    const owner = client.subaccount.owner;
    const kindOf = (i: number) => (i % 2 === 0 ? "short-term" : "long-term");
    // (a) accepted: a handle; (b) sent, no answer: the unknown-outcome error and its handle;
    // (c) anything else: nothing reached the chain (or the chain refused it).
    const handles = outcomes.map((o) =>
      "handle" in o ? o.handle : isOrderOutcomeUnknownError(o.error) ? o.error.handle : undefined,
    );
    const results = await Promise.all(
      handles.map((handle, i) => handle?.result({ timeoutMs: "handle" in outcomes[i]! ? 8_000 : 12_000 })),
    );
    const FINAL_OR_OPEN = ["FILLED", "PARTIALLY_FILLED", "RESTING", "CANCELED", "EXPIRED", "REJECTED"];
    for (const [i, outcome] of outcomes.entries()) {
      const result = results[i];
      if ("handle" in outcome) {
        expect(result!.status === "UNKNOWN" || result!.final || result!.status === "RESTING").toBe(true);
        continue;
      }
      const { error } = outcome;
      if (isOrderOutcomeUnknownError(error)) {
        expect(error.status).toBe("UNKNOWN");
        expect(error.clientId).toBe(base + i);
        expect(error.txHash).toMatch(/^[0-9A-F]{64}$/);
        // Looked up after the restart: a definite state, or still UNKNOWN; never resent.
        expect([...FINAL_OR_OPEN, "UNKNOWN"]).toContain(result!.status);
        continue;
      }
      // Not sent, or refused: a typed error, and (below) no such order on the chain.
      expect(isTransportError(error) || isBroadcastTxError(error)).toBe(true);
    }
    // One broadcast per order at most: nothing was resubmitted.
    const broadcasts =
      proxy.requests.filter((r) => r.method?.startsWith("broadcast_tx")).length - broadcastsBefore;
    expect(broadcasts).toBeLessThanOrEqual(50);
    // On chain: each accepted long-term order survived the restart in state (--state); a not-sent
    // or refused one is not there.
    const notSent = new Set<number>();
    for (const [i, outcome] of outcomes.entries()) {
      const sent = "handle" in outcome || isOrderOutcomeUnknownError(outcome.error);
      if (!sent) notSent.add(base + i);
      if (kindOf(i) === "short-term") continue; // not in state: their CheckTx answer was final
      const state = await client.context.node.getStatefulOrder({
        order: {
          subaccount: { owner, number: 0 },
          clientId: base + i,
          clobPairId: btc.clobPairId,
          kind: "long-term",
        },
      });
      if ("handle" in outcome) expect(state?.orderPlacement?.order?.orderId?.clientId).toBe(base + i);
      if (!sent) expect(state).toBeUndefined();
    }
    // In the indexer: each client id at most once, and none of the orders that were not sent.
    const url = `${devnet.endpoints.indexer}/v4/orders?address=${owner}&subaccountNumber=0&limit=1000`;
    const indexed = (await (await fetch(url)).json()) as { clientId: string }[];
    const ids = indexed.map((o) => Number(o.clientId)).filter((id) => id >= base && id < base + 50);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => notSent.has(id))).toEqual([]);
    const placed = outcomes.filter((o) => "handle" in o).length;
    expect(placed).toBeGreaterThan(0);
    await client.cancelAll();
  });
});
