import { sha256 } from "@noble/hashes/sha2.js";
import { InvalidArgumentError } from "@perpx/errors";
import { toHexString } from "../bytes.js";
import { checkParams } from "../messages/validate.js";

/**
 * Finds the SHA-256 in a release info file: a `sha256`/`checksum` field (JSON or `key: value`
 * text), else the only 64-hex-digit token.
 *
 * @param info - the text of a release's info file.
 * @returns the SHA-256 as 64 lowercase hex digits.
 * @throws {InvalidArgumentError} when there is none, or several different candidates.
 *
 * @example
 * ```ts
 * parseReleaseChecksum('{"version":"v27.5","sha256":"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"}'); // "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
 * ```
 */
export function parseReleaseChecksum(info: string): string {
  const keyed = /"?(?:sha-?256(?:sum)?|checksum)"?\s*[:=]\s*"?(?:sha256:)?([0-9a-fA-F]{64})\b/i.exec(info);
  if (keyed) return keyed[1]!.toLowerCase();
  const tokens = new Set((info.match(/\b[0-9a-fA-F]{64}\b/g) ?? []).map((t) => t.toLowerCase()));
  if (tokens.size === 1) return [...tokens][0]!;
  throw new InvalidArgumentError(
    "info",
    tokens.size === 0
      ? "no SHA-256 checksum in the info file"
      : "several SHA-256 candidates and no sha256 field",
  );
}

/**
 * What {@link verifyReleaseArchive} found.
 *
 * @example
 * ```ts
 * const archive = new TextEncoder().encode("hello"); // the release archive's bytes
 * const { ok, actual }: ReleaseVerification = await verifyReleaseArchive({ archive, info: `sha256: ${"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"}` });
 * [ok, actual]; // [true, "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"]
 * ```
 */
export interface ReleaseVerification {
  /** True when the archive's SHA-256 is the info file's. */
  ok: boolean;
  /** The checksum of the info file, lowercase hex. */
  expected: string;
  /** The checksum of the archive, lowercase hex. */
  actual: string;
  /** Bytes hashed. */
  bytes: number;
}

/**
 * Parameters of {@link verifyReleaseArchive}.
 *
 * @example
 * ```ts
 * // The archive as bytes, an async iterable (a Node file stream) or a web ReadableStream.
 * const params: VerifyReleaseParams = { archive: new TextEncoder().encode("hello"), info: "sha256: 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" };
 * ```
 */
export interface VerifyReleaseParams {
  /** The archive: its bytes, or a stream of chunks (a Node `ReadStream`, a web `ReadableStream`). */
  archive: Uint8Array | AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;
  /** The text of the release's info file. */
  info: string;
}

/**
 * Verifies a release archive (linux-amd64 build) against the SHA-256 of its info file, streaming.
 *
 * @param params - see `VerifyReleaseParams`: each field is documented there.
 * @returns resolves with `ok` (whether the digests match), the `expected` and `actual` SHA-256 and
 *   the `bytes` read.
 * @example
 * ```ts
 * // The release's info file names the archive's SHA-256; a download that differs is refused.
 * const info = "sha256: 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
 * (await verifyReleaseArchive({ archive: new TextEncoder().encode("hello"), info })).ok; // true
 * (await verifyReleaseArchive({ archive: new TextEncoder().encode("hellO"), info })).ok; // false
 * ```
 */
export async function verifyReleaseArchive(params: VerifyReleaseParams): Promise<ReleaseVerification> {
  checkParams(params, "verifyReleaseArchive");
  const expected = parseReleaseChecksum(params.info);
  const hash = sha256.create();
  let bytes = 0;
  const archive = params.archive;
  if (archive instanceof Uint8Array) {
    hash.update(archive);
    bytes = archive.length;
  } else {
    const chunks: AsyncIterable<Uint8Array> =
      Symbol.asyncIterator in archive ? archive : readableToIterable(archive as ReadableStream<Uint8Array>);
    for await (const chunk of chunks) {
      const view = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk as ArrayBuffer);
      hash.update(view);
      bytes += view.length;
    }
  }
  const actual = toHexString(hash.digest());
  return { ok: actual === expected, expected, actual, bytes };
}

async function* readableToIterable(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
