/** The Ethereum JSON shapes of a source chain's blocks, transactions, receipts and logs. */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { toQuantity } from "../servers/encoding.js";
import {
  type MinedLog,
  SOURCE_BASE_FEE,
  SOURCE_BLOCK_GAS_LIMIT,
  type SourceBlock,
  type SourceTx,
} from "./chain.js";
import { hex, unhex } from "./ledger.js";

const EMPTY_UNCLES = "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347";
const ZERO_HASH = `0x${"0".repeat(64)}`;

/** The 2048-bit bloom filter of logs (3 bits per address and topic, from their Keccak-256). */
export function logsBloom(logs: readonly MinedLog[]): string {
  const bloom = new Uint8Array(256);
  const add = (bytes: Uint8Array) => {
    const h = keccak_256(bytes);
    for (let i = 0; i < 6; i += 2) {
      const bit = (((h[i] as number) << 8) | (h[i + 1] as number)) & 2047;
      bloom[255 - (bit >> 3)]! |= 1 << (bit & 7);
    }
  };
  for (const log of logs) {
    add(unhex(log.address));
    for (const topic of log.topics) add(unhex(topic));
  }
  return hex(bloom);
}

/** A log as `eth_getLogs` and receipts show it. */
export function logJson(log: MinedLog): Record<string, unknown> {
  return {
    address: log.address.toLowerCase(),
    topics: log.topics,
    data: hex(log.data),
    blockNumber: toQuantity(log.blockNumber),
    blockHash: log.blockHash,
    transactionHash: log.transactionHash,
    transactionIndex: toQuantity(log.transactionIndex),
    logIndex: toQuantity(log.logIndex),
    removed: false,
  };
}

/** A transaction as `eth_getTransactionByHash` shows it (pending ones have null block fields). */
export function txJson(entry: SourceTx): Record<string, unknown> {
  const { tx, signature } = entry;
  const mined = entry.blockNumber !== undefined;
  const common = {
    hash: entry.hash,
    nonce: toQuantity(tx.nonce),
    blockHash: mined ? entry.blockHash : null,
    blockNumber: mined ? toQuantity(entry.blockNumber as bigint) : null,
    transactionIndex: mined ? toQuantity(entry.index as number) : null,
    from: entry.from.toLowerCase(),
    to: tx.to?.toLowerCase() ?? null,
    value: toQuantity(tx.value),
    gas: toQuantity(tx.gasLimit),
    input: hex(tx.data),
    r: toQuantity(signature.r),
    s: toQuantity(signature.s),
  };
  if (tx.type === 0) {
    const v =
      tx.chainId === undefined
        ? 27n + BigInt(signature.yParity)
        : 35n + 2n * tx.chainId + BigInt(signature.yParity);
    return {
      ...common,
      type: "0x0",
      gasPrice: toQuantity(tx.gasPrice),
      v: toQuantity(v),
      ...(tx.chainId === undefined ? {} : { chainId: toQuantity(tx.chainId) }),
    };
  }
  return {
    ...common,
    type: "0x2",
    chainId: toQuantity(tx.chainId),
    gasPrice: toQuantity(entry.receipt?.effectiveGasPrice ?? tx.maxFeePerGas),
    maxFeePerGas: toQuantity(tx.maxFeePerGas),
    maxPriorityFeePerGas: toQuantity(tx.maxPriorityFeePerGas),
    accessList: [],
    v: toQuantity(signature.yParity),
    yParity: toQuantity(signature.yParity),
  };
}

/** A mined transaction's receipt as `eth_getTransactionReceipt` shows it. */
export function receiptJson(entry: SourceTx): Record<string, unknown> | null {
  const receipt = entry.receipt;
  if (receipt === undefined) return null;
  return {
    transactionHash: entry.hash,
    transactionIndex: toQuantity(entry.index as number),
    blockHash: entry.blockHash,
    blockNumber: toQuantity(entry.blockNumber as bigint),
    from: entry.from.toLowerCase(),
    to: entry.tx.to?.toLowerCase() ?? null,
    cumulativeGasUsed: toQuantity(receipt.cumulativeGasUsed),
    gasUsed: toQuantity(receipt.gasUsed),
    effectiveGasPrice: toQuantity(receipt.effectiveGasPrice),
    contractAddress: null,
    logs: receipt.logs.map(logJson),
    logsBloom: logsBloom(receipt.logs),
    status: toQuantity(receipt.status),
    type: toQuantity(entry.tx.type),
  };
}

/** A block as `eth_getBlockByNumber` shows it; `full` lists transaction objects, else hashes. */
export function blockJson(block: SourceBlock, full: boolean): Record<string, unknown> {
  const logs = block.transactions.flatMap((t) => t.receipt?.logs ?? []);
  return {
    number: toQuantity(block.number),
    hash: block.hash,
    parentHash: block.parentHash,
    nonce: "0x0000000000000000",
    sha3Uncles: EMPTY_UNCLES,
    logsBloom: logsBloom(logs),
    transactionsRoot: ZERO_HASH,
    stateRoot: ZERO_HASH,
    receiptsRoot: ZERO_HASH,
    miner: `0x${"0".repeat(40)}`,
    mixHash: ZERO_HASH,
    difficulty: "0x0",
    totalDifficulty: "0x0",
    extraData: "0x",
    size: toQuantity(512 + block.transactions.reduce((n, t) => n + t.raw.length, 0)),
    gasLimit: toQuantity(SOURCE_BLOCK_GAS_LIMIT),
    gasUsed: toQuantity(block.gasUsed),
    timestamp: toQuantity(block.timestamp),
    transactions: full ? block.transactions.map(txJson) : block.transactions.map((t) => t.hash),
    uncles: [],
    baseFeePerGas: toQuantity(SOURCE_BASE_FEE),
  };
}
