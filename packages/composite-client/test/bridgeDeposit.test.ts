/**
 * `bridgeDeposit` against the devnet's simulated source chains over their JSON-RPC sockets: EVM
 * wallets of the test accounts approve and deposit USDC on L1 and on L2 with signed EIP-1559
 * transactions, the bridge daemon carries the deposits over, and the client follows each one until
 * this chain credits it. Refusals come as typed errors before anything is signed.
 */
import { addressBytes, getNetwork, isInvalidAmountError } from "@perpx/core";
import { BRIDGE_ABI, encodeEvmCall, signEvmTx } from "@perpx/core/evm";
import { isInvalidArgumentError } from "@perpx/errors";
import { EvmWallet, LocalWallet } from "@perpx/node-client/wallets";
import { describe, expect, it, vi } from "vitest";
import { BridgeDepositError, type BridgeDepositStatus, evmRpcCall } from "../src/index.js";
import { useDevnet } from "./support.js";

/** Source blocks are sealed by the tests (see `mineWhenPending`), so no step passes unseen. */
const FINALITY_DEPTH = 2;
const net = useDevnet({ liquidity: false, sourceChains: { blockTimeMs: 0, finalityDepth: FINALITY_DEPTH } });
/** A bound on waiting for the client to report a step: it only catches a hang. */
const HANG_GUARD = { timeout: 60_000, interval: 20 };
const ORDER: BridgeDepositStatus["status"][] = ["OBSERVED", "FINALIZED", "ACKNOWLEDGED", "COMPLETED"];
const sources = getNetwork("local").bridgeSources!;

async function bank(address: string): Promise<bigint> {
  const url = `${net.devnet.endpoints.nodeRest}/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=uusdc`;
  return BigInt(((await (await fetch(url)).json()) as { balance: { amount: string } }).balance.amount);
}

async function sourceUsdc(url: string, usdc: string, owner: string): Promise<bigint> {
  const data = `0x70a08231${owner.slice(2).toLowerCase().padStart(64, "0")}`;
  return BigInt(await evmRpcCall<string>(url, "eth_call", [{ to: usdc, data }, "latest"]));
}

type SourceSlot = "l1" | "l2";

/**
 * Seals a block on the source chain whenever `from` has a transaction waiting, and never
 * otherwise, so a deposit's block stays the head (the deposit OBSERVED, not final) until the test
 * mines the blocks that make it final. Returns the stop function.
 */
function mineWhenPending(slot: SourceSlot, from: string): () => void {
  const source = net.devnet.sourceChains[slot];
  const timer = setInterval(() => {
    if (source.chain.pendingNonce(from) > source.chain.ledger.nonce(from)) source.mine(1);
  }, 10);
  return () => clearInterval(timer);
}

/** An EVM signer that counts what it signs. */
function counting(wallet: EvmWallet): { signer: EvmWallet; signed: () => number } {
  let count = 0;
  const signer = Object.create(wallet) as EvmWallet;
  signer.sign = (bytes: Uint8Array) => {
    count++;
    return wallet.sign(bytes);
  };
  return { signer, signed: () => count };
}

describe("bridgeDeposit", () => {
  it.each([
    ["l1", 0],
    ["l2", 1],
  ] as const)(
    "deposits from an EVM wallet on %s and resolves when this chain credited it",
    async (source, account) => {
      const wallet = LocalWallet.generate();
      const client = await net.connect({ wallet });
      const evmSigner = EvmWallet.fromMnemonic(net.devnet.accounts[account]!.mnemonic);
      const url = source === "l1" ? net.devnet.endpoints.sourceL1Rpc : net.devnet.endpoints.sourceL2Rpc;
      const usdcBefore = await sourceUsdc(url, sources[source].usdcAddress, evmSigner.evmAddress);
      const steps: BridgeDepositStatus["status"][] = [];
      const stopMining = mineWhenPending(source, evmSigner.evmAddress);
      const deposit = await client
        .bridgeDeposit({ amount: "12.5", source, evmSigner, onStatus: (s) => steps.push(s.status) })
        .finally(stopMining);
      expect(deposit).toMatchObject({ recipient: wallet.address, amount: 12_500_000n });
      expect(deposit.approveTxHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await sourceUsdc(url, sources[source].usdcAddress, evmSigner.evmAddress)).toBe(
        usdcBefore - 12_500_000n,
      );
      // The deposit's block is the source chain's head: OBSERVED until the blocks that make it final.
      await vi.waitFor(() => expect(steps).toContain("OBSERVED"), HANG_GUARD);
      net.devnet.sourceChains[source].mine(FINALITY_DEPTH);
      const done = await deposit.credited;
      expect(done).toMatchObject({ status: "COMPLETED", coin: { denom: "uusdc", amount: "12500000" } });
      expect(steps[0]).toBe("OBSERVED");
      expect(steps.at(-1)).toBe("COMPLETED");
      expect(steps.map((s) => ORDER.indexOf(s))).toEqual([...steps.map((s) => ORDER.indexOf(s))].sort());
      expect(await bank(wallet.address)).toBe(12_500_000n);
    },
  );

  it("skips the approval when the allowance covers the amount, and credits a recipient given as 0x", async () => {
    const client = await net.connect({ wallet: LocalWallet.generate() });
    const evmSigner = EvmWallet.fromMnemonic(net.devnet.accounts[2]!.mnemonic);
    const url = net.devnet.endpoints.sourceL2Rpc;
    const nonce = BigInt(
      await evmRpcCall<string>(url, "eth_getTransactionCount", [evmSigner.evmAddress, "pending"]),
    );
    const approve = signEvmTx(
      {
        type: 2,
        chainId: BigInt(sources.l2.evmChainId),
        nonce,
        maxPriorityFeePerGas: 1n,
        maxFeePerGas: 5_000_000_000n,
        gasLimit: 100_000n,
        to: sources.l2.usdcAddress,
        value: 0n,
        data: encodeEvmCall(BRIDGE_ABI.approve, [sources.l2.bridgeAddress, 10_000_000n]),
      },
      evmSigner,
    );
    const stopMining = mineWhenPending("l2", evmSigner.evmAddress);
    const hash = await evmRpcCall<string>(url, "eth_sendRawTransaction", [approve]);
    await vi.waitFor(
      async () => expect(await evmRpcCall(url, "eth_getTransactionReceipt", [hash])).not.toBeNull(),
      HANG_GUARD,
    );

    const recipient = LocalWallet.generate().address;
    const hexRecipient = `0x${Buffer.from(addressBytes(recipient)).toString("hex")}`;
    const deposit = await client
      .bridgeDeposit({ amount: "1", source: "l2", evmSigner, recipient: hexRecipient })
      .finally(stopMining);
    expect(deposit.approveTxHash).toBeUndefined();
    expect(deposit.recipient).toBe(recipient);
    net.devnet.sourceChains.l2.mine(FINALITY_DEPTH);
    await deposit.credited;
    expect(await bank(recipient)).toBe(1_000_000n);
  });

  it("refuses before signing: no USDC, no ETH for gas, a bad amount, source or signer, the wrong chain", async () => {
    const client = await net.connect({ wallet: LocalWallet.generate() });
    const empty = counting(EvmWallet.generate());
    const noUsdc = await client
      .bridgeDeposit({ amount: "5", source: "l1", evmSigner: empty.signer })
      .catch((e: unknown) => e);
    expect(noUsdc).toBeInstanceOf(BridgeDepositError);
    expect(noUsdc).toMatchObject({ reason: "insufficient_usdc", code: "INVALID_AMOUNT" });

    net.devnet.sourceChains.l1.fund(empty.signer.evmAddress, { usdc: 10_000_000n });
    const noEth = await client
      .bridgeDeposit({ amount: "5", source: "l1", evmSigner: empty.signer })
      .catch((e: unknown) => e);
    expect(noEth).toMatchObject({ reason: "insufficient_eth" });
    expect(empty.signed()).toBe(0);

    const funded = EvmWallet.fromMnemonic(net.devnet.accounts[3]!.mnemonic);
    const tooFine = await client
      .bridgeDeposit({ amount: "0.0000001", source: "l1", evmSigner: funded })
      .catch((e: unknown) => e);
    expect(isInvalidAmountError(tooFine)).toBe(true);
    const zero = await client
      .bridgeDeposit({ amount: "0", source: "l1", evmSigner: funded })
      .catch((e: unknown) => e);
    expect(isInvalidAmountError(zero) && zero.reason).toBe("not-positive");
    const badSource = await client
      .bridgeDeposit({ amount: "1", source: "l3" as "l1", evmSigner: funded })
      .catch((e: unknown) => e);
    expect(isInvalidArgumentError(badSource) && badSource.message).toMatch(/"l3"/);
    const badSigner = await client
      .bridgeDeposit({ amount: "1", source: "l1", evmSigner: {} as EvmWallet })
      .catch((e: unknown) => e);
    expect(isInvalidArgumentError(badSigner) && badSigner.message).toMatch(/evmSigner/);

    const crossed = await net.connect({
      wallet: LocalWallet.generate(),
      endpoints: { sourceL1Rpc: net.devnet.endpoints.sourceL2Rpc },
    });
    const wrong = await crossed
      .bridgeDeposit({ amount: "1", source: "l1", evmSigner: funded })
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ reason: "wrong_chain" });
  });
});
