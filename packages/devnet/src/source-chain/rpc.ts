/**
 * The JSON-RPC of a simulated source chain, over HTTP: enough of the Ethereum API for an ordinary
 * client library to read balances, estimate, sign and send transactions, and follow receipts and
 * logs. Methods it does not know answer -32601.
 */
import { encodeEvmRevert } from "../lib/evm/abi.js";
import { fromHex, toQuantity } from "../servers/encoding.js";
import { closeServer, listen, type ServerTimeouts, urlOf } from "../servers/http.js";
import { createJsonRpcHttpServer, EvmRpcError, type JsonRpcHandler } from "../servers/json-rpc.js";
import { SOURCE_BASE_FEE, type SourceChain } from "./chain.js";
import { blockJson, logJson, receiptJson, txJson } from "./json.js";
import { hex } from "./ledger.js";

/** The priority fee the chain suggests: 0.1 gwei. */
const SUGGESTED_TIP = 100_000_000n;
const ZERO = `0x${"0".repeat(40)}`;

function addressParam(value: unknown, index: number): string {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw new EvmRpcError(
      -32602,
      `invalid argument ${index}: hex string has length other than 40 or no 0x prefix`,
    );
  }
  return value;
}

function quantityParam(value: unknown, name: string): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]+$/.test(value)) {
    throw new EvmRpcError(-32602, `invalid argument: ${name} must be a hex quantity`);
  }
  return BigInt(value);
}

function reverted(reason: string): EvmRpcError {
  return new EvmRpcError(
    3,
    reason === "" ? "execution reverted" : `execution reverted: ${reason}`,
    reason === "" ? "0x" : hex(encodeEvmRevert(reason)),
  );
}

/** The method table of one chain. */
export function sourceRpcMethods(chain: SourceChain): Record<string, JsonRpcHandler> {
  const blockNumber = (tag: unknown, index: number): bigint | undefined => {
    const head = chain.head().number;
    if (tag === undefined || tag === null || tag === "latest" || tag === "pending") return head;
    if (tag === "earliest") return 0n;
    if (tag === "safe" || tag === "finalized") return chain.finalizedNumber();
    if (typeof tag === "object" && tag !== null && "blockNumber" in tag) {
      return blockNumber((tag as { blockNumber: unknown }).blockNumber, index);
    }
    if (typeof tag !== "string" || !/^0x[0-9a-fA-F]+$/.test(tag)) {
      throw new EvmRpcError(
        -32602,
        `invalid argument ${index}: hex string without 0x prefix or not a block tag`,
      );
    }
    const n = BigInt(tag);
    return n > head ? undefined : n;
  };
  const latestOnly = (tag: unknown, index: number) => {
    const n = blockNumber(tag, index);
    if (n === undefined) throw new EvmRpcError(-32000, "header not found");
    if (n !== chain.head().number)
      throw new EvmRpcError(-32000, "missing trie node (historical state is not kept)");
  };
  const callOf = (raw: unknown) => {
    if (typeof raw !== "object" || raw === null)
      throw new EvmRpcError(-32602, "invalid argument 0: expected a call object");
    const call = raw as Record<string, unknown>;
    const data = call.input ?? call.data ?? "0x";
    const bytes = typeof data === "string" ? fromHex(data) : undefined;
    if (bytes === undefined) throw new EvmRpcError(-32602, "invalid argument 0: data must be hex bytes");
    if (call.to === undefined || call.to === null)
      throw new EvmRpcError(-32000, "contract creation is not supported on this source chain");
    return {
      from: call.from === undefined || call.from === null ? ZERO : addressParam(call.from, 0),
      to: addressParam(call.to, 0),
      value: quantityParam(call.value, "value") ?? 0n,
      data: bytes,
      gas: quantityParam(call.gas, "gas"),
    };
  };
  const run = (raw: unknown) => {
    const call = callOf(raw);
    const outcome = chain.ledger.call({ ...call, dryRun: true });
    if (!outcome.ok) throw reverted(outcome.reason);
    if (call.gas !== undefined && outcome.gasUsed > call.gas)
      throw new EvmRpcError(-32000, `gas required exceeds allowance (${call.gas})`);
    return outcome;
  };
  return {
    web3_clientVersion: () => `perpx-devnet-source/${chain.spec.name}`,
    eth_chainId: () => toQuantity(chain.spec.chainId),
    net_version: () => chain.spec.chainId.toString(),
    net_listening: () => true,
    eth_syncing: () => false,
    eth_blockNumber: () => toQuantity(chain.head().number),
    eth_gasPrice: () => toQuantity(SOURCE_BASE_FEE + SUGGESTED_TIP),
    eth_maxPriorityFeePerGas: () => toQuantity(SUGGESTED_TIP),
    eth_getBalance: (params) => {
      const address = addressParam(params[0], 0);
      latestOnly(params[1], 1);
      return toQuantity(chain.ledger.ethBalance(address));
    },
    eth_getTransactionCount: (params) => {
      const address = addressParam(params[0], 0);
      if (params[1] === "pending") return toQuantity(chain.pendingNonce(address));
      latestOnly(params[1], 1);
      return toQuantity(chain.ledger.nonce(address));
    },
    eth_getCode: (params) => {
      addressParam(params[0], 0);
      // The contracts run natively: no bytecode is kept (a marker byte tells contracts from accounts).
      return chain.ledger.isContract(params[0] as string) ? "0xfe" : "0x";
    },
    eth_call: (params) => {
      latestOnly(params[1], 1);
      return hex(run(params[0]).returnData);
    },
    eth_estimateGas: (params) => toQuantity(run(params[0]).gasUsed),
    eth_feeHistory: (params) => {
      const count = Number(
        typeof params[0] === "number" ? params[0] : (quantityParam(params[0], "blockCount") ?? 1n),
      );
      const newest = blockNumber(params[1], 1) ?? chain.head().number;
      const blocks = Math.max(1, Math.min(count, 1024, Number(newest) + 1));
      const oldest = newest - BigInt(blocks) + 1n;
      const percentiles = Array.isArray(params[2]) ? params[2] : [];
      const range = chain.blocks.slice(Number(oldest), Number(newest) + 1);
      return {
        oldestBlock: toQuantity(oldest),
        baseFeePerGas: Array.from({ length: blocks + 1 }, () => toQuantity(SOURCE_BASE_FEE)),
        gasUsedRatio: range.map((b) => Number(b.gasUsed) / 30_000_000),
        ...(percentiles.length === 0
          ? {}
          : { reward: range.map(() => percentiles.map(() => toQuantity(SUGGESTED_TIP))) }),
      };
    },
    eth_sendRawTransaction: (params) => chain.submit(params[0]).hash,
    eth_getTransactionByHash: (params) => {
      const entry = typeof params[0] === "string" ? chain.transaction(params[0]) : undefined;
      return entry === undefined ? null : txJson(entry);
    },
    eth_getTransactionReceipt: (params) => {
      const entry = typeof params[0] === "string" ? chain.transaction(params[0]) : undefined;
      return entry === undefined ? null : receiptJson(entry);
    },
    eth_getBlockByNumber: (params) => {
      const n = blockNumber(params[0], 0);
      const block = n === undefined ? undefined : chain.blocks[Number(n)];
      return block === undefined ? null : blockJson(block, params[1] === true);
    },
    eth_getBlockByHash: (params) => {
      const block = chain.blocks.find((b) => b.hash === String(params[0]).toLowerCase());
      return block === undefined ? null : blockJson(block, params[1] === true);
    },
    eth_getLogs: (params) => getLogs(chain, params[0], blockNumber),
  };
}

function getLogs(
  chain: SourceChain,
  raw: unknown,
  blockNumber: (tag: unknown, index: number) => bigint | undefined,
): unknown[] {
  const filter = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  let from: bigint;
  let to: bigint;
  if (typeof filter.blockHash === "string") {
    const block = chain.blocks.find((b) => b.hash === (filter.blockHash as string).toLowerCase());
    if (block === undefined) throw new EvmRpcError(-32000, "unknown block");
    from = block.number;
    to = block.number;
  } else {
    from = blockNumber(filter.fromBlock ?? "latest", 0) ?? chain.head().number + 1n;
    to = blockNumber(filter.toBlock ?? "latest", 0) ?? chain.head().number;
  }
  if (from > to) return [];
  if (to - from > 10_000n) throw new EvmRpcError(-32005, "query exceeds max block range 10000");
  const addresses = (
    Array.isArray(filter.address)
      ? filter.address
      : filter.address === undefined || filter.address === null
        ? []
        : [filter.address]
  ).map((a) => String(a).toLowerCase());
  const topics = Array.isArray(filter.topics) ? filter.topics : [];
  const matches = (log: { address: string; topics: readonly string[] }) =>
    (addresses.length === 0 || addresses.includes(log.address.toLowerCase())) &&
    topics.every((want, i) => {
      if (want === null || want === undefined) return true;
      const options = (Array.isArray(want) ? want : [want]).map((t) => String(t).toLowerCase());
      return options.length === 0 || options.includes((log.topics[i] ?? "").toLowerCase());
    });
  return chain.blocks
    .slice(Number(from), Number(to) + 1)
    .flatMap((b) => b.transactions.flatMap((t) => t.receipt?.logs ?? []))
    .filter(matches)
    .map(logJson);
}

/** The running JSON-RPC server of a source chain. */
export interface SourceRpcServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Starts the JSON-RPC server of a source chain over HTTP (single requests and batches). */
export async function startSourceRpcServer(options: {
  chain: SourceChain;
  host: string;
  port: number;
  timeouts?: Partial<ServerTimeouts>;
}): Promise<SourceRpcServer> {
  const methods = sourceRpcMethods(options.chain);
  const http = createJsonRpcHttpServer(methods, options.timeouts);
  const port = await listen(http, options.port, options.host);
  return { url: urlOf("http", options.host, port), port, close: () => closeServer(http) };
}
