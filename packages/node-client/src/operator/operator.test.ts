import { Readable } from "node:stream";
import { sha256 } from "@noble/hashes/sha2.js";
import { STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { toHexString } from "../bytes.js";
import { parseReleaseChecksum, verifyReleaseArchive } from "./release.js";
import {
  canServeHeight,
  latestSnapshotHeight,
  newestSnapshot,
  parseSnapshotName,
  STATE_SYNCED_NODE_CANNOT_SERVE,
} from "./snapshots.js";

describe("snapshots", () => {
  it("parses <network>_<timestamp>_block-<height>.tar.lz4 (names, paths and URLs)", () => {
    expect(parseSnapshotName("mainnet_20250301-120000_block-12960191.tar.lz4")).toEqual({
      name: "mainnet_20250301-120000_block-12960191.tar.lz4",
      network: "mainnet",
      timestamp: "20250301-120000",
      height: 12_960_191n,
    });
    expect(
      parseSnapshotName("https://snapshots.example.com/testnet/testnet_20250102_block-5016944.tar.lz4")
        ?.height,
    ).toBe(5_016_944n);
    for (const bad of ["mainnet_2025_block-1.tar.gz", "mainnet_block-1.tar.lz4", "a_b_block-x.tar.lz4", ""]) {
      expect(parseSnapshotName(bad)).toBeUndefined();
    }
  });

  it("picks the newest by timestamp, then height, per network", () => {
    const keys = [
      "mainnet_20250301-120000_block-12960191.tar.lz4",
      "mainnet_20250302-000000_block-12990000.tar.lz4",
      "testnet_20250303-000000_block-5100000.tar.lz4",
      "mainnet_20250302-000000_block-12990100.tar.lz4",
      "README.md",
    ];
    expect(newestSnapshot(keys)?.network).toBe("testnet");
    expect(newestSnapshot(keys, { network: "mainnet" })?.height).toBe(12_990_100n);
    expect(newestSnapshot(keys, { network: "devnet" })).toBeUndefined();
    expect(newestSnapshot([])).toBeUndefined();
  });

  it("knows the state-sync interval and what a state-synced node cannot serve", () => {
    expect(STATE_SYNC_SNAPSHOT_INTERVAL_BLOCKS).toBe(2000);
    expect(latestSnapshotHeight({ height: 12_960_191n })).toBe(12_960_000n);
    expect(latestSnapshotHeight({ height: 1999 })).toBe(0n);
    expect(latestSnapshotHeight({ height: 5000, intervalBlocks: 1000 })).toBe(5000n);
    expect(() => latestSnapshotHeight({ height: -1 })).toThrow(/negative/);
    expect(canServeHeight({ syncHeight: 12_960_000n, height: 12_000_000n })).toBe(false);
    expect(canServeHeight({ syncHeight: 12_960_000n, height: 12_960_000 })).toBe(true);
    expect(STATE_SYNCED_NODE_CANNOT_SERVE).toContain("tx_search");
  });
});

describe("release archives", () => {
  const archive = new TextEncoder().encode("perpxd linux-amd64 binary".repeat(1000));
  const digest = toHexString(sha256(archive));

  it("finds the checksum in the info file's common shapes", () => {
    expect(parseReleaseChecksum(JSON.stringify({ version: "v27.5", sha256: digest.toUpperCase() }))).toBe(
      digest,
    );
    expect(parseReleaseChecksum(`version: v27.5\nsha256: ${digest}\n`)).toBe(digest);
    expect(parseReleaseChecksum(`checksum=sha256:${digest}`)).toBe(digest);
    expect(parseReleaseChecksum(`${digest}  perpxd-v27.5-linux-amd64.tar.gz\n`)).toBe(digest);
    expect(() => parseReleaseChecksum("no checksum here")).toThrow(/no SHA-256/);
    expect(() => parseReleaseChecksum(`${digest}\n${"a".repeat(64)}`)).toThrow(/several/);
  });

  it("verifies bytes, Node streams and web streams", async () => {
    const info = JSON.stringify({ sha256: digest });
    expect(await verifyReleaseArchive({ archive, info })).toEqual({
      ok: true,
      expected: digest,
      actual: digest,
      bytes: archive.length,
    });
    const chunks = [archive.subarray(0, 100), archive.subarray(100)];
    expect((await verifyReleaseArchive({ archive: Readable.from(chunks), info })).ok).toBe(true);
    const web = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    expect((await verifyReleaseArchive({ archive: web, info })).ok).toBe(true);
    const tampered = archive.slice();
    tampered[0] = 0;
    const result = await verifyReleaseArchive({ archive: tampered, info });
    expect(result.ok).toBe(false);
    expect(result.actual).not.toBe(digest);
  });
});
