/**
 * The bridge daemon: watches the source chains' `BridgeDeposit` logs and hands them to the chain
 * through a {@link DepositSink} (the only contact between the source chains and the chain app):
 * each log is reported when its block is sealed (the chain records it OBSERVED), and reported final
 * once its block is `finalityDepth` blocks deep (the chain then finalizes, acknowledges and, after
 * the safety delay, completes it, as x/bridge does with the events its daemon recognized).
 */
import { addressBytesToBech32 } from "@perpx/address";
import type { SourceBlock, SourceChain } from "./chain.js";
import { TOPICS, unhex } from "./ledger.js";

/** A deposit log as the daemon reports it. */
export interface ObservedDeposit {
  readonly ethChainId: bigint;
  readonly bridgeAddress: string;
  readonly tokenAddress: string;
  /** The depositor on the source chain (0x). */
  readonly sender: string;
  /** The credited account (bech32). */
  readonly address: string;
  readonly amount: bigint;
  readonly sourceBlock: bigint;
  readonly txHash: string;
}

/** Where the daemon delivers deposits: the chain app's bridge module. */
export interface DepositSink {
  /** Records an observed deposit; returns its bridge event id. */
  observe(deposit: ObservedDeposit): number;
  /** Reports that the deposit's source block is final. */
  finalize(ethChainId: bigint, id: number): void;
}

/** Starts watching `chains`; returns the stop function. Sink failures go to `onError`. */
export function startBridgeDaemon(
  chains: readonly SourceChain[],
  sink: DepositSink,
  onError: (error: unknown) => void,
): () => void {
  const stops = chains.map((chain) => {
    const pending: Array<{ id: number; block: bigint }> = [];
    const chainId = chain.spec.chainId;
    const bridge = chain.spec.bridgeAddress.toLowerCase();
    const onBlock = (block: SourceBlock) => {
      for (const tx of block.transactions) {
        for (const log of tx.receipt?.logs ?? []) {
          if (log.address.toLowerCase() !== bridge || log.topics[0] !== TOPICS.deposit) continue;
          try {
            const id = sink.observe({
              ethChainId: chainId,
              bridgeAddress: chain.spec.bridgeAddress,
              tokenAddress: chain.spec.usdcAddress,
              sender: `0x${(log.topics[1] as string).slice(26)}`,
              address: addressBytesToBech32(unhex(log.topics[2] as string).subarray(12)),
              amount: BigInt(`0x${Buffer.from(log.data).toString("hex")}`),
              sourceBlock: block.number,
              txHash: tx.hash,
            });
            pending.push({ id, block: block.number });
          } catch (error) {
            onError(error);
          }
        }
      }
      const final = chain.finalizedNumber();
      while (pending.length > 0 && (pending[0] as { block: bigint }).block <= final) {
        const next = pending.shift() as { id: number };
        try {
          sink.finalize(chainId, next.id);
        } catch (error) {
          onError(error);
        }
      }
    };
    return chain.onBlock(onBlock);
  });
  return () => {
    for (const stop of stops) stop();
  };
}
