/**
 * The bridge's simulated EVM source chains over their JSON-RPC sockets: genesis funds, the USDC and
 * bridge contracts, the refusals of `eth_sendRawTransaction` (chain id, nonce, fees, funds), reverts
 * as execution clients report them, and a deposit signed here that the bridge daemon carries to the
 * chain, OBSERVED -> FINALIZED -> ACKNOWLEDGED -> COMPLETED, crediting the recipient.
 */
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { Bip39, EnglishMnemonic, Secp256k1, Slip10, Slip10Curve, stringToPath } from "@cosmjs/crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { addressBytesToBech32, addressBytesToHex, getNetwork } from "@perpx/core";
import {
  BRIDGE_ABI,
  decodeEvmRevert,
  decodeEvmString,
  type EvmTx,
  type EvmTxSigner,
  encodeEvmCall,
  signEvmTx,
} from "@perpx/core/evm";
import { bridge, cosmosBank } from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENESIS_ACCOUNTS } from "../src/app/genesis/genesis-accounts.js";
import { type Devnet, startDevnet } from "../src/index.js";
import { SOURCE_GENESIS_ADDRESSES, SOURCE_GENESIS_USDC } from "../src/source-chain/genesis.js";

let devnet: Devnet;
const sources = getNetwork("local").bridgeSources!;
const GWEI = 1_000_000_000n;

beforeAll(async () => {
  devnet = await startDevnet({
    ports: "free",
    blockTimeMs: 0,
    sourceChains: { blockTimeMs: 0, finalityDepth: 2 },
  });
  devnet.mine(1);
});

afterAll(async () => {
  await devnet?.stop();
});

function keySigner(secret: Uint8Array): EvmTxSigner {
  const publicKey = secp256k1.getPublicKey(secret, false);
  return {
    evmAddress: addressBytesToHex(keccak_256(publicKey.subarray(1)).subarray(12)),
    sign(bytes) {
      const sig = secp256k1.sign(keccak_256(bytes), secret, { prehash: false, format: "recovered" });
      return Uint8Array.from([...sig.subarray(1), sig[0] as number]);
    },
  };
}

interface RpcAnswer {
  result?: unknown;
  error?: { code: number; message: string; data?: string };
}

async function call(url: string, method: string, params: unknown[] = []): Promise<RpcAnswer> {
  const res = await fetch(url, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as RpcAnswer;
}

async function result<T = string>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const answer = await call(url, method, params);
  if (answer.error) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
  return answer.result as T;
}

const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;

function freshAccount(slot: "l1" | "l2", usdc = 500_000_000n): EvmTxSigner {
  const signer = keySigner(secp256k1.utils.randomSecretKey());
  devnet.sourceChains[slot].fund(signer.evmAddress, { eth: 10n ** 18n, usdc });
  return signer;
}

function tx(
  slot: "l1" | "l2",
  fields: Partial<EvmTx> & { nonce: bigint; to: `0x${string}`; data: Uint8Array },
): EvmTx {
  return {
    type: 2,
    chainId: BigInt(sources[slot].evmChainId),
    maxPriorityFeePerGas: GWEI / 10n,
    maxFeePerGas: 3n * GWEI,
    gasLimit: 200_000n,
    value: 0n,
    ...fields,
  } as EvmTx;
}

describe("source chains", () => {
  it("are two chains with their own ids, the same bridge address, and the test accounts' EVM wallets funded", async () => {
    const l1 = devnet.endpoints.sourceL1Rpc;
    const l2 = devnet.endpoints.sourceL2Rpc;
    expect(BigInt(await result(l1, "eth_chainId"))).toBe(BigInt(sources.l1.evmChainId));
    expect(await result(l2, "net_version")).toBe(String(sources.l2.evmChainId));
    expect(sources.l1.bridgeAddress).toBe(sources.l2.bridgeAddress);
    for (const [i, account] of GENESIS_ACCOUNTS.entries()) {
      const seed = await Bip39.mnemonicToSeed(new EnglishMnemonic(account.mnemonic));
      const { privkey } = Slip10.derivePath(Slip10Curve.Secp256k1, seed, stringToPath("m/44'/60'/0'/0/0"));
      const pub = Secp256k1.uncompressPubkey((await Secp256k1.makeKeypair(privkey)).pubkey);
      expect(addressBytesToHex(keccak_256(pub.subarray(1)).subarray(12))).toBe(SOURCE_GENESIS_ADDRESSES[i]);
    }
    const alice = SOURCE_GENESIS_ADDRESSES[0] as string;
    for (const [url, usdc] of [
      [l1, sources.l1.usdcAddress],
      [l2, sources.l2.usdcAddress],
    ] as const) {
      expect(BigInt(await result(url, "eth_getBalance", [alice, "latest"]))).toBe(100n * 10n ** 18n);
      const balance = await result(url, "eth_call", [
        { to: usdc, data: hexOf(encodeEvmCall(BRIDGE_ABI.balanceOf, [alice])) },
        "latest",
      ]);
      expect(BigInt(balance)).toBe(SOURCE_GENESIS_USDC);
      const decimals = await result(url, "eth_call", [
        { to: usdc, data: hexOf(encodeEvmCall(BRIDGE_ABI.decimals, [])) },
      ]);
      expect(BigInt(decimals)).toBe(6n);
      const symbol = await result(url, "eth_call", [
        { to: usdc, data: hexOf(encodeEvmCall(BRIDGE_ABI.symbol, [])) },
      ]);
      expect(decodeEvmString(Buffer.from(symbol.slice(2), "hex"))).toBe("USDC");
    }
    expect(BigInt(await result(l1, "eth_gasPrice"))).toBeGreaterThanOrEqual(GWEI);
    const history = await result<{ baseFeePerGas: string[] }>(l1, "eth_feeHistory", ["0x2", "latest", [50]]);
    expect(history.baseFeePerGas.length).toBeGreaterThanOrEqual(2);
    expect((await call(l1, "eth_sign", [])).error?.code).toBe(-32601);
  });

  it("refuses wrong chain ids, bad nonces, underpriced and unfunded transactions as execution clients do", async () => {
    const url = devnet.endpoints.sourceL1Rpc;
    const signer = freshAccount("l1");
    const usdc = sources.l1.usdcAddress;
    const data = encodeEvmCall(BRIDGE_ABI.approve, [sources.l1.bridgeAddress, 1n]);
    const send = (t: EvmTx) => call(url, "eth_sendRawTransaction", [signEvmTx(t, signer)]);

    const wrongChain = await send(
      tx("l1", { nonce: 0n, to: usdc, data, chainId: BigInt(sources.l2.evmChainId) }),
    );
    expect(wrongChain.error).toMatchObject({
      code: -32000,
      message: `invalid chain id for signer: have ${sources.l2.evmChainId} want ${sources.l1.evmChainId}`,
    });
    expect((await send(tx("l1", { nonce: 1n, to: usdc, data }))).error?.message).toMatch(/^nonce too high/);
    expect(
      (await send(tx("l1", { nonce: 0n, to: usdc, data, maxFeePerGas: GWEI / 2n, maxPriorityFeePerGas: 0n })))
        .error?.message,
    ).toMatch(/^max fee per gas less than block base fee/);
    expect((await send(tx("l1", { nonce: 0n, to: usdc, data, gasLimit: 21_000n }))).error?.message).toMatch(
      /^intrinsic gas too low/,
    );
    expect(
      (await send(tx("l1", { nonce: 0n, to: usdc, data, value: 2n * 10n ** 18n }))).error?.message,
    ).toMatch(/^insufficient funds for gas \* price \+ value/);
    const legacy = signEvmTx(
      {
        type: 0,
        chainId: undefined,
        nonce: 0n,
        gasPrice: 2n * GWEI,
        gasLimit: 60_000n,
        to: usdc,
        value: 0n,
        data,
      },
      signer,
    );
    expect((await call(url, "eth_sendRawTransaction", [legacy])).error?.message).toBe(
      "only replay-protected (EIP-155) transactions allowed over RPC",
    );
    expect((await call(url, "eth_sendRawTransaction", ["0x02c0"])).error?.code).toBe(-32000);

    const ok = await result(url, "eth_sendRawTransaction", [
      signEvmTx(tx("l1", { nonce: 0n, to: usdc, data }), signer),
    ]);
    expect((await send(tx("l1", { nonce: 0n, to: usdc, data }))).error?.message).toBe("already known");
    expect(BigInt(await result(url, "eth_getTransactionCount", [signer.evmAddress, "pending"]))).toBe(1n);
    expect(BigInt(await result(url, "eth_getTransactionCount", [signer.evmAddress, "latest"]))).toBe(0n);
    expect(await result(url, "eth_getTransactionReceipt", [ok])).toBeNull();
    devnet.sourceChains.l1.mine();
    expect((await send(tx("l1", { nonce: 0n, to: usdc, data }))).error?.message).toMatch(/^nonce too low/);
    const receipt = await result<{ status: string; gasUsed: string }>(url, "eth_getTransactionReceipt", [ok]);
    expect(receipt.status).toBe("0x1");
  });

  it("reverts a deposit without allowance: code 3 from eth_estimateGas and eth_call, status 0 once mined", async () => {
    const url = devnet.endpoints.sourceL2Rpc;
    const signer = freshAccount("l2");
    const data = encodeEvmCall(BRIDGE_ABI.deposit, [1_000_000n, signer.evmAddress]);
    const estimate = await call(url, "eth_estimateGas", [
      { from: signer.evmAddress, to: sources.l2.bridgeAddress, data: hexOf(data) },
    ]);
    expect(estimate.error).toMatchObject({
      code: 3,
      message: "execution reverted: ERC20: insufficient allowance",
    });
    expect(decodeEvmRevert(Buffer.from((estimate.error?.data ?? "0x").slice(2), "hex"))).toBe(
      "ERC20: insufficient allowance",
    );
    const tooMuch = encodeEvmCall(BRIDGE_ABI.transfer, [sources.l2.bridgeAddress, 10n ** 15n]);
    const overBalance = await call(url, "eth_call", [
      { from: signer.evmAddress, to: sources.l2.usdcAddress, data: hexOf(tooMuch) },
      "latest",
    ]);
    expect(overBalance.error?.message).toBe("execution reverted: ERC20: transfer amount exceeds balance");
    const hash = await result(url, "eth_sendRawTransaction", [
      signEvmTx(tx("l2", { nonce: 0n, to: sources.l2.bridgeAddress, data }), signer),
    ]);
    devnet.sourceChains.l2.mine();
    const receipt = await result<{ status: string; logs: unknown[]; gasUsed: string }>(
      url,
      "eth_getTransactionReceipt",
      [hash],
    );
    expect(receipt.status).toBe("0x0");
    expect(receipt.logs).toEqual([]);
    expect(BigInt(receipt.gasUsed)).toBeGreaterThan(21_000n);
  });

  it("carries a deposit from the bridge contract to the recipient's balance through the daemon", async () => {
    const url = devnet.endpoints.sourceL1Rpc;
    const signer = freshAccount("l1");
    const recipient = addressBytesToBech32(Buffer.from(signer.evmAddress.slice(2), "hex"));
    const amount = 2_500_000n;
    const approve = encodeEvmCall(BRIDGE_ABI.approve, [sources.l1.bridgeAddress, amount]);
    const deposit = encodeEvmCall(BRIDGE_ABI.deposit, [amount, signer.evmAddress]);
    await result(url, "eth_sendRawTransaction", [
      signEvmTx(tx("l1", { nonce: 0n, to: sources.l1.usdcAddress, data: approve }), signer),
    ]);
    const hash = await result(url, "eth_sendRawTransaction", [
      signEvmTx(tx("l1", { nonce: 1n, to: sources.l1.bridgeAddress, data: deposit }), signer),
    ]);
    devnet.sourceChains.l1.mine();

    const receipt = await result<{
      status: string;
      logs: Array<{ address: string; topics: string[] }>;
      blockNumber: string;
    }>(url, "eth_getTransactionReceipt", [hash]);
    expect(receipt.status).toBe("0x1");
    expect(receipt.logs.map((l) => l.address)).toEqual([
      sources.l1.usdcAddress.toLowerCase(),
      sources.l1.bridgeAddress.toLowerCase(),
    ]);
    const logs = await result<unknown[]>(url, "eth_getLogs", [
      { address: sources.l1.bridgeAddress, fromBlock: receipt.blockNumber, toBlock: "latest" },
    ]);
    expect(logs).toHaveLength(1);
    const bridgeBalance = await result(url, "eth_call", [
      {
        to: sources.l1.usdcAddress,
        data: hexOf(encodeEvmCall(BRIDGE_ABI.balanceOf, [sources.l1.bridgeAddress])),
      },
    ]);
    expect(BigInt(bridgeBalance)).toBeGreaterThanOrEqual(amount);
    const block = await result<{ transactions: Array<{ hash: string }> }>(url, "eth_getBlockByNumber", [
      receipt.blockNumber,
      true,
    ]);
    expect(block.transactions.map((t) => t.hash)).toContain(hash);

    const query = createClient(bridge.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const statusOf = async () => {
      const { events } = await query.bridgeEvents({ address: recipient });
      const record = events.find((r) => r.event?.ethTxHash === hash);
      return record === undefined ? undefined : bridge.BridgeEventStatus[record.status];
    };
    const seen = [await statusOf()];
    expect(seen[0]).toBe("OBSERVED");
    devnet.mine(1);
    expect(await statusOf()).toBe("OBSERVED"); // not final on the source chain yet
    devnet.sourceChains.l1.mine(2);
    for (let i = 0; i < 12 && seen.at(-1) !== "COMPLETED"; i++) {
      devnet.mine(1);
      const status = await statusOf();
      if (status !== seen.at(-1)) seen.push(status);
    }
    expect(seen).toEqual(["OBSERVED", "FINALIZED", "ACKNOWLEDGED", "COMPLETED"]);
    const bank = createClient(cosmosBank.Query, createGrpcTransport({ baseUrl: devnet.endpoints.grpc }));
    const { balance } = await bank.balance({ address: recipient, denom: "uusdc" });
    expect(balance?.amount).toBe(amount.toString());
  });

  it("answers malformed requests, batches and wrong verbs as a JSON-RPC server does", async () => {
    const url = devnet.endpoints.sourceL1Rpc;
    const post = async (body: string) => (await fetch(url, { method: "POST", body })).json();
    expect(await post("{not json")).toMatchObject({ error: { code: -32700 } });
    expect(await post("[]")).toMatchObject({ error: { code: -32600 } });
    const batch = (await post(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
        { jsonrpc: "2.0", id: 2, method: "eth_getBalance", params: ["0x12"] },
      ]),
    )) as RpcAnswer[];
    expect(batch[0]?.result).toBe(`0x${sources.l1.evmChainId.toString(16)}`);
    expect(batch[1]?.error?.code).toBe(-32602);
    expect((await fetch(url)).status).toBe(405);
  });

  it("funds addresses and seals blocks through the devnet control routes", async () => {
    const control = `${devnet.endpoints.devnetControl}/devnet/source`;
    const address = keySigner(secp256k1.utils.randomSecretKey()).evmAddress;
    const funded = await fetch(`${control}/fund`, {
      method: "POST",
      body: JSON.stringify({ chain: "l2", address, eth: "5", usdc: "7000000" }),
    });
    expect(await funded.json()).toEqual({ chain: "l2", address, eth: "5", usdc: "7000000" });
    const data = encodeEvmCall(BRIDGE_ABI.balanceOf, [address]);
    expect(
      BigInt(
        await result(devnet.endpoints.sourceL2Rpc, "eth_call", [
          { to: sources.l2.usdcAddress, data: hexOf(data) },
        ]),
      ),
    ).toBe(7_000_000n);
    const before = BigInt(await result(devnet.endpoints.sourceL2Rpc, "eth_blockNumber"));
    const mined = await (
      await fetch(`${control}/blocks`, { method: "POST", body: JSON.stringify({ chain: "l2", count: 2 }) })
    ).json();
    expect(BigInt((mined as { height: string }).height)).toBe(before + 2n);
    const bad = await fetch(`${control}/fund`, {
      method: "POST",
      body: JSON.stringify({ chain: "l3", address, eth: "1" }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/"chain"/);
  });
});
