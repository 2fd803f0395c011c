import {
  addressBytes,
  addressBytesToBech32,
  addressBytesToHex,
  assertKnownKeys,
  checkDelayMs,
  getEndpoint,
  InvalidAmountError,
  optionKeys,
  usdcToQuoteQuantums,
} from "@perpx/core";
import { BRIDGE_ABI, type EvmTx, type EvmTxSigner, encodeEvmCall, signEvmTx } from "@perpx/core/evm";
import { AbortedError, InvalidArgumentError, TimeoutError } from "@perpx/errors";
import type { ClientContext } from "./client.js";
import { BridgeDepositError, evmRpcCall } from "./evmRpc.js";
import { type BridgeDepositStatus, trackBridgeDeposit } from "./wrapBridge.js";

/**
 * What {@link bridgeDeposit} takes.
 *
 * @example
 * ```ts
 * import { EvmWallet } from "@perpx/node-client/wallets";
 * const params: BridgeDepositParams = { amount: "25", source: "l1", evmSigner: EvmWallet.fromMnemonic(mnemonic) };
 * params.source; // "l1"
 * ```
 */
export interface BridgeDepositParams {
  /** USDC in human units (at most 6 decimals), e.g. `"25.5"`. */
  amount: string;
  /** The source chain: `l1` or `l2` (the network's `bridgeSources`). */
  source: "l1" | "l2";
  /** The EVM wallet that holds the USDC and pays gas (`EvmWallet` of `@perpx/node-client`). */
  evmSigner: EvmTxSigner;
  /** The account credited on this chain, either form. @default the signer's own 20 bytes */
  recipient?: string;
  /** Called with each step of the deposit on this chain (OBSERVED ... COMPLETED). */
  onStatus?: (status: BridgeDepositStatus) => void;
  /** Cancels the waits (receipts and tracking). */
  signal?: AbortSignal;
  /**
   * How long to wait for each source-chain receipt, ms: a positive finite number (any size), else
   * refused with an `InvalidArgumentError` naming it before anything is signed or sent.
   * @default 120000
   */
  receiptTimeoutMs?: number;
}

const BRIDGE_DEPOSIT_KEYS = optionKeys<BridgeDepositParams>({
  amount: true,
  source: true,
  evmSigner: true,
  recipient: true,
  onStatus: true,
  signal: true,
  receiptTimeoutMs: true,
});

/**
 * A bridge deposit mined on its source chain, and the tracker of its credit on this chain.
 *
 * @example
 * ```ts
 * import { EvmWallet } from "@perpx/node-client/wallets";
 *
 * const evmSigner = EvmWallet.fromMnemonic(devnet.accounts[2]!.mnemonic); // holds USDC on the devnet's source chains
 * const deposit: BridgeDeposit = await client.bridgeDeposit({ amount: "5", source: "l2", evmSigner });
 * deposit.amount; // 5_000_000n
 * (await deposit.credited).status; // "COMPLETED"
 * ```
 */
export interface BridgeDeposit {
  /** The `approve` transaction, when the allowance had to be raised. */
  approveTxHash: string | undefined;
  /** The bridge `deposit` transaction. */
  txHash: string;
  /** Its source-chain block. */
  blockNumber: bigint;
  /** The account credited (bech32). */
  recipient: string;
  /** The amount in USDC base units (quote quantums). */
  amount: bigint;
  /** Resolves with the COMPLETED step once this chain credited the deposit. */
  credited: Promise<BridgeDepositStatus>;
}

interface Receipt {
  status: string;
  blockNumber: string;
  gasUsed: string;
}

function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortedError("waiting for a source-chain receipt", signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortedError("waiting for a source-chain receipt", signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

async function waitForReceipt(
  url: string,
  hash: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Receipt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await evmRpcCall<Receipt | null>(url, "eth_getTransactionReceipt", [hash], signal);
    if (receipt !== null) {
      if (receipt.status !== "0x1")
        throw new BridgeDepositError(
          "reverted",
          `transaction ${hash} reverted in block ${BigInt(receipt.blockNumber)}`,
        );
      return receipt;
    }
    if (Date.now() > deadline) throw new TimeoutError(`the receipt of ${hash}`, timeoutMs);
    await abortableDelay(200, signal);
  }
}

const hexOf = (bytes: Uint8Array) =>
  `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;

function checkSigner(signer: unknown): EvmTxSigner {
  const s = signer as Partial<EvmTxSigner> | undefined;
  if (
    typeof s?.evmAddress !== "string" ||
    !/^0x[0-9a-fA-F]{40}$/.test(s.evmAddress) ||
    typeof s.sign !== "function"
  ) {
    throw new InvalidArgumentError(
      "evmSigner",
      "expected an EVM wallet (evmAddress and sign), such as EvmWallet of @perpx/node-client",
    );
  }
  return s as EvmTxSigner;
}

/**
 * Deposits USDC from an EVM wallet on a source chain to an account on this chain: checks the
 * chain id, the USDC balance and allowance and the ETH for gas (typed errors before anything is
 * signed), sends `approve` when the allowance is short and then the bridge's `deposit`, as signed
 * EIP-1559 transactions over the source chain's JSON-RPC (`sourceL1Rpc` / `sourceL2Rpc`), waits for
 * their receipts, and returns the deposit with a tracker that resolves once this chain credits it.
 *
 * @param context - the composite client's connection: network, node and indexer clients, trader,
 *   market cache.
 * @param params - see `BridgeDepositParams`: each field is documented there.
 * @returns resolves once the deposit transaction is in a source-chain block, with its `txHash`,
 *   `blockNumber`, `recipient` and `amount` (bigint, USDC base units), and `credited`, a promise of
 *   its status once this chain credits it.
 * @throws {InvalidAmountError} for an amount that is not positive USDC with at most 6 decimals.
 * @throws {InvalidArgumentError} for a bad `source`, `evmSigner` or `recipient`.
 * @throws {MissingEndpointError} when the source chain's RPC is not configured.
 * @throws {BridgeDepositError} for too little USDC or ETH, the wrong chain, a refused or reverted transaction.
 *
 * @example
 * ```ts
 * import { EvmWallet } from "@perpx/node-client/wallets";
 *
 * const evmSigner = EvmWallet.fromMnemonic(devnet.accounts[0]!.mnemonic);
 * const deposit = await bridgeDeposit(context, { amount: "10", source: "l1", evmSigner, recipient: wallet.address });
 * (await deposit.credited).status; // "COMPLETED"
 * ```
 */
export async function bridgeDeposit(
  context: ClientContext,
  params: BridgeDepositParams,
): Promise<BridgeDeposit> {
  assertKnownKeys(params, BRIDGE_DEPOSIT_KEYS, "bridgeDeposit");
  const source = params.source;
  if (source !== "l1" && source !== "l2")
    throw new InvalidArgumentError("source", `expected "l1" or "l2", got ${JSON.stringify(source)}`);
  const amount = usdcToQuoteQuantums(params.amount);
  if (amount <= 0n) {
    // As deposit, withdraw and transfer refuse it (the amount parsed, so it shows no secret).
    throw new InvalidAmountError({
      kind: "amount",
      value: params.amount,
      reason: "not-positive",
      problem: "must be above zero",
    });
  }
  // Checked first: a negative one would time out after the approval was sent, the deposit never sent.
  const timeoutMs = checkDelayMs(params.receiptTimeoutMs ?? 120_000, "receiptTimeoutMs");
  const signer = checkSigner(params.evmSigner);
  const chain = context.config.network.bridgeSources?.[source];
  if (chain === undefined)
    throw new InvalidArgumentError(
      "source",
      `the ${context.config.network.name} network names no bridge source chains`,
    );
  const recipientBytes = addressBytes(params.recipient ?? signer.evmAddress);
  const recipient = addressBytesToBech32(recipientBytes, context.config.network.bech32Prefix);
  const url = getEndpoint(context.config, source === "l1" ? "sourceL1Rpc" : "sourceL2Rpc");
  const from = signer.evmAddress;
  const signal = params.signal;
  const rpc = <T>(method: string, args: unknown[]) => evmRpcCall<T>(url, method, args, signal);

  const chainId = BigInt(await rpc<string>("eth_chainId", []));
  if (chainId !== BigInt(chain.evmChainId)) {
    throw new BridgeDepositError(
      "wrong_chain",
      `${url} serves chain ${chainId}, not ${chain.name} (${chain.evmChainId})`,
    );
  }
  const read = async (signature: string, args: string[]) =>
    BigInt(
      await rpc<string>("eth_call", [
        { to: chain.usdcAddress, data: hexOf(encodeEvmCall(signature, args)) },
        "latest",
      ]),
    );
  const balance = await read(BRIDGE_ABI.balanceOf, [from]);
  if (balance < amount) {
    throw new BridgeDepositError(
      "insufficient_usdc",
      `${from} holds ${balance} USDC base units on ${chain.name}, the deposit needs ${amount}`,
    );
  }
  const allowance = await read(BRIDGE_ABI.allowance, [from, chain.bridgeAddress]);
  const [tipHex, block, nonceHex, ethHex] = await Promise.all([
    rpc<string>("eth_maxPriorityFeePerGas", []),
    rpc<{ baseFeePerGas?: string }>("eth_getBlockByNumber", ["latest", false]),
    rpc<string>("eth_getTransactionCount", [from, "pending"]),
    rpc<string>("eth_getBalance", [from, "latest"]),
  ]);
  const tip = BigInt(tipHex);
  const maxFeePerGas = 2n * BigInt(block.baseFeePerGas ?? "0x0") + tip;
  let nonce = BigInt(nonceHex);
  const approveData = encodeEvmCall(BRIDGE_ABI.approve, [chain.bridgeAddress, amount]);
  const depositData = encodeEvmCall(BRIDGE_ABI.deposit, [amount, addressBytesToHex(recipientBytes)]);
  const needsApprove = allowance < amount;
  const approveGas = needsApprove
    ? BigInt(
        await rpc<string>("eth_estimateGas", [{ from, to: chain.usdcAddress, data: hexOf(approveData) }]),
      )
    : 0n;
  // The deposit cannot be estimated before the approval is mined; a deposit costs well under this.
  const depositGasBound = 150_000n;
  const ethNeeded = (approveGas + depositGasBound) * maxFeePerGas;
  if (BigInt(ethHex) < ethNeeded) {
    throw new BridgeDepositError(
      "insufficient_eth",
      `${from} holds ${BigInt(ethHex)} wei on ${chain.name}, gas needs up to ${ethNeeded}`,
    );
  }
  const send = async (to: `0x${string}`, data: Uint8Array, gasLimit: bigint): Promise<string> => {
    const tx: EvmTx = {
      type: 2,
      chainId,
      nonce,
      maxPriorityFeePerGas: tip,
      maxFeePerGas,
      gasLimit,
      to,
      value: 0n,
      data,
    };
    nonce += 1n;
    return rpc<string>("eth_sendRawTransaction", [signEvmTx(tx, signer)]);
  };
  let approveTxHash: string | undefined;
  if (needsApprove) {
    approveTxHash = await send(chain.usdcAddress, approveData, (approveGas * 12n) / 10n);
    await waitForReceipt(url, approveTxHash, timeoutMs, signal);
  }
  const depositGas = BigInt(
    await rpc<string>("eth_estimateGas", [{ from, to: chain.bridgeAddress, data: hexOf(depositData) }]),
  );
  const txHash = await send(chain.bridgeAddress, depositData, (depositGas * 12n) / 10n);
  const receipt = await waitForReceipt(url, txHash, timeoutMs, signal);
  const credited = trackBridgeDeposit(context, {
    address: recipient,
    ethTxHash: txHash,
    ...(params.onStatus === undefined ? {} : { onStatus: params.onStatus }),
    ...(signal === undefined ? {} : { signal }),
  });
  // Whoever awaits `credited` sees its failure; leaving it unawaited is not an unhandled rejection.
  credited.catch(() => undefined);
  return { approveTxHash, txHash, blockNumber: BigInt(receipt.blockNumber), recipient, amount, credited };
}
