/**
 * `@perpx/node-client/operator`: for people who run nodes. State-sync snapshot names and heights,
 * what a state-synced node cannot serve, and release archive checksums.
 *
 * @packageDocumentation
 */
export {
  parseReleaseChecksum,
  type ReleaseVerification,
  type VerifyReleaseParams,
  verifyReleaseArchive,
} from "./operator/release.js";
export {
  canServeHeight,
  type LatestSnapshotParams,
  latestSnapshotHeight,
  type NewestSnapshotOptions,
  newestSnapshot,
  parseSnapshotName,
  type SnapshotName,
  STATE_SYNCED_NODE_CANNOT_SERVE,
} from "./operator/snapshots.js";
