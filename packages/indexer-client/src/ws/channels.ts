/**
 * What the socket needs of the channel contract in `@perpx/core/indexer`: a check that a string is
 * one of the seven channels.
 */
import { INDEXER_CHANNELS, type IndexerChannel } from "@perpx/core/indexer";

const CHANNELS = new Set<string>(INDEXER_CHANNELS);

/** True for a string naming one of the seven channels. */
export function isIndexerChannel(value: unknown): value is IndexerChannel {
  return typeof value === "string" && CHANNELS.has(value);
}
