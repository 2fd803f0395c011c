/**
 * Accounts on a fork: the devnet's funded test accounts (their mnemonics are public) are not on a
 * fork unless asked, a forked account tops up its USDC from the fork's faucet (the live
 * network's balances stay as they were), and a fork holds what the live faucet credited just before.
 */
import { USDC_DENOM } from "@perpx/core";
import { type Devnet, GENESIS_ACCOUNTS, GENESIS_USDC_BALANCE, startDevnet } from "@perpx/devnet";
import { createNodeClient, getBalance, getSubaccount, type NodeConnection } from "@perpx/node-client";
import { LocalWallet } from "@perpx/node-client/wallets";
import { decodeSerializableInt } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFork } from "../src/index.js";

const trader = LocalWallet.generate().address;
let live: Devnet;
let liveNode: NodeConnection;

beforeAll(async () => {
  live = await startDevnet({ ports: "free", blockTimeMs: 0 });
  liveNode = createNodeClient({ grpc: live.endpoints.grpc });
  // The trader's live money: 5 USDC in the bank, 7 USDC in subaccount 0.
  live.app.control.fund(trader, [{ denom: USDC_DENOM, amount: 5_000_000n }]);
  live.app.control.fundSubaccount(trader, 0, 7_000_000n);
  live.mine(1);
});

afterAll(async () => {
  await live?.stop();
});

const usdc = async (node: NodeConnection) => ({
  bank: (await getBalance(node, { address: trader, denom: USDC_DENOM })).amount,
  subaccount: decodeSerializableInt(
    (await getSubaccount(node, { owner: trader, number: 0 }))?.assetPositions[0]?.quantums ??
      new Uint8Array(),
  ),
});

describe("accounts on a fork", () => {
  it("holds none of the devnet's test accounts unless asked", async () => {
    const fork = await startFork({
      from: "local",
      endpoints: live.endpoints,
      ports: "free",
      blockTimeMs: 0,
      shadow: false,
    });
    try {
      const node = createNodeClient({ grpc: fork.devnet.endpoints.grpc });
      expect(fork.devnet.accounts).toEqual([]);
      for (const account of GENESIS_ACCOUNTS) {
        expect((await getBalance(liveNode, { address: account.address, denom: USDC_DENOM })).amount).toBe(
          GENESIS_USDC_BALANCE,
        );
        expect((await getBalance(node, { address: account.address, denom: USDC_DENOM })).amount).toBe(0n);
      }
    } finally {
      await fork.stop();
    }
    const asked = await startFork({
      from: "local",
      endpoints: live.endpoints,
      ports: "free",
      blockTimeMs: 0,
      shadow: false,
      testAccounts: true,
    });
    try {
      const node = createNodeClient({ grpc: asked.devnet.endpoints.grpc });
      expect(asked.devnet.accounts.map((a) => a.address)).toEqual(GENESIS_ACCOUNTS.map((a) => a.address));
      const alice = GENESIS_ACCOUNTS[0]!.address;
      expect((await getBalance(node, { address: alice, denom: USDC_DENOM })).amount).toBe(
        GENESIS_USDC_BALANCE,
      );
    } finally {
      await asked.stop();
    }
  });

  it("tops up a forked account's USDC from the fork's faucet, and the live network's stays", async () => {
    const fork = await startFork({
      from: "local",
      endpoints: live.endpoints,
      accounts: [trader],
      ports: "free",
      blockTimeMs: 0,
      shadow: false,
    });
    try {
      const node = createNodeClient({ grpc: fork.devnet.endpoints.grpc });
      const before = await usdc(liveNode);
      expect(before).toEqual({ bank: 5_000_000n, subaccount: 7_000_000n });
      expect(await usdc(node)).toEqual(before);
      const response = await fetch(`${fork.devnet.endpoints.faucet}/faucet/tokens`, {
        method: "POST",
        body: JSON.stringify({ address: trader }),
      });
      expect(response.status).toBe(200);
      fork.devnet.mine(1);
      // The faucet's default grant: 1,000 USDC to the bank and 1,000 USDC to subaccount 0.
      expect(await usdc(node)).toEqual({ bank: 1_005_000_000n, subaccount: 1_007_000_000n });
      expect(await usdc(liveNode)).toEqual(before);
    } finally {
      await fork.stop();
    }
  });

  it("holds the subaccount the live faucet just credited, before the live indexer lists it", async () => {
    // The live faucet credits the committed state at once; its events, and with them the live
    // indexer's listing of the subaccount, come out in the next block, which is not made here.
    const fresh = LocalWallet.generate().address;
    const response = await fetch(`${live.endpoints.faucet}/faucet/tokens`, {
      method: "POST",
      body: JSON.stringify({ address: fresh }),
    });
    expect(response.status).toBe(200);
    const fork = await startFork({
      from: "local",
      endpoints: live.endpoints,
      accounts: [fresh],
      ports: "free",
      blockTimeMs: 0,
      shadow: false,
    });
    try {
      expect(fork.state.accounts[0]?.subaccounts).toEqual([
        { number: 0, usdc: 1_000_000_000n, positions: [] },
      ]);
      const node = createNodeClient({ grpc: fork.devnet.endpoints.grpc });
      const sub = await getSubaccount(node, { owner: fresh, number: 0 });
      expect(decodeSerializableInt(sub?.assetPositions[0]?.quantums ?? new Uint8Array())).toBe(
        1_000_000_000n,
      );
    } finally {
      await fork.stop();
    }
  });
});
