/**
 * The header hashes of a block, as the devnet computes them: the data hash of its txs, the results
 * hash of the previous block's tx results, the validator set hash, and the block hash over the
 * header fields. Pure functions of their inputs.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { tendermintAbci } from "@perpx/proto";
import type { BlockRecord, TxResult } from "../contract.js";
import type { ChainConfig } from "../genesis/genesis.js";
import { concatBytes, encodeU64, utf8 } from "../lib/codec.js";
import { merkleRoot } from "../lib/merkle.js";

const EMPTY = new Uint8Array(0);

/** The Merkle root of tx results as CometBFT hashes them (code, data, gas wanted and used). */
export function resultsHash(results: readonly TxResult[]): Uint8Array {
  return merkleRoot(
    results.map((r) =>
      toBinary(
        tendermintAbci.ExecTxResultSchema,
        create(tendermintAbci.ExecTxResultSchema, {
          code: r.code,
          data: r.data,
          gasWanted: r.gasWanted,
          gasUsed: r.gasUsed,
        }),
      ),
    ),
  );
}

/** What a block's header is built from. */
export interface HeaderInput {
  readonly height: bigint;
  readonly time: Date;
  /** The previous block (undefined for the first). */
  readonly previous: BlockRecord | undefined;
  /** The SHA-256 hashes of the block's txs, in order. */
  readonly txHashes: readonly Uint8Array[];
  /** The app hash after the previous block. */
  readonly appHash: Uint8Array;
}

/** A block's header fields (every {@link BlockRecord} field but its txs, results and events). */
export type BlockHeader = Omit<BlockRecord, "txs" | "txResults" | "finalizeBlockEvents" | "resultAppHash">;

/** The header of a block of the chain's single validator. */
export function blockHeader(config: ChainConfig, input: HeaderInput): BlockHeader {
  const { height, time, previous, appHash } = input;
  const v = config.validator;
  const validatorsHash = merkleRoot([concatBytes(v.publicKey, encodeU64(config.validatorPower))]);
  const dataHash = merkleRoot(input.txHashes);
  const lastResultsHash = resultsHash(previous?.txResults ?? []);
  const lastBlockHash = previous?.hash ?? EMPTY;
  const timeNanos = (time.getTime() % 1000) * 1_000_000;
  const hash = merkleRoot([
    utf8(config.chainId),
    encodeU64(height),
    encodeU64(BigInt(time.getTime())),
    lastBlockHash,
    dataHash,
    validatorsHash,
    appHash,
    lastResultsHash,
    v.address,
  ]);
  return {
    height,
    time,
    timeNanos,
    hash,
    lastBlockHash,
    appHash,
    dataHash,
    lastResultsHash,
    validatorsHash,
    proposerAddress: v.address,
  };
}
