import { stringToPath } from "@cosmjs/crypto";
import { DirectEthSecp256k1HdWallet, DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
import {
  addressToHex,
  isAbortedError,
  isInvalidAddressError,
  isInvalidArgumentError,
  isInvalidOrderError,
  isInvalidSubaccountError,
} from "@perpx/core";
import { startDevnet } from "@perpx/devnet";
import { describe, expect, it, vi } from "vitest";
import {
  broadcastTx,
  createNodeClient,
  isBroadcastTxError,
  isSequenceMismatchError,
  isTxInclusionTimeoutError,
  simulateTx,
} from "../src/index.js";
import { bankSendMsg, placeOrderMsg, resolveGasPrice, signTx } from "../src/tx.js";
import { EvmWallet, evmHdPath, fromOfflineSigner, type LocalWallet } from "../src/wallets.js";
import { useDevnet } from "./support.js";

const net = useDevnet();

const usdc = (amount: bigint | number) => [{ denom: "uusdc", amount: BigInt(amount) }];
async function balance(address: string, denom = "uusdc"): Promise<bigint> {
  return (await net.client.getBalance({ address, denom })).amount;
}
function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => error,
  );
}

describe("gas and fees", () => {
  it("simulates, multiplies by 1.6 (ceil) and pays ceil(gas × 0.025) uusdc", async () => {
    const [alice, bob] = [net.wallets[0]!, net.wallets[1]!];
    const messages = [bankSendMsg({ from: alice.address, to: bob.address, amount: usdc(10) })];
    const account = await net.client.getAccountSequence({ address: alice.address });
    const simulated = await simulateTx(net.client, {
      messages,
      publicKey: alice.publicKey,
      keyType: alice.keyType,
      sequence: account.sequence,
    });
    expect(simulated.gasUsed).toBeGreaterThan(0n);
    const before = await balance(alice.address);
    const result = await net.client.sendTx({ signer: alice, messages });
    const gasLimit = BigInt(Math.ceil(Number(simulated.gasUsed) * 1.6));
    expect(result.fee.gasLimit).toBe(gasLimit);
    expect(result.fee.amount).toEqual([{ denom: "uusdc", amount: (gasLimit * 25n + 999n) / 1000n }]);
    expect(result.gasWanted).toBe(gasLimit);
    expect(before - (await balance(alice.address))).toBe(10n + (gasLimit * 25n + 999n) / 1000n);
  });

  it("takes the fee in aperpx at 25000000000 per gas (per call and as the client default)", async () => {
    const [alice, bob] = [net.wallets[0]!, net.wallets[1]!];
    const before = await balance(alice.address, "aperpx");
    const result = await net.client.bankSend({
      signer: alice,
      from: alice.address,
      to: bob.address,
      amount: usdc(1),
      tx: { feeDenom: "aperpx" },
    });
    expect(result.fee.amount).toEqual([{ denom: "aperpx", amount: result.fee.gasLimit * 25_000_000_000n }]);
    expect(before - (await balance(alice.address, "aperpx"))).toBe(result.fee.gasLimit * 25_000_000_000n);
    const native = net.makeClient({ feeDenom: "aperpx" });
    const second = await native.bankSend({
      signer: alice,
      from: alice.address,
      to: bob.address,
      amount: usdc(1),
    });
    expect(second.fee.amount[0]?.denom).toBe("aperpx");
  });

  it("honours a gas multiplier, a fixed gas limit, a gas price, gas prices and an explicit fee", async () => {
    const [alice, bob] = [net.wallets[0]!, net.wallets[1]!];
    const messages = [bankSendMsg({ from: alice.address, to: bob.address, amount: usdc(1) })];
    const base = await net.client.sendTx({ signer: alice, messages });
    const doubled = await net.client.sendTx({ signer: alice, messages, gasMultiplier: 3.2 });
    expect(doubled.fee.gasLimit).toBeGreaterThanOrEqual(base.fee.gasLimit * 2n - 1n);
    const lowMultiplier = net.makeClient({ gasMultiplier: 1.1 });
    expect((await lowMultiplier.sendTx({ signer: alice, messages })).fee.gasLimit).toBeLessThan(
      base.fee.gasLimit,
    );
    const fixed = await net.client.sendTx({ signer: alice, messages, gas: 300_000n });
    expect(fixed.fee).toEqual({ amount: [{ denom: "uusdc", amount: 7500n }], gasLimit: 300_000n });
    const pricier = await net.client.sendTx({
      signer: alice,
      messages,
      gas: 300_000n,
      gasPrice: { denom: "uusdc", amount: "0.05" },
    });
    expect(pricier.fee.amount).toEqual([{ denom: "uusdc", amount: 15_000n }]);
    const configured = net.makeClient({
      network: undefined,
      gasPrices: [{ denom: "uusdc", amount: "0.03" }],
    });
    expect((await configured.sendTx({ signer: alice, messages, gas: 100_000n })).fee.amount).toEqual([
      { denom: "uusdc", amount: 3000n },
    ]);
    const explicit = await net.client.sendTx({
      signer: alice,
      messages,
      fee: { amount: [{ denom: "uusdc", amount: 9999n }], gasLimit: 250_000n },
    });
    expect(explicit.tx?.gasWanted).toBe(250_000n);
  });

  it("reads gas prices from the node when there is no network preset", async () => {
    const client = net.makeClient({ network: undefined });
    const [alice, bob] = [net.wallets[0]!, net.wallets[1]!];
    await client.bankSend({
      signer: alice,
      from: alice.address,
      to: bob.address,
      amount: usdc(1),
      tx: { gas: 200_000n },
    });
    // Read from the node once, then kept.
    expect(await resolveGasPrice(client, { denom: "aperpx" })).toEqual({
      denom: "aperpx",
      amount: "25000000000",
    });
    expect(await resolveGasPrice(client, { denom: "uusdc" })).toEqual({ denom: "uusdc", amount: "0.025" });
    await expect(
      client.sendTx({
        signer: alice,
        messages: [bankSendMsg({ from: alice.address, to: bob.address, amount: usdc(1) })],
        feeDenom: "ueth",
      }),
    ).rejects.toSatisfy(isInvalidArgumentError);
  });
});

describe("broadcast modes", () => {
  it("sync returns after CheckTx, async before, commit after the block", async () => {
    const [carl, dave] = [net.wallets[2]!, net.wallets[3]!];
    const messages = [bankSendMsg({ from: carl.address, to: dave.address, amount: usdc(2) })];
    const sync = await net.client.sendTx({ signer: carl, messages, broadcastMode: "sync" });
    expect(sync.mode).toBe("sync");
    expect(sync.height).toBeUndefined();
    expect((await net.client.waitForTx({ hash: sync.hash })).code).toBe(0);
    const asyncResult = await net.client.sendTx({ signer: carl, messages, broadcastMode: "async" });
    expect(asyncResult.height).toBeUndefined();
    expect((await net.client.waitForTx({ hash: asyncResult.hash })).code).toBe(0);
    const commit = await net.client.sendTx({ signer: carl, messages, broadcastMode: "commit" });
    expect(commit.height).toBeGreaterThan(0n);
    expect(commit.events.some((e) => e.type === "transfer")).toBe(true);
    const syncByDefault = net.makeClient({ broadcastMode: "sync" });
    expect((await syncByDefault.sendTx({ signer: carl, messages })).height).toBeUndefined();
  });

  it("onBroadcast throwing at sending stops the send: nothing goes out, the next send goes through", async () => {
    const [carl, dave] = [net.wallets[2]!, net.wallets[3]!];
    const messages = [bankSendMsg({ from: carl.address, to: dave.address, amount: usdc(3) })];
    const stop = new Error("cancelled before sending");
    let hash = "";
    const stopped = await caught(
      net.client.sendTx({
        signer: carl,
        messages,
        onBroadcast: (step) => {
          hash = step.hash;
          if (step.stage === "sending") throw stop;
        },
      }),
    );
    expect(stopped).toBe(stop);
    // Another transfer (the same one, signed with the same sequence, would have the same hash).
    const other = [bankSendMsg({ from: carl.address, to: dave.address, amount: usdc(4) })];
    const sent = await net.client.sendTx({ signer: carl, messages: other });
    expect(sent.tx?.code).toBe(0);
    // The stopped one never reached the node: no block holds it.
    expect(hash).toMatch(/^[0-9A-F]{64}$/);
    expect(await net.client.getTx({ hash })).toBeUndefined();
  });

  it("broadcasts over gRPC or RPC, and raw bytes with broadcastTx", async () => {
    const [carl, dave] = [net.wallets[2]!, net.wallets[3]!];
    const messages = [bankSendMsg({ from: carl.address, to: dave.address, amount: usdc(1) })];
    const viaGrpc = await net.client.sendTx({ signer: carl, messages, broadcastTransport: "grpc" });
    expect(viaGrpc.height).toBeGreaterThan(0n);
    const grpcOnly = net.makeClient({ nodeRpc: undefined, nodeRest: undefined });
    expect((await grpcOnly.sendTx({ signer: carl, messages })).height).toBeGreaterThan(0n);
    const account = await net.client.getAccountSequence({ address: carl.address });
    const signed = await signTx({
      signer: carl,
      messages,
      chainId: "perpx-local-1",
      ...account,
      fee: { amount: usdc(5000), gasLimit: 200_000n },
    });
    for (const transport of ["rpc", "grpc"] as const) {
      const again =
        transport === "rpc"
          ? signed
          : await signTx({
              signer: carl,
              messages,
              chainId: "perpx-local-1",
              accountNumber: account.accountNumber,
              sequence: account.sequence + 1n,
              fee: { amount: usdc(5000), gasLimit: 200_000n },
            });
      const result = await broadcastTx(net.client, { txBytes: again.txBytes, mode: "commit", transport });
      expect(result.hash).toBe(again.hash);
    }
    net.client.sequences.reset(carl.address);
  });

  it("waits for the block over RPC tx by default, or over gRPC GetTx when asked", async () => {
    const [carl, dave] = [net.wallets[2]!, net.wallets[3]!];
    const grpcCalls: string[] = [];
    const client = net.makeClient({
      grpc: {
        url: net.devnet.endpoints.grpc,
        interceptors: [
          (next) => (request) => {
            grpcCalls.push(request.method.name);
            return next(request);
          },
        ],
      },
    });
    const sent = await client.bankSend({
      signer: carl,
      from: carl.address,
      to: dave.address,
      amount: usdc(1),
      tx: { broadcastMode: "sync", gas: 200_000n },
    });
    await client.waitForTx({ hash: sent.hash });
    expect(grpcCalls).not.toContain("GetTx");
    await client.waitForTx({ hash: sent.hash, transport: "grpc" });
    expect(grpcCalls).toContain("GetTx");
  });

  it("commit gives up with a timeout error that carries the hash, and the tx can be found later", async () => {
    const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
    try {
      const client = createNodeClient({ nodeRpc: devnet.endpoints.nodeRpc, pollIntervalMs: 20 });
      const alice = net.wallets[0]!;
      const error = await caught(
        client.bankSend({
          signer: alice,
          from: alice.address,
          to: net.wallets[1]!.address,
          amount: usdc(1),
          tx: { gas: 200_000n, commitTimeoutMs: 150 },
        }),
      );
      expect(isTxInclusionTimeoutError(error)).toBe(true);
      const hash = (error as { txHash: string }).txHash;
      expect(hash).toMatch(/^[0-9A-F]{64}$/);
      expect(String(error)).toContain(hash);
      expect(await client.getTx({ hash })).toBeUndefined();
      devnet.mine(1);
      expect((await client.getTx({ hash }))?.code).toBe(0);
      const clientTimeout = createNodeClient({
        nodeRpc: devnet.endpoints.nodeRpc,
        commitTimeoutMs: 100,
        pollIntervalMs: 20,
      });
      const again = await caught(
        clientTimeout.bankSend({
          signer: alice,
          from: alice.address,
          to: net.wallets[1]!.address,
          amount: usdc(1),
          tx: { gas: 200_000n },
        }),
      );
      expect((again as { timeoutMs: number }).timeoutMs).toBe(100);
      // The caller's AbortSignal ends the wait for the block too (the tx stays in the mempool).
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const aborted = await caught(
        client.bankSend({
          signer: alice,
          from: alice.address,
          to: net.wallets[1]!.address,
          amount: usdc(2),
          tx: { gas: 200_000n, signal: controller.signal },
        }),
      );
      expect(isAbortedError(aborted), String(aborted)).toBe(true);
      // The very same bytes twice: the second is refused as already in the mempool.
      const account = await client.getAccountSequence({ address: net.wallets[2]!.address });
      const twice = await signTx({
        signer: net.wallets[2]!,
        messages: [bankSendMsg({ from: net.wallets[2]!.address, to: alice.address, amount: usdc(1) })],
        chainId: "perpx-local-1",
        ...account,
        fee: { amount: usdc(5000), gasLimit: 200_000n },
      });
      await broadcastTx(client, { txBytes: twice.txBytes, mode: "sync" });
      const again19 = await caught(broadcastTx(client, { txBytes: twice.txBytes, mode: "sync" }));
      expect(again19).toMatchObject({ reason: "tx-in-mempool", abciCode: 19, txHash: twice.hash });
      client.close();
    } finally {
      await devnet.stop();
    }
  });

  it("polls at the configured interval", async () => {
    // Blocks are mined by hand and timers are faked while the txs wait: a poll goes out only when the
    // test moves the clock, so what is measured is milliseconds of that clock, never of the machine.
    let polls = 0;
    let broadcasts = 0;
    const fetchFn: typeof fetch = async (input, init) => {
      const body = typeof init?.body === "string" ? init.body : "";
      if (body.includes('"method":"tx"')) polls++;
      const response = await fetch(input, init);
      if (body.includes('"method":"broadcast_tx_sync"')) broadcasts++;
      return response;
    };
    /** Moves the fake clock 1 ms at a time (letting the sockets run in between) until poll `count` went out; returns the ms moved. */
    const clockUntilPoll = async (count: number): Promise<number> => {
      let moved = 0;
      while (polls < count) {
        if (moved >= 60_000) throw new Error(`no poll ${count} after 60 s of the fake clock`);
        await vi.advanceTimersByTimeAsync(1);
        await new Promise((resolve) => setImmediate(resolve));
        moved++;
      }
      return moved;
    };
    const [carl, dave] = [net.wallets[2]!, net.wallets[3]!];
    const send = (pollIntervalMs: number) =>
      net
        .makeClient({
          nodeRpc: { url: net.devnet.endpoints.nodeRpc, fetch: fetchFn },
          grpc: undefined,
          pollIntervalMs,
        })
        .bankSend({
          signer: carl,
          from: carl.address,
          to: dave.address,
          amount: usdc(1),
          tx: { gas: 200_000n },
        });
    net.devnet.producer.setBlockTimeMs(0);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"], shouldClearNativeTimers: true });
    try {
      // Every 10 ms: each next poll takes at least 10 ms of the clock, far from the 500 ms default.
      const fast = send(10);
      await clockUntilPoll(1);
      for (let i = 2; i <= 40; i++) {
        const moved = await clockUntilPoll(i);
        expect(moved).toBeGreaterThanOrEqual(10);
        expect(moved).toBeLessThan(500);
      }
      net.devnet.mine(1);
      await clockUntilPoll(41);
      await fast;

      // Every second: the second poll waits a full second of the clock, and not a second more.
      polls = 0;
      const before = broadcasts;
      const slow = send(1_000);
      await clockUntilPoll(1);
      expect(broadcasts).toBe(before + 1);
      const moved = await clockUntilPoll(2);
      expect(moved).toBeGreaterThanOrEqual(1_000);
      expect(moved).toBeLessThan(2_000);
      net.devnet.mine(1);
      await clockUntilPoll(3);
      await slow;
    } finally {
      vi.useRealTimers();
      net.devnet.producer.setBlockTimeMs(50);
    }
  });
});

describe("several messages in one transaction", () => {
  it("applies all of them, or none", async () => {
    const [emma, bob, carl] = [net.wallets[4]!, net.wallets[1]!, net.wallets[2]!];
    const [bobBefore, carlBefore] = [await balance(bob.address), await balance(carl.address)];
    await net.client.sendTx({
      signer: emma,
      memo: "two at once",
      messages: [
        bankSendMsg({ from: emma.address, to: bob.address, amount: usdc(11) }),
        bankSendMsg({ from: emma.address, to: carl.address, amount: usdc(22) }),
      ],
    });
    expect(await balance(bob.address)).toBe(bobBefore + 11n);
    expect(await balance(carl.address)).toBe(carlBefore + 22n);
    const error = await caught(
      net.client.sendTx({
        signer: emma,
        gas: 400_000n,
        messages: [
          bankSendMsg({ from: emma.address, to: bob.address, amount: usdc(5) }),
          bankSendMsg({ from: emma.address, to: carl.address, amount: usdc(10n ** 15n) }),
        ],
      }),
    );
    expect(
      isBroadcastTxError(error) && error.phase === "deliverTx" && error.reason === "insufficient-funds",
    ).toBe(true);
    expect(await balance(bob.address)).toBe(bobBefore + 11n);
  });

  it("carries memo and timeout height", async () => {
    const [emma, bob] = [net.wallets[4]!, net.wallets[1]!];
    const { height } = await net.client.getLatestBlock();
    const result = await net.client.bankSend({
      signer: emma,
      from: emma.address,
      to: bob.address,
      amount: usdc(1),
      tx: { memo: "hello perpx", timeoutHeight: height + 100n },
    });
    expect(result.tx?.tx?.body?.memo).toBe("hello perpx");
    expect(result.tx?.tx?.body?.timeoutHeight).toBe(height + 100n);
  });
});

describe("send options", () => {
  it("account: the sequence of the named account (either address form) is used", async () => {
    const [emma, bob] = [net.wallets[4]!, net.wallets[1]!];
    const info = await net.client.getAccountSequence({ address: emma.address });
    const result = await net.client.bankSend({
      signer: emma,
      from: emma.address,
      to: bob.address,
      amount: usdc(1),
      tx: { account: addressToHex(emma.address) },
    });
    expect(result.accountNumber).toBe(info.accountNumber);
    expect(result.sequence).toBe(info.sequence);
  });

  it("validate: false skips the order window check and lets the chain judge", async () => {
    const carl = net.wallets[2]!;
    const { height } = await net.client.getLatestBlock();
    const params = {
      signer: carl,
      subaccount: { owner: carl.address, number: 0 },
      clientId: 9,
      clobPairId: 0,
      side: "BUY" as const,
      quantums: 1_000_000n,
      subticks: 100_000n,
      kind: "short-term" as const,
      goodTilBlock: Number(height) + 1_000,
    };
    expect(isInvalidOrderError(await caught(net.client.placeOrder(params)))).toBe(true);
    const judged = await caught(
      net.client.placeOrder({ ...params, tx: { validate: false, broadcastMode: "sync" } }),
    );
    expect(isBroadcastTxError(judged)).toBe(true);
  });

  it("knownLatestBlock: the order window is checked against the block given, not a query", async () => {
    const carl = net.wallets[2]!;
    const latest = await net.client.getLatestBlock();
    const params = {
      signer: carl,
      subaccount: { owner: carl.address, number: 0 },
      clientId: 10,
      clobPairId: 0,
      side: "BUY" as const,
      quantums: 1_000_000n,
      subticks: 100_000n,
      kind: "short-term" as const,
      goodTilBlock: Number(latest.height) + 10,
    };
    // In window for the real height, out of it for a block the caller says is 100 blocks older.
    const stale = { height: latest.height - 100n, time: latest.time };
    const refused = await caught(net.client.placeOrder({ ...params, tx: { knownLatestBlock: stale } }));
    expect(isInvalidOrderError(refused) && refused.message).toMatch(/goodTilBlock/);
  });

  it("searchTxs pages", async () => {
    const sender = net.wallets[0]!.address;
    const first = await net.client.searchTxs({ query: `message.sender='${sender}'`, perPage: 1, page: 1 });
    const second = await net.client.searchTxs({ query: `message.sender='${sender}'`, perPage: 1, page: 2 });
    expect(first.totalCount).toBeGreaterThan(1);
    expect(first.txs).toHaveLength(1);
    expect(second.txs[0]?.hash).not.toBe(first.txs[0]?.hash);
  });
});

describe("wallets on chain", () => {
  it("an EVM wallet (eth_secp256k1) signs transactions", async () => {
    const alice = net.wallets[0]!;
    const evm = EvmWallet.fromMnemonic(net.devnet.accounts[0]!.mnemonic);
    await net.client.bankSend({
      signer: alice,
      from: alice.address,
      to: evm.address,
      amount: [
        { denom: "uusdc", amount: 5_000_000n },
        { denom: "aperpx", amount: 10n ** 18n },
      ],
    });
    const result = await net.client.bankSend({
      signer: evm,
      from: evm.evmAddress,
      to: alice.address,
      amount: usdc(1_000),
      tx: { feeDenom: "aperpx" },
    });
    expect(result.height).toBeGreaterThan(0n);
    const account = await net.client.getAccount({ address: evm.address });
    expect(account?.publicKey?.typeUrl).toBe("/cosmos.evm.crypto.v1.ethsecp256k1.PubKey");
    expect(account?.sequence).toBe(1n);
  });

  it("external cosmjs signers (secp256k1 and eth_secp256k1) sign through fromOfflineSigner", async () => {
    const mnemonic = net.devnet.accounts[1]!.mnemonic;
    const cosmjs = await DirectSecp256k1HdWallet.fromMnemonic(mnemonic, { prefix: "perpx" });
    const signer = await fromOfflineSigner(cosmjs);
    expect(signer.address).toBe(net.wallets[1]!.address);
    const result = await net.client.bankSend({
      signer,
      from: signer.address,
      to: net.wallets[2]!.address,
      amount: usdc(3),
    });
    expect(result.height).toBeGreaterThan(0n);
    const cosmjsEth = await DirectEthSecp256k1HdWallet.fromMnemonic(mnemonic, {
      prefix: "perpx",
      hdPaths: [stringToPath(evmHdPath(0))],
    });
    const ethSigner = await fromOfflineSigner(cosmjsEth, {
      address: EvmWallet.fromMnemonic(mnemonic).address,
    });
    expect(ethSigner.keyType).toBe("eth_secp256k1");
    await net.client.bankSend({
      signer: net.wallets[1]!,
      from: net.wallets[1]!.address,
      to: ethSigner.address,
      amount: usdc(1_000_000),
    });
    expect(
      (
        await net.client.bankSend({
          signer: ethSigner,
          from: ethSigner.address,
          to: net.wallets[1]!.address,
          amount: usdc(1),
        })
      ).height,
    ).toBeGreaterThan(0n);
    await expect(fromOfflineSigner(cosmjs, { address: net.wallets[3]!.address })).rejects.toSatisfy(
      isInvalidArgumentError,
    );
  });
});

describe("sequences", () => {
  it("50 concurrent transactions from one wallet all land, exactly once", async () => {
    const [dave, bob] = [net.wallets[3]!, net.wallets[1]!];
    const client = net.makeClient();
    const before = await client.getAccountSequence({ address: dave.address });
    const bobBefore = await balance(bob.address);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client.bankSend({ signer: dave, from: dave.address, to: bob.address, amount: usdc(i + 1) }),
      ),
    );
    expect(new Set(results.map((r) => r.hash)).size).toBe(50);
    expect(results.map((r) => r.sequence).sort((a, b) => Number(a - b))).toEqual(
      Array.from({ length: 50 }, (_, i) => before.sequence + BigInt(i)),
    );
    for (const r of results) expect((await client.getTx({ hash: r.hash }))?.code).toBe(0);
    expect((await client.getAccountSequence({ address: dave.address })).sequence).toBe(before.sequence + 50n);
    expect(await balance(bob.address)).toBe(bobBefore + 1275n);
  });

  it("resyncs after another client used the account, and retries once with the same messages", async () => {
    const [carl, bob] = [net.wallets[2]!, net.wallets[1]!];
    const mine = net.makeClient();
    const theirs = net.makeClient();
    await mine.bankSend({ signer: carl, from: carl.address, to: bob.address, amount: usdc(1) });
    const cached = mine.sequences.peek(carl.address).sequence!;
    await theirs.bankSend({ signer: carl, from: carl.address, to: bob.address, amount: usdc(1) });
    await theirs.bankSend({ signer: carl, from: carl.address, to: bob.address, amount: usdc(1) });
    const result = await mine.bankSend({
      signer: carl,
      from: carl.address,
      to: bob.address,
      amount: usdc(1),
    });
    expect(result.sequence).toBe(cached + 2n);
    expect(mine.sequences.peek(carl.address).sequence).toBe(cached + 3n);
  });

  it("reports a sequence mismatch with expected and got", async () => {
    const [carl, bob] = [net.wallets[2]!, net.wallets[1]!];
    const account = await net.client.getAccountSequence({ address: carl.address });
    const signed = await signTx({
      signer: carl,
      messages: [bankSendMsg({ from: carl.address, to: bob.address, amount: usdc(1) })],
      chainId: "perpx-local-1",
      accountNumber: account.accountNumber,
      sequence: account.sequence + 5n,
      fee: { amount: usdc(5000), gasLimit: 200_000n },
    });
    const error = await caught(broadcastTx(net.client, { txBytes: signed.txBytes, mode: "sync" }));
    expect(isSequenceMismatchError(error)).toBe(true);
    expect(error).toMatchObject({
      reason: "sequence-mismatch",
      abciCode: 32,
      codespace: "sdk",
      phase: "checkTx",
      expected: account.sequence,
      got: account.sequence + 5n,
      txHash: signed.hash,
    });
  });

  it("sends many stateful transactions in parallel with timestamp nonces, leaving the sequence alone", async () => {
    const [emma, bob] = [net.wallets[4]!, net.wallets[1]!];
    const client = net.makeClient({ nonceMode: "timestamp" });
    const before = await client.getAccountSequence({ address: emma.address });
    const results = await Promise.all(
      Array.from({ length: 15 }, () =>
        client.bankSend({
          signer: emma,
          from: emma.address,
          to: bob.address,
          amount: usdc(1),
          tx: { gas: 200_000n },
        }),
      ),
    );
    expect(new Set(results.map((r) => r.sequence)).size).toBe(15);
    expect(results.every((r) => r.sequence >= 1n << 40n)).toBe(true);
    expect((await client.getAccountSequence({ address: emma.address })).sequence).toBe(before.sequence);
    const state = await client.getAccountState({ address: emma.address });
    expect(state?.timestampNonceDetails?.timestampNonces.length).toBeGreaterThan(0);
    // Per call, the classic mode still works on the same client.
    const classic = await client.bankSend({
      signer: emma,
      from: emma.address,
      to: bob.address,
      amount: usdc(1),
      tx: { nonceMode: "sequence" },
    });
    expect(classic.sequence).toBe(before.sequence);
  });

  it("uses the injected clock and offset for timestamp nonces", async () => {
    const [emma, bob] = [net.wallets[4]!, net.wallets[1]!];
    const now = Date.now();
    const client = net.makeClient({ nonceMode: "timestamp", now: () => now, timestampOffsetMs: -2_000 });
    const result = await client.bankSend({
      signer: emma,
      from: emma.address,
      to: bob.address,
      amount: usdc(1),
      tx: { gas: 200_000n },
    });
    expect(result.sequence).toBe(BigInt(now - 2_000));
  });
});

describe("errors", () => {
  const send = (signer: LocalWallet, amount: bigint, tx: object = {}) =>
    net.client.bankSend({
      signer,
      from: signer.address,
      to: net.wallets[1]!.address,
      amount: usdc(amount),
      tx,
    });

  it("insufficient funds: in simulation, and in the block with a fixed gas limit", async () => {
    const carl = net.wallets[2]!;
    const simulated = await caught(send(carl, 10n ** 15n));
    expect(simulated).toMatchObject({
      code: "BROADCAST_TX",
      reason: "insufficient-funds",
      abciCode: 5,
      phase: "simulate",
    });
    const delivered = await caught(send(carl, 10n ** 15n, { gas: 200_000n }));
    expect(delivered).toMatchObject({ reason: "insufficient-funds", abciCode: 5, phase: "deliverTx" });
    expect((delivered as { height: bigint }).height).toBeGreaterThan(0n);
    expect((delivered as { log: string }).log).toMatch(/insufficient funds/);
    // The failed tx used its sequence; the next one goes through.
    expect((await send(carl, 1n)).height).toBeGreaterThan(0n);
  });

  it("insufficient fee", async () => {
    const error = await caught(
      send(net.wallets[2]!, 1n, { gas: 200_000n, gasPrice: { denom: "uusdc", amount: "0.001" } }),
    );
    expect(error).toMatchObject({ reason: "insufficient-fee", abciCode: 13, phase: "checkTx" });
    expect((await send(net.wallets[2]!, 1n)).height).toBeGreaterThan(0n);
  });

  it("out of gas", async () => {
    const refused = await caught(send(net.wallets[2]!, 1n, { gas: 1_000n }));
    expect(refused).toMatchObject({ reason: "out-of-gas", abciCode: 11 });
    const delivered = await caught(send(net.wallets[2]!, 1n, { gas: 30_000n }));
    expect(isBroadcastTxError(delivered) && delivered.reason === "out-of-gas").toBe(true);
  });

  it("unauthorized: a signature for another chain id", async () => {
    const client = net.makeClient({ chainId: "perpx-testnet-1", network: undefined });
    const error = await caught(
      client.bankSend({
        signer: net.wallets[2]!,
        from: net.wallets[2]!.address,
        to: net.wallets[1]!.address,
        amount: usdc(1),
        tx: { gas: 200_000n },
      }),
    );
    expect(error).toMatchObject({ reason: "unauthorized", abciCode: 4, phase: "checkTx" });
  });

  it("invalid input fails before signing", async () => {
    const carl = net.wallets[2]!;
    const before = net.client.sequences.peek(carl.address);
    const { height } = await net.client.getLatestBlock();
    const order = {
      subaccount: { owner: carl.address, number: 0 },
      clientId: 1,
      clobPairId: 0,
      side: "BUY" as const,
      quantums: 1_000_000n,
      subticks: 100_000n,
      kind: "short-term" as const,
      goodTilBlock: Number(height) + 5,
    };
    const attempts: Array<[() => unknown, (e: unknown) => boolean]> = [
      [
        () => bankSendMsg({ from: carl.address, to: "perpx1notanaddress", amount: usdc(1) }),
        isInvalidAddressError,
      ],
      [
        () => placeOrderMsg({ ...order, subaccount: { owner: carl.address, number: 128_001 } }),
        isInvalidSubaccountError,
      ],
      [() => placeOrderMsg({ ...order, quantums: 0n }), isInvalidOrderError],
      [
        () => net.client.placeOrder({ ...order, signer: carl, goodTilBlock: Number(height) + 500 }),
        isInvalidOrderError,
      ],
      [
        () => net.client.placeOrder({ ...order, signer: carl, goodTilBlock: Number(height) - 1 }),
        isInvalidOrderError,
      ],
      [
        () => net.client.placeOrder({ ...order, signer: carl, kind: "long-term", goodTilBlockTime: 1 }),
        isInvalidOrderError,
      ],
    ];
    for (const [attempt, guard] of attempts) {
      let error: unknown;
      try {
        await attempt();
      } catch (e) {
        error = e;
      }
      expect(guard(error)).toBe(true);
    }
    const narrow = net.makeClient({ shortBlockWindow: 3 });
    expect(
      isInvalidOrderError(
        await caught(narrow.placeOrder({ ...order, signer: carl, goodTilBlock: Number(height) + 10 })),
      ),
    ).toBe(true);
    expect(net.client.sequences.peek(carl.address)).toEqual(before);
  });
});
