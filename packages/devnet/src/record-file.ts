/**
 * Framed records in a file (the block log, the snapshot's body): each is its payload's length (u32
 * little-endian), a checksum (the first 4 bytes of SHA-256 over the length field and the payload),
 * then the payload. Records are scanned from a file in fixed-size chunks, so that checking a log of
 * any length holds one chunk in memory, not the file.
 */

import { createHash } from "node:crypto";
import { readSync, writeSync } from "node:fs";
import { bytesEqual } from "./app/lib/codec.js";
import { DevnetError } from "./devnet-error.js";

/** Bytes before a record's payload: its length (u32 little-endian) and checksum. */
export const RECORD_HEADER_BYTES = 8;
const MAX_RECORD_BYTES = 0xffff_ffff;
/** Bytes read at once when scanning a file. */
const SCAN_CHUNK_BYTES = 1 << 20;

/** First 4 bytes of SHA-256 over a record's length field and payload. */
function checksum(lengthField: Uint8Array, payload: Uint8Array): Uint8Array {
  return createHash("sha256").update(lengthField).update(payload).digest().subarray(0, 4);
}

/** Whether the 8 header bytes match `payload`. */
function intact(header: Uint8Array, payload: Uint8Array): boolean {
  return bytesEqual(checksum(header.subarray(0, 4), payload), header.subarray(4, RECORD_HEADER_BYTES));
}

/** Frames one record: payload length (u32 LE), checksum of length and payload, payload. */
export function encodeRecord(payload: Uint8Array): Uint8Array {
  if (payload.length > MAX_RECORD_BYTES)
    throw new DevnetError("out-of-range", `a record of ${payload.length} bytes is too large`);
  const out = new Uint8Array(RECORD_HEADER_BYTES + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, true);
  out.set(checksum(out.subarray(0, 4), payload), 4);
  out.set(payload, RECORD_HEADER_BYTES);
  return out;
}

/**
 * Reads framed records from the start of `bytes`, up to `limit` of them, stopping at the first
 * that is incomplete or fails its checksum. `end` is the offset just after the last record read.
 * The records are views into `bytes`.
 */
export function decodeRecords(
  bytes: Uint8Array,
  limit = Number.POSITIVE_INFINITY,
): { records: Uint8Array[]; end: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const records: Uint8Array[] = [];
  let offset = 0;
  while (records.length < limit && bytes.length - offset >= RECORD_HEADER_BYTES) {
    const length = view.getUint32(offset, true);
    const start = offset + RECORD_HEADER_BYTES;
    if (length > bytes.length - start) break;
    const payload = bytes.subarray(start, start + length);
    if (!intact(bytes.subarray(offset, start), payload)) break;
    records.push(payload);
    offset = start + length;
  }
  return { records, end: offset };
}

/** Fills `bytes` from `position` of the file; throws when the file ends first. */
export function readAllAt(fd: number, bytes: Uint8Array, position: number): void {
  let done = 0;
  while (done < bytes.length) {
    const n = readSync(fd, bytes, done, bytes.length - done, position + done);
    if (n === 0) throw new DevnetError("malformed", `the file ends before byte ${position + bytes.length}`);
    done += n;
  }
}

/** Writes all of `bytes` at `position`. */
export function writeAllAt(fd: number, bytes: Uint8Array, position: number): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/**
 * Scans the records of file `fd` (of `size` bytes) from byte `from`, up to `limit` of them,
 * stopping at the first that is incomplete or fails its checksum. Returns where each record's
 * payload starts and the offset just after the last record read. `chunkBytes` is read at once.
 */
export function scanRecords(
  fd: number,
  from: number,
  size: number,
  limit = Number.POSITIVE_INFINITY,
  chunkBytes = SCAN_CHUNK_BYTES,
): { payloadStarts: number[]; end: number } {
  const chunk = new Uint8Array(chunkBytes);
  let chunkStart = 0;
  let chunkLength = 0;
  /** Bytes `[offset, offset + length)` of the file (a view of the chunk when they fit in it). */
  const bytesAt = (offset: number, length: number): Uint8Array | undefined => {
    if (offset + length > size) return undefined;
    if (offset >= chunkStart && offset + length <= chunkStart + chunkLength) {
      return chunk.subarray(offset - chunkStart, offset - chunkStart + length);
    }
    if (length > chunk.length) {
      const whole = new Uint8Array(length);
      readAllAt(fd, whole, offset);
      return whole;
    }
    chunkStart = offset;
    chunkLength = Math.min(chunk.length, size - offset);
    readAllAt(fd, chunk.subarray(0, chunkLength), offset);
    return chunk.subarray(0, length);
  };
  const payloadStarts: number[] = [];
  let offset = from;
  while (payloadStarts.length < limit) {
    const headerView = bytesAt(offset, RECORD_HEADER_BYTES);
    if (headerView === undefined) break;
    const header = headerView.slice(); // the chunk may move when the payload is read
    const length = new DataView(header.buffer).getUint32(0, true);
    const payload = bytesAt(offset + RECORD_HEADER_BYTES, length);
    if (payload === undefined || !intact(header, payload)) break;
    payloadStarts.push(offset + RECORD_HEADER_BYTES);
    offset += RECORD_HEADER_BYTES + length;
  }
  return { payloadStarts, end: offset };
}

/**
 * The payload of the record whose payload starts at `payloadStart` of file `fd`, or undefined when
 * it fails its checksum.
 */
export function readRecordAt(fd: number, payloadStart: number): Uint8Array | undefined {
  const header = new Uint8Array(RECORD_HEADER_BYTES);
  readAllAt(fd, header, payloadStart - RECORD_HEADER_BYTES);
  const payload = new Uint8Array(new DataView(header.buffer).getUint32(0, true));
  readAllAt(fd, payload, payloadStart);
  return intact(header, payload) ? payload : undefined;
}
