/**
 * Known-answer vectors, from public sources and not from either implementation, run against both:
 * the client's encoders (`@perpx/core`, on the `ox` library) and the devnet's own reference
 * implementation (`src/lib/evm`). Each wire test has one side sign and the other verify; these pin
 * both sides to the published bytes, so a bug the two shared would still be caught.
 *
 * Sources (data copied, not code):
 * - RLP: ethereum/tests `RLPTests/rlptest.json` and `RLPTests/invalidRLPTest.json`, and two items
 *   with a two-byte length written out from the Yellow Paper's definition (appendix B).
 * - Legacy: the worked example of EIP-155 (nonce 9, 20 gwei, chain id 1, key 0x4646...46).
 * - EIP-1559: ethereumjs-monorepo `packages/tx/test/json/eip1559.json` (chain id 7822, key
 *   0x8f2a...be63; `signedTransactionRLP` is the typed transaction wrapped as an RLP string).
 * - EIP-712: the "Ether Mail" example of the EIP (its type hash, domain separator, struct hash,
 *   digest, and the signature by keccak256("cow")).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import * as client from "@perpx/core";
import * as clientEvm from "@perpx/core/evm";
import * as clientVerify from "@perpx/core/evm-verify";
import { InvalidArgumentError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import * as devnet712 from "../src/lib/evm/eip712.js";
import * as devnetRlp from "../src/lib/evm/rlp.js";
import * as devnetTx from "../src/lib/evm/tx.js";

type RlpItem = clientEvm.RlpItem;
type EvmTx = clientEvm.EvmTx;

const IMPLEMENTATIONS = [
  {
    name: "client (@perpx/core on ox)",
    rlpEncode: clientEvm.rlpEncode,
    rlpDecode: clientEvm.rlpDecode,
    signEvmTx: clientEvm.signEvmTx,
    evmTxSigningPayload: clientEvm.evmTxSigningPayload,
    decodeSignedEvmTx: clientVerify.decodeSignedEvmTx,
    hashType: clientEvm.hashType,
    hashStruct: clientEvm.hashStruct,
    hashTypedData: clientEvm.hashTypedData,
    recoverAddress: clientVerify.recoverAddress,
  },
  {
    name: "devnet (src/lib/evm)",
    rlpEncode: devnetRlp.rlpEncode,
    rlpDecode: devnetRlp.rlpDecode,
    signEvmTx: devnetTx.signEvmTx,
    evmTxSigningPayload: devnetTx.evmTxSigningPayload,
    decodeSignedEvmTx: devnetTx.decodeSignedEvmTx,
    hashType: devnet712.hashType,
    hashStruct: devnet712.hashStruct,
    hashTypedData: devnet712.hashTypedData,
    recoverAddress: devnet712.recoverAddress,
  },
];

const s = utf8ToBytes;
const int = (n: bigint) =>
  n === 0n
    ? new Uint8Array(0)
    : hexToBytes(n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, "0"));

/** ethereum/tests RLPTests/rlptest.json: [name, input, expected encoding]. */
const RLP_VECTORS: Array<[string, RlpItem, string]> = [
  ["emptystring", s(""), "80"],
  ["bytestring00", Uint8Array.of(0), "00"],
  ["bytestring01", Uint8Array.of(1), "01"],
  ["bytestring7F", Uint8Array.of(0x7f), "7f"],
  ["shortstring", s("dog"), "83646f67"],
  [
    "longstring",
    s("Lorem ipsum dolor sit amet, consectetur adipisicing elit"),
    "b8384c6f72656d20697073756d20646f6c6f722073697420616d65742c20636f6e7365637465747572206164697069736963696e6720656c6974",
  ],
  ["zero", int(0n), "80"],
  ["smallint", int(1n), "01"],
  ["mediumint1", int(100000n), "830186a0"],
  // A length of two bytes, big-endian (the Yellow Paper's rule, appendix B: 0xb7 + 2, then 0x0400).
  ["string of 1024 bytes", new Uint8Array(1024).fill(0x61), `b90400${"61".repeat(1024)}`],
  [
    "list of 300 single bytes",
    Array.from({ length: 300 }, () => Uint8Array.of(1)),
    `f9012c${"01".repeat(300)}`,
  ],
  ["emptylist", [], "c0"],
  ["stringlist", [s("dog"), s("god"), s("cat")], "cc83646f6783676f6483636174"],
  ["multilist", [s("zw"), [int(4n)], int(1n)], "c6827a77c10401"],
  ["listsoflists", [[[], []], []], "c4c2c0c0c0"],
  ["listsoflists2", [[], [[]], [[], [[]]]], "c7c0c1c0c3c0c1c0"],
  ["bigint", int(1n << 256n), "a1010000000000000000000000000000000000000000000000000000000000000000"],
];

/**
 * ethereum/tests RLPTests/invalidRLPTest.json: [name, input, truncated]. Every one is refused by a
 * strict decoder (the devnet's); `ox` reads the non-canonical ones that are still one whole item, so
 * the client is held to the truncated and empty ones.
 */
const SEQUENCE =
  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f";
const INVALID_RLP: Array<[string, string, boolean]> = [
  ["bytesShouldBeSingleByte00", "8100", false],
  ["bytesShouldBeSingleByte7F", "817f", false],
  ["leadingZerosInLongLengthArray1", `b90040${SEQUENCE}`, false],
  ["nonOptimalLongLengthArray1", "b81000112233445566778899aabbccddeeff", false],
  ["nonOptimalLongLengthList2", "f803112233", false],
  ["emptyEncoding", "", true],
  ["lessThanShortLengthArray1", "81", true],
  ["lessThanShortLengthArray2", "a0000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e", true],
  ["lessThanShortLengthList1", "c5010203", true],
  ["lessThanLongLengthArray1", "ba010000aabbccddeeff", true],
];

const LEGACY_KEY = hexToBytes("46".repeat(32));
const LEGACY_TX: EvmTx = {
  type: 0,
  chainId: 1n,
  nonce: 9n,
  gasPrice: 20_000_000_000n,
  gasLimit: 21_000n,
  to: "0x3535353535353535353535353535353535353535",
  value: 10n ** 18n,
  data: new Uint8Array(0),
};
const LEGACY_SIGNING_DATA =
  "ec098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a764000080018080";
const LEGACY_SIGNING_HASH = "daf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53";
const LEGACY_RAW =
  "0xf86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a76400008025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83";

const EIP1559_KEY = hexToBytes("8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63");
const EIP1559_VECTORS = [
  {
    nonce: 819n,
    value: 43203529n,
    gasLimit: 35552n,
    maxPriorityFeePerGas: 75853n,
    maxFeePerGas: 121212n,
    signedTransactionRLP:
      "b87302f870821e8e8203338301284d8301d97c828ae094000000000000000000000000000000000000aaaa8402933bc980c080a0d067f2167008c59219652f91cbf8788dbca5f771f6e91e2b7657e85b78b472e0a01d305af9fe81fdba43f0dfcd400ed24dcace0a7e30d4e85701dcaaf484cd079e",
  },
  {
    nonce: 353n,
    value: 61901619n,
    gasLimit: 32593n,
    maxPriorityFeePerGas: 38850n,
    maxFeePerGas: 136295n,
    signedTransactionRLP:
      "b87202f86f821e8e8201618297c283021467827f5194000000000000000000000000000000000000aaaa8403b08b3380c001a004205678f13fc1d7b10feea6513dfa76e24418b6e08097d95c6f93a3b64e536da01d45ad61bfece43862de2cce7d2575a8c1d08c26c87f3cb5f26d7b0be54a91b2",
  },
  {
    nonce: 119n,
    value: 65456115n,
    gasLimit: 62341n,
    maxPriorityFeePerGas: 24721n,
    maxFeePerGas: 107729n,
    signedTransactionRLP:
      "b87002f86d821e8e778260918301a4d182f38594000000000000000000000000000000000000aaaa8403e6c7f380c001a0e38e239770801eb995498c821e55ac9c19ae09184bb27b34be105e02fe3b7615a067c64ca6bd6d9107e85fd581ab2e70a14b637eb36505bb40861ef9d6e800cab6",
  },
];

const MAIL = {
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "version", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ],
    Person: [
      { name: "name", type: "string" },
      { name: "wallet", type: "address" },
    ],
    Mail: [
      { name: "from", type: "Person" },
      { name: "to", type: "Person" },
      { name: "contents", type: "string" },
    ],
  },
  primaryType: "Mail",
  domain: {
    name: "Ether Mail",
    version: "1",
    chainId: 1,
    verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
  },
  message: {
    from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
    to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
    contents: "Hello, Bob!",
  },
};
const MAIL_SIGNATURE =
  "4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d" +
  "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b91562" +
  "1c";

/** An `r || s || v` signer over a raw key (RFC 6979, as the vectors' authors signed). */
function keySigner(secret: Uint8Array) {
  const publicKey = secp256k1.getPublicKey(secret, false);
  return {
    evmAddress: client.addressBytesToHex(keccak_256(publicKey.subarray(1)).subarray(12)),
    sign(bytes: Uint8Array) {
      const sig = secp256k1.sign(keccak_256(bytes), secret, { prehash: false, format: "recovered" });
      return Uint8Array.from([...sig.subarray(1), sig[0] as number]);
    },
  };
}

describe.each(IMPLEMENTATIONS)("known-answer vectors: $name", (impl) => {
  it.each(RLP_VECTORS)("RLP %s", (_name, value, expected) => {
    expect(bytesToHex(impl.rlpEncode(value))).toBe(expected);
    expect(impl.rlpDecode(hexToBytes(expected))).toEqual(value);
  });

  it.each(INVALID_RLP)("RLP refuses %s", (_name, input, truncated) => {
    if (!truncated && impl.name.startsWith("client")) return;
    expect(() => impl.rlpDecode(hexToBytes(input))).toThrow(InvalidArgumentError);
  });

  it("legacy: EIP-155's example, signing data, signing hash, raw bytes, hash and sender", () => {
    const signer = keySigner(LEGACY_KEY);
    expect(signer.evmAddress).toBe("0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F");
    expect(bytesToHex(impl.evmTxSigningPayload(LEGACY_TX))).toBe(LEGACY_SIGNING_DATA);
    expect(bytesToHex(keccak_256(impl.evmTxSigningPayload(LEGACY_TX)))).toBe(LEGACY_SIGNING_HASH);
    expect(impl.signEvmTx(LEGACY_TX, signer)).toBe(LEGACY_RAW);
    const decoded = impl.decodeSignedEvmTx(LEGACY_RAW);
    expect(decoded.tx).toEqual(LEGACY_TX);
    expect(decoded.from).toBe(signer.evmAddress);
    expect(decoded.hash).toBe(`0x${bytesToHex(keccak_256(hexToBytes(LEGACY_RAW.slice(2))))}`);
    expect(decoded.signature.r).toBe(
      18515461264373351373200002665853028612451056578545711640558177340181847433846n,
    );
    expect(decoded.signature.s).toBe(
      46948507304638947509940763649030358759909902576025900602547168820602576006531n,
    );
  });

  it.each(EIP1559_VECTORS)(
    "EIP-1559: ethereumjs vector nonce $nonce, raw bytes, hash and sender",
    (vector) => {
      const signer = keySigner(EIP1559_KEY);
      const tx: EvmTx = {
        type: 2,
        chainId: 7822n,
        nonce: vector.nonce,
        maxPriorityFeePerGas: vector.maxPriorityFeePerGas,
        maxFeePerGas: vector.maxFeePerGas,
        gasLimit: vector.gasLimit,
        to: "0x000000000000000000000000000000000000aaaa",
        value: vector.value,
        data: new Uint8Array(0),
      };
      // The vector is the typed transaction wrapped as an RLP string, as blocks carry it.
      const wrapped = impl.rlpDecode(hexToBytes(vector.signedTransactionRLP));
      if (!(wrapped instanceof Uint8Array)) throw new Error("the vector is an RLP string");
      const raw = `0x${bytesToHex(wrapped)}`;
      expect(bytesToHex(impl.rlpEncode(wrapped))).toBe(vector.signedTransactionRLP);
      expect(impl.signEvmTx(tx, signer)).toBe(raw);
      const decoded = impl.decodeSignedEvmTx(raw);
      expect(decoded.tx).toEqual({
        ...tx,
        to: client.addressBytesToHex(hexToBytes("000000000000000000000000000000000000aaaa")),
      });
      expect(decoded.from).toBe(signer.evmAddress);
      expect(decoded.hash).toBe(`0x${bytesToHex(keccak_256(wrapped))}`);
    },
  );

  it("EIP-712: the specification's Mail example, hashes and signature", () => {
    const hex = (bytes: Uint8Array) => bytesToHex(bytes);
    expect(hex(impl.hashType(MAIL.types, "Mail"))).toBe(
      "a0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2",
    );
    expect(hex(impl.hashStruct(MAIL.types, "EIP712Domain", MAIL.domain))).toBe(
      "f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f",
    );
    expect(hex(impl.hashStruct(MAIL.types, "Mail", MAIL.message))).toBe(
      "c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e",
    );
    expect(hex(impl.hashTypedData(MAIL))).toBe(
      "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2",
    );
    expect(impl.recoverAddress(impl.hashTypedData(MAIL), MAIL_SIGNATURE)).toBe(
      "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
    );
  });
});
