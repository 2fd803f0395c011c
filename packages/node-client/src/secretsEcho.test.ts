/**
 * A secret given in a field that echoes its value unquoted (`got ${String(value)}`) or as the words
 * of an array never shows in an error: its message, `String()`, `JSON.stringify`
 * or `util.inspect` (which prints the `cause` chain). The message still names the field.
 */
import { encodeCredential, REDACTED, redactSecrets } from "@perpx/core";
import { entropyToMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { refusalOf, shownError } from "../../../tests/support/shown-error.js";
import { createNodeClient } from "./client.js";
import { placeOrderMsg } from "./messages/clob.js";
import type { PlaceOrderParams } from "./messages/orderTypes.js";
import { uint32, uint64 } from "./messages/validate.js";
import { cosmosHdPath } from "./wallet/hd.js";
import { LocalWallet } from "./wallet/localWallet.js";

const wallet = LocalWallet.fromPrivateKey("07".repeat(32));
const key = "5a".repeat(32);
const mnemonic24 =
  "abandon ability able about above absent absorb abstract absurd abuse access accident acoustic acquire across act actor actress actual adapt address adjust admit adult";
const mnemonic12 = "legal winner thank year wave sausage worth useful legal winner thank yellow";
const credential = encodeCredential({ masterAddress: wallet.address, tradingPrivateKey: key });
/** Each secret as a caller could pass it: as text, and a mnemonic also as its array of words. */
const SECRETS: readonly [string, unknown][] = [
  ["key", key],
  ["0x key", `0x${key}`],
  ["credential", credential],
  ["24 words", mnemonic24],
  ["12 words", mnemonic12],
  ["24 words, array", mnemonic24.split(" ")],
  ["12 words, array", mnemonic12.split(" ")],
];

const order = {
  subaccount: { owner: wallet.address, number: 0 },
  clientId: 42,
  clobPairId: 1,
  side: "BUY",
  quantums: 1_000_000n,
  subticks: 2_868_800_000n,
  kind: "short-term",
  goodTilBlock: 100,
};

/** True when `text` shows the secret: the key's first half, or 6 of the mnemonic's words in a row. */
function leaks(text: string, secret: unknown): boolean {
  const words = Array.isArray(secret) ? (secret as string[]) : String(secret).split(" ");
  if (words.length >= 12) {
    for (let i = 0; i + 6 <= words.length; i++) {
      for (const gap of [" ", ",", '","', "', '"])
        if (text.includes(words.slice(i, i + 6).join(gap))) return true;
    }
    return false;
  }
  return text.toLowerCase().includes(key.slice(0, 32)) || text.includes(credential.slice(0, 40));
}

describe("a secret echoed unquoted by a validation error is redacted", () => {
  it.each(SECRETS)("%s", (_, secret) => {
    const cases: [string, () => unknown][] = [
      ["side", () => placeOrderMsg({ ...order, side: secret } as unknown as PlaceOrderParams)],
      ["timeInForce", () => placeOrderMsg({ ...order, timeInForce: secret } as unknown as PlaceOrderParams)],
      ["kind", () => placeOrderMsg({ ...order, kind: secret } as unknown as PlaceOrderParams)],
      [
        "conditionType",
        () =>
          placeOrderMsg({
            ...order,
            kind: "conditional",
            goodTilBlockTime: 2_000_000_000,
            conditionType: secret,
            triggerSubticks: 1n,
          } as unknown as PlaceOrderParams),
      ],
      [
        "builderCode.feePpm",
        () =>
          placeOrderMsg({
            ...order,
            builderCode: { builderAddress: wallet.address, feePpm: secret },
          } as unknown as PlaceOrderParams),
      ],
      [
        "address",
        () =>
          placeOrderMsg({
            ...order,
            orderRouterAddress: `perpx1${"q".repeat(50)} ${Array.isArray(secret) ? secret.join(" ") : secret}`,
          } as unknown as PlaceOrderParams),
      ],
      [
        "address",
        () =>
          placeOrderMsg({
            ...order,
            builderCode: {
              builderAddress: `${"-".repeat(90)}${Array.isArray(secret) ? secret.join(" ") : secret}`,
              feePpm: 10,
            },
          } as unknown as PlaceOrderParams),
      ],
      ["quantums", () => placeOrderMsg({ ...order, quantums: secret } as unknown as PlaceOrderParams)],
      ["clobPairId", () => uint32(secret as number, "clobPairId")],
      ["gasLimit", () => uint64(secret as bigint, "gasLimit")],
      ["index", () => cosmosHdPath(secret as number)],
      [
        "broadcastMode",
        () => createNodeClient({ grpc: "http://127.0.0.1:9", broadcastMode: secret as "sync" }),
      ],
      ["nonceMode", () => createNodeClient({ grpc: "http://127.0.0.1:9", nonceMode: secret as "sequence" })],
      [
        "gasMultiplier",
        () => createNodeClient({ grpc: "http://127.0.0.1:9", gasMultiplier: secret as number }),
      ],
    ];
    for (const [field, call] of cases) {
      const error = refusalOf(call);
      const text = shownError(error);
      expect(leaks(text, secret), `${field}: ${text}`).toBe(false);
      expect((error as Error).message, field).toContain(field);
    }
  });
});

describe("redactSecrets and the BIP-39 English word list", () => {
  it("every BIP-39 word can stand in a redacted run (no word of the list stops one)", () => {
    const kept = wordlist.filter((word) => redactSecrets(Array(12).fill(word).join(" ")) !== REDACTED);
    expect(kept).toEqual([]);
  });

  it("a real mnemonic is redacted in any text around it, whole or as its array of words", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(16, 20, 24, 28, 32),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.string({ maxLength: 30 }),
        fc.string({ maxLength: 30 }),
        (bytes, entropy, before, after) => {
          const mnemonic = entropyToMnemonic(entropy.slice(0, bytes), wordlist);
          // a letter touching the first or last word would make it another word: keep a gap
          const text = (m: string) => `${before} ${m} ${after}`;
          for (const shownAs of [
            mnemonic,
            String(mnemonic.split(" ")),
            JSON.stringify(mnemonic.split(" ")),
          ]) {
            expect(leaks(redactSecrets(text(shownAs)), mnemonic)).toBe(false);
          }
        },
      ),
    );
  });
});
