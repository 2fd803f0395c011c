/**
 * A simulated EVM source chain of the bridge: a transaction pool that `eth_sendRawTransaction`
 * validates as an execution client does (signature, chain id, nonce, fees, balance), blocks sealed
 * on demand (the server seals them on a timer), receipts with logs, and a finality depth.
 */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { rlpEncode, uintToBytes } from "../lib/evm/rlp.js";
import { decodeSignedEvmTx, type EvmTx, type SignedEvmTx } from "../lib/evm/tx.js";
import { EvmRpcError } from "../servers/json-rpc.js";
import { type CallLog, hex, intrinsicGas, SourceLedger } from "./ledger.js";

/** The constant base fee per gas of the simulated chains: 1 gwei. */
export const SOURCE_BASE_FEE = 1_000_000_000n;
/** The block gas limit. */
export const SOURCE_BLOCK_GAS_LIMIT = 30_000_000n;

/** A mined log. */
export interface MinedLog extends CallLog {
  readonly blockNumber: bigint;
  readonly blockHash: string;
  readonly transactionHash: string;
  readonly transactionIndex: number;
  readonly logIndex: number;
}

/** A mined transaction's receipt. */
export interface SourceReceipt {
  readonly status: 0 | 1;
  readonly gasUsed: bigint;
  readonly cumulativeGasUsed: bigint;
  readonly effectiveGasPrice: bigint;
  readonly logs: readonly MinedLog[];
  /** The revert reason of a failed call ("" when none). */
  readonly revertReason: string;
}

/** A transaction in the pool or in a block. */
export interface SourceTx extends SignedEvmTx {
  readonly raw: Uint8Array;
  blockNumber?: bigint;
  blockHash?: string;
  index?: number;
  receipt?: SourceReceipt;
}

/** A sealed block. */
export interface SourceBlock {
  readonly number: bigint;
  readonly hash: string;
  readonly parentHash: string;
  readonly timestamp: bigint;
  readonly transactions: readonly SourceTx[];
  readonly gasUsed: bigint;
}

/** The identity of a source chain. */
export interface SourceChainSpec {
  /** `l1` or `l2`. */
  readonly slot: "l1" | "l2";
  readonly name: string;
  readonly chainId: bigint;
  readonly bridgeAddress: string;
  readonly usdcAddress: string;
  /** Blocks on top of a block before it is final. */
  readonly finalityDepth: number;
}

const maxFeeOf = (tx: EvmTx) => (tx.type === 2 ? tx.maxFeePerGas : tx.gasPrice);

/** The price per gas a transaction pays at the base fee. */
export function effectiveGasPrice(tx: EvmTx): bigint {
  if (tx.type === 0) return tx.gasPrice;
  const tip = tx.maxPriorityFeePerGas;
  return tx.maxFeePerGas < SOURCE_BASE_FEE + tip ? tx.maxFeePerGas : SOURCE_BASE_FEE + tip;
}

/** One simulated source chain. */
export class SourceChain {
  readonly ledger: SourceLedger;
  readonly blocks: SourceBlock[] = [];
  private readonly pool: SourceTx[] = [];
  private readonly byHash = new Map<string, SourceTx>();
  private readonly listeners = new Set<(block: SourceBlock) => void>();

  constructor(
    readonly spec: SourceChainSpec,
    private readonly now: () => number = Date.now,
  ) {
    this.ledger = new SourceLedger(spec.usdcAddress, spec.bridgeAddress);
    this.blocks.push(this.makeBlock(0n, `0x${"0".repeat(64)}`, []));
  }

  /** The latest block. */
  head(): SourceBlock {
    return this.blocks.at(-1) as SourceBlock;
  }

  /** The latest final block's number (`head - finalityDepth`, at least 0). */
  finalizedNumber(): bigint {
    const n = this.head().number - BigInt(this.spec.finalityDepth);
    return n < 0n ? 0n : n;
  }

  /** A transaction by hash (pending or mined). */
  transaction(hash: string): SourceTx | undefined {
    return this.byHash.get(hash.toLowerCase());
  }

  /** The next nonce of an account counting its pending transactions. */
  pendingNonce(address: string): bigint {
    const pending = this.pool.filter((t) => t.from.toLowerCase() === address.toLowerCase()).length;
    return this.ledger.nonce(address) + BigInt(pending);
  }

  /** Calls `listener` after every sealed block; returns the unsubscribe function. */
  onBlock(listener: (block: SourceBlock) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Validates a raw signed transaction and adds it to the pool, as `eth_sendRawTransaction`.
   *
   * @throws {EvmRpcError} -32000 with the message an execution client gives for each refusal.
   */
  submit(rawHex: unknown): SourceTx {
    if (typeof rawHex !== "string")
      throw new EvmRpcError(-32602, "invalid argument 0: expected a hex string");
    let signed: SignedEvmTx;
    try {
      signed = decodeSignedEvmTx(rawHex);
    } catch (error) {
      const problem = (error as Error).message.replace(/^Invalid [^:]+: /, "");
      throw new EvmRpcError(-32000, `rlp: ${problem}`);
    }
    const { tx, from } = signed;
    if (this.pool.some((t) => t.hash === signed.hash)) throw new EvmRpcError(-32000, "already known");
    if (tx.chainId === undefined) {
      throw new EvmRpcError(-32000, "only replay-protected (EIP-155) transactions allowed over RPC");
    }
    if (tx.chainId !== this.spec.chainId) {
      throw new EvmRpcError(
        -32000,
        `invalid chain id for signer: have ${tx.chainId} want ${this.spec.chainId}`,
      );
    }
    if (tx.to === undefined)
      throw new EvmRpcError(-32000, "contract creation is not supported on this source chain");
    const expected = this.pendingNonce(from);
    if (tx.nonce < expected) {
      throw new EvmRpcError(-32000, `nonce too low: address ${from}, tx: ${tx.nonce} state: ${expected}`);
    }
    if (tx.nonce > expected) {
      throw new EvmRpcError(-32000, `nonce too high: address ${from}, tx: ${tx.nonce} state: ${expected}`);
    }
    const intrinsic = intrinsicGas(tx.data);
    if (tx.gasLimit < intrinsic) {
      throw new EvmRpcError(-32000, `intrinsic gas too low: gas ${tx.gasLimit}, minimum needed ${intrinsic}`);
    }
    if (tx.gasLimit > SOURCE_BLOCK_GAS_LIMIT) throw new EvmRpcError(-32000, "exceeds block gas limit");
    if (tx.type === 2 && tx.maxPriorityFeePerGas > tx.maxFeePerGas) {
      throw new EvmRpcError(
        -32000,
        `max priority fee per gas higher than max fee per gas: address ${from}, maxPriorityFeePerGas: ${tx.maxPriorityFeePerGas}, maxFeePerGas: ${tx.maxFeePerGas}`,
      );
    }
    if (maxFeeOf(tx) < SOURCE_BASE_FEE) {
      throw new EvmRpcError(
        -32000,
        `max fee per gas less than block base fee: address ${from}, maxFeePerGas: ${maxFeeOf(tx)}, baseFee: ${SOURCE_BASE_FEE}`,
      );
    }
    const cost = tx.gasLimit * maxFeeOf(tx) + tx.value;
    const reserved = this.pool
      .filter((t) => t.from === from)
      .reduce((sum, t) => sum + t.tx.gasLimit * maxFeeOf(t.tx) + t.tx.value, 0n);
    const have = this.ledger.ethBalance(from) - reserved;
    if (have < cost) {
      throw new EvmRpcError(
        -32000,
        `insufficient funds for gas * price + value: address ${from} have ${have} want ${cost}`,
      );
    }
    const entry: SourceTx = { ...signed, raw: Uint8Array.from(Buffer.from(rawHex.slice(2), "hex")) };
    this.pool.push(entry);
    this.byHash.set(signed.hash, entry);
    return entry;
  }

  /** Seals the pool into a new block, executing every transaction in order; returns the block. */
  seal(): SourceBlock {
    const parent = this.head();
    const number = parent.number + 1n;
    const txs = this.pool.splice(0, this.pool.length);
    const block = this.makeBlock(number, parent.hash, txs);
    let cumulative = 0n;
    let logIndex = 0;
    for (const [index, entry] of txs.entries()) {
      const { tx, from } = entry;
      const price = effectiveGasPrice(tx);
      const call = { from, to: tx.to as string, value: tx.value, data: tx.data };
      const trial = this.ledger.call({ ...call, dryRun: true });
      // Out of gas reverts every effect and burns the whole gas limit.
      const outcome =
        trial.gasUsed > tx.gasLimit
          ? { ok: false as const, reason: "out of gas", gasUsed: tx.gasLimit }
          : trial.ok
            ? this.ledger.call({ ...call, dryRun: false })
            : trial;
      const gasUsed = outcome.gasUsed;
      cumulative += gasUsed;
      this.ledger.chargeSender(from, gasUsed * price);
      const logs = outcome.ok
        ? outcome.logs.map((log) => ({
            ...log,
            blockNumber: number,
            blockHash: block.hash,
            transactionHash: entry.hash,
            transactionIndex: index,
            logIndex: logIndex++,
          }))
        : [];
      entry.blockNumber = number;
      entry.blockHash = block.hash;
      entry.index = index;
      entry.receipt = {
        status: outcome.ok ? 1 : 0,
        gasUsed,
        cumulativeGasUsed: cumulative,
        effectiveGasPrice: price,
        logs,
        revertReason: outcome.ok ? "" : outcome.reason,
      };
    }
    const sealed = { ...block, gasUsed: cumulative };
    this.blocks.push(sealed);
    for (const listener of this.listeners) listener(sealed);
    return sealed;
  }

  private makeBlock(number: bigint, parentHash: string, transactions: SourceTx[]): SourceBlock {
    const timestamp = BigInt(Math.floor(this.now() / 1000));
    const hash = hex(
      keccak_256(
        rlpEncode([
          Buffer.from(parentHash.slice(2), "hex"),
          uintToBytes(this.spec.chainId),
          uintToBytes(number),
          uintToBytes(timestamp),
          transactions.map((t) => Buffer.from(t.hash.slice(2), "hex")),
        ]),
      ),
    );
    return { number, hash, parentHash, timestamp, transactions, gasUsed: 0n };
  }
}
