/**
 * The devnet's TLS certificate for gRPC over TLS: a self-signed ECDSA P-256 certificate for
 * `localhost`, `127.0.0.1` and `::1`, which is its own CA (a client trusts it by adding its PEM as a
 * CA). Built with `node:crypto` and a few lines of DER, in about a millisecond, so the devnet starts
 * fast; cached in the state directory when there is one.
 */
import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  X509Certificate,
} from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../atomic-file.js";

/** A certificate and its private key, PEM-encoded. */
export interface TlsMaterial {
  /** The private key (PKCS#8 PEM). */
  key: string;
  /** The certificate (PEM); also the CA a client must trust. */
  cert: string;
}

// ---- DER -----------------------------------------------------------------------------------------

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
}

const seq = (...c: Buffer[]) => tlv(0x30, ...c);
const set = (...c: Buffer[]) => tlv(0x31, ...c);
const octets = (b: Buffer) => tlv(0x04, b);
const bits = (b: Buffer, unused = 0) => tlv(0x03, Buffer.from([unused]), b);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, "utf8"));

function oid(dotted: string): Buffer {
  const arcs = dotted.split(".").map(Number);
  const out: number[] = [40 * (arcs[0] ?? 0) + (arcs[1] ?? 0)];
  for (const arc of arcs.slice(2)) {
    const chunk: number[] = [];
    let v = arc;
    do {
      chunk.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < chunk.length - 1; i++) chunk[i] = (chunk[i] ?? 0) | 0x80;
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && ((b[1] ?? 0) & 0x80) === 0) b = b.subarray(1);
  if (((b[0] ?? 0) & 0x80) !== 0) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

function utcTime(date: Date): Buffer {
  const p = (n: number) => String(n).padStart(2, "0");
  const text = `${p(date.getUTCFullYear() % 100)}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(
    date.getUTCHours(),
  )}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text, "ascii"));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? seq(oid(id), bool(true), octets(value)) : seq(oid(id), octets(value));
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/**
 * Generates a self-signed ECDSA P-256 certificate for `localhost`, `127.0.0.1` and `::1`, valid from
 * an hour ago for ten years, usable both as the server certificate and as the CA that trusts it.
 *
 * @param now - the issue time.
 * @returns the key and certificate as PEM.
 * @example
 * ```ts
 * import http2 from "node:http2";
 *
 * const { key, cert } = generateTlsCertificate();
 * cert.startsWith("-----BEGIN CERTIFICATE-----"); // true
 * const server = http2.createSecureServer({ key, cert });
 * server.close();
 * ```
 */
export function generateTlsCertificate(now: Date = new Date()): TlsMaterial {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 1) & 0x7f) | 0x01;
  const name = seq(
    set(seq(oid("2.5.4.3"), utf8("perpx-devnet localhost"))),
    set(seq(oid("2.5.4.10"), utf8("perpx devnet"))),
  );
  const ecdsaSha256 = seq(oid("1.2.840.10045.4.3.2"));
  const keyBits = spki.subarray(spki.length - 65);
  const ski = createHash("sha1").update(keyBits).digest();
  const san = seq(
    tlv(0x82, Buffer.from("localhost", "ascii")),
    tlv(0x87, Buffer.from([127, 0, 0, 1])),
    tlv(0x87, Buffer.concat([Buffer.alloc(15), Buffer.from([1])])),
  );
  const extensions = tlv(
    0xa3,
    seq(
      extension("2.5.29.19", true, seq(bool(true))),
      // digitalSignature (bit 0) and keyCertSign (bit 5): 1000 0100, two unused bits.
      extension("2.5.29.15", true, bits(Buffer.from([0x84]), 2)),
      extension("2.5.29.37", false, seq(oid("1.3.6.1.5.5.7.3.1"))),
      extension("2.5.29.17", false, san),
      extension("2.5.29.14", false, octets(ski)),
    ),
  );
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  const notAfter = new Date(now.getTime() + 10 * 365 * 24 * 60 * 60 * 1000);
  const tbs = seq(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    ecdsaSha256,
    name,
    seq(utcTime(notBefore), utcTime(notAfter)),
    name,
    spki,
    extensions,
  );
  const signature = sign("sha256", tbs, { key: privateKey, dsaEncoding: "der" });
  const certificate = seq(tbs, ecdsaSha256, bits(signature));
  return {
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    cert: pem("CERTIFICATE", certificate),
  };
}

/**
 * File names of the cached certificate in the state directory.
 *
 * @example
 * ```ts
 * import { mkdtempSync, readFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const stateDir = mkdtempSync(join(tmpdir(), "devnet-"));
 * const devnet = await startDevnet({ ports: "free", stateDir });
 * const ca = readFileSync(join(stateDir, TLS_FILES.cert), "utf8");
 * ca === devnet.caPem; // true
 * await devnet.stop();
 * ```
 */
export const TLS_FILES = { cert: "tls-ca.pem", key: "tls-key.pem" } as const;

function isUsable(material: TlsMaterial, now: Date): boolean {
  try {
    const x509 = new X509Certificate(material.cert);
    const left = new Date(x509.validTo).getTime() - now.getTime();
    return (
      left > 24 * 60 * 60 * 1000 &&
      x509.checkHost("localhost") !== undefined &&
      x509.checkPrivateKey(createPrivateKey(material.key))
    );
  } catch {
    return false;
  }
}

/**
 * The TLS certificate of the devnet: read from `dir` when one is cached there and still valid,
 * otherwise generated (and, with `dir`, written there atomically).
 *
 * @param dir - the state directory, or undefined for an in-memory devnet.
 * @returns the key and certificate as PEM.
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 *
 * const dir = mkdtempSync(join(tmpdir(), "devnet-"));
 * const tls = loadOrCreateTls(dir);
 * loadOrCreateTls(dir).cert === tls.cert; // true: read back from dir
 * ```
 */
export function loadOrCreateTls(dir: string | undefined, now: Date = new Date()): TlsMaterial {
  if (dir !== undefined) {
    try {
      const cached: TlsMaterial = {
        cert: readFileSync(join(dir, TLS_FILES.cert), "utf8"),
        key: readFileSync(join(dir, TLS_FILES.key), "utf8"),
      };
      if (isUsable(cached, now)) return cached;
    } catch {
      // Nothing cached yet.
    }
  }
  const material = generateTlsCertificate(now);
  if (dir !== undefined) {
    mkdirSync(dir, { recursive: true });
    writeFileAtomic(join(dir, TLS_FILES.key), material.key);
    writeFileAtomic(join(dir, TLS_FILES.cert), material.cert);
  }
  return material;
}
