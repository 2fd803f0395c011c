/**
 * Broadcasts through a proxy that fails them on purpose, against a devnet: the request read and
 * never forwarded, forwarded with its answer lost, cut in the middle of the answer, or answered by
 * a gateway's 502 page. Each failure is a typed error whose `nothingSent` is false (the request
 * left the client), nothing is sent twice, and the signer's next transaction lands.
 */
import { local } from "@perpx/core";
import { startDevnet } from "@perpx/devnet";
import { afterAll, describe, expect, it } from "vitest";
import { startFaultProxy } from "../../../tests/support/fault-proxy.js";
import { broadcastTx, createNodeClient, isBroadcastTxError, isTransportError } from "../src/index.js";
import { bankSendMsg, signTx } from "../src/tx.js";
import { LocalWallet } from "../src/wallets.js";
import { useDevnet } from "./support.js";

const net = useDevnet({ blockTimeMs: 50 });

type Fault = "drop" | "swallow" | "cut-answer" | "502";

interface ArmedProxy {
  url: string;
  /** JSON-RPC methods of the requests seen, in order. */
  methods: string[];
  /** The fault of the next request for which `when` holds (once). */
  arm(fault: Fault, when: (method: string) => boolean): void;
  close(): Promise<void>;
}

async function startArmedProxy(target: string): Promise<ArmedProxy> {
  let armed: { fault: Fault; when: (method: string) => boolean } | undefined;
  const proxy = await startFaultProxy(target, {
    fault: ({ method = "" }) => {
      if (!armed?.when(method)) return undefined;
      const { fault } = armed;
      armed = undefined;
      return fault;
    },
  });
  return {
    url: proxy.url,
    get methods() {
      return proxy.requests.map((r) => r.method ?? "");
    },
    arm: (fault, when) => {
      armed = { fault, when };
    },
    close: proxy.close,
  };
}

const proxies: ArmedProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
});

const isBroadcast = (method: string) => method.startsWith("broadcast_tx");
const usdc = (amount: number) => [{ denom: "uusdc", amount: BigInt(amount) }];

/** A fresh funded wallet (bank USDC from one of the devnet's accounts) and a client behind a proxy. */
async function setUp() {
  const proxy = await startArmedProxy(net.devnet.endpoints.nodeRpc);
  proxies.push(proxy);
  const client = net.makeClient({ nodeRpc: proxy.url, grpc: undefined });
  const wallet = LocalWallet.generate();
  const funder = net.wallets[proxies.length % 4]!;
  await net.client.bankSend({
    signer: funder,
    from: funder.address,
    to: wallet.address,
    amount: usdc(100_000_000),
  });
  return { proxy, client, wallet };
}

describe("a broadcast that fails on the way", () => {
  for (const fault of ["drop", "swallow", "cut-answer", "502"] as const) {
    it(`${fault}: a TransportError that may have been sent; nothing resent; the next transaction lands`, async () => {
      const { proxy, client, wallet } = await setUp();
      const to = LocalWallet.generate().address;
      const before = await net.client.getAccountSequence({ address: wallet.address });
      proxy.arm(fault, isBroadcast);
      const sentBefore = proxy.methods.filter(isBroadcast).length;
      const error = await client
        .bankSend({ signer: wallet, from: wallet.address, to, amount: usdc(1) })
        .catch((e: unknown) => e);
      expect(isTransportError(error) && error.nothingSent).toBe(false);
      expect(proxy.methods.filter(isBroadcast).length - sentBefore).toBe(1);
      const next = await client.bankSend({ signer: wallet, from: wallet.address, to, amount: usdc(2) });
      expect(next.tx?.code).toBe(0);
      const reached = fault !== "drop";
      expect(next.sequence).toBe(before.sequence + (reached ? 1n : 0n));
      expect((await net.client.getBalance({ address: to, denom: "uusdc" })).amount).toBe(reached ? 3n : 2n);
    });
  }
});

describe("the same signed bytes broadcast again", () => {
  it("while the first copy waits in the mempool: a tx-in-mempool refusal naming the same hash, applied once", async () => {
    // Blocks on demand only: the first copy stays in the mempool until the block asked for below.
    const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, faucetWindowMs: 0 });
    const client = createNodeClient({
      nodeRpc: devnet.endpoints.nodeRpc,
      network: local,
      pollIntervalMs: 25,
    });
    try {
      const wallet = LocalWallet.fromMnemonic(devnet.accounts[0]!.mnemonic);
      const to = LocalWallet.generate().address;
      const account = await client.getAccountSequence({ address: wallet.address });
      const signed = await signTx({
        signer: wallet,
        messages: [bankSendMsg({ from: wallet.address, to, amount: usdc(7) })],
        chainId: "perpx-local-1",
        accountNumber: account.accountNumber,
        sequence: account.sequence,
        fee: { amount: usdc(5000), gasLimit: 200_000n },
      });
      const first = await broadcastTx(client, { txBytes: signed.txBytes, mode: "sync" });
      const again = await broadcastTx(client, { txBytes: signed.txBytes, mode: "sync" }).catch(
        (e: unknown) => e,
      );
      expect(isBroadcastTxError(again) && [again.reason, again.txHash]).toEqual([
        "tx-in-mempool",
        first.hash,
      ]);
      await fetch(`${devnet.endpoints.devnetControl}/devnet/blocks`, { method: "POST", body: '{"count":1}' });
      expect((await client.waitForTx({ hash: first.hash })).code).toBe(0);
      expect((await client.getBalance({ address: to, denom: "uusdc" })).amount).toBe(7n);
    } finally {
      client.close();
      await devnet.stop();
    }
  });
});
