import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { AnySchema } from "@bufbuild/protobuf/wkt";
import { encodePubkey, makeAuthInfoBytes, makeSignBytes, Registry } from "@cosmjs/proto-signing";
import { defaultRegistryTypes } from "@cosmjs/stargate";
import { sha256 } from "@noble/hashes/sha2.js";
import { accountplus, cosmjsRegistryEntries, cosmosTx, cosmosTxSigning, ethSecp256k1 } from "@perpx/proto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toBase64, toHexString } from "../bytes.js";
import { verifyCosmos, verifyEthereum } from "../crypto/secp256k1.js";
import { placeOrderMsg } from "../messages/clob.js";
import { bankSendMsg } from "../messages/transfers.js";
import { EvmWallet } from "../wallet/evmWallet.js";
import { LocalWallet } from "../wallet/localWallet.js";
import {
  encodeAuthInfo,
  encodePublicKey,
  encodeSignDoc,
  encodeTxBody,
  encodeTxRaw,
  toAny,
  txHash,
} from "./encode.js";
import { signTx, txExtension } from "./sign.js";

const wallet = LocalWallet.fromPrivateKey("01".repeat(32));
const other = LocalWallet.fromPrivateKey("02".repeat(32));
// The adapter's entries satisfy cosmjs's GeneratedType structurally; its declared union is narrower.
const registry = new Registry([...defaultRegistryTypes, ...(cosmjsRegistryEntries() as never[])]);

describe("encoding matches cosmjs byte for byte", () => {
  it("TxBody of a bank send and of a perpx order", () => {
    const send = bankSendMsg({
      from: wallet.address,
      to: other.address,
      amount: [{ denom: "uusdc", amount: 5n }],
    });
    const order = placeOrderMsg({
      subaccount: { owner: wallet.address, number: 0 },
      clientId: 7,
      clobPairId: 1,
      side: "SELL",
      quantums: 1_000_000n,
      subticks: 2_000_000n,
      kind: "long-term",
      goodTilBlockTime: 1_800_000_000,
    });
    const ours = encodeTxBody({ messages: [send, order], memo: "m", timeoutHeight: 9n });
    const theirs = registry.encode({
      typeUrl: "/cosmos.tx.v1beta1.TxBody",
      value: {
        messages: [
          {
            typeUrl: send.typeUrl,
            value: {
              fromAddress: wallet.address,
              toAddress: other.address,
              amount: [{ denom: "uusdc", amount: "5" }],
            },
          },
          { typeUrl: order.typeUrl, value: order.value },
        ],
        memo: "m",
        timeoutHeight: 9n,
      },
    });
    expect(toHexString(ours)).toBe(toHexString(theirs));
  });

  it("AuthInfo and SignDoc", () => {
    const ours = encodeAuthInfo({
      publicKey: wallet.publicKey,
      keyType: "secp256k1",
      sequence: 42n,
      fee: { amount: [{ denom: "uusdc", amount: 5000n }], gasLimit: 200_000n },
    });
    const pubkey = encodePubkey({ type: "tendermint/PubKeySecp256k1", value: toBase64(wallet.publicKey) });
    const theirs = makeAuthInfoBytes(
      [{ pubkey, sequence: 42n }],
      [{ denom: "uusdc", amount: "5000" }],
      200_000,
      undefined,
      undefined,
    );
    expect(toHexString(ours)).toBe(toHexString(theirs));
    const doc = {
      bodyBytes: new Uint8Array([1, 2]),
      authInfoBytes: ours,
      chainId: "perpx-local-1",
      accountNumber: 3n,
    };
    expect(toHexString(encodeSignDoc(doc))).toBe(toHexString(makeSignBytes(doc)));
  });

  it("an eth_secp256k1 public key", () => {
    const evm = EvmWallet.fromPrivateKey("03".repeat(32));
    const any = encodePublicKey(evm.publicKey, "eth_secp256k1");
    expect(any.typeUrl).toBe("/cosmos.evm.crypto.v1.ethsecp256k1.PubKey");
    expect(fromBinary(ethSecp256k1.PubKeySchema, any.value).key).toEqual(evm.publicKey);
  });
});

describe("signTx", () => {
  const send = bankSendMsg({
    from: wallet.address,
    to: other.address,
    amount: [{ denom: "uusdc", amount: 1n }],
  });
  const fee = { amount: [], gasLimit: 1_000_000n };

  it("signs SIGN_MODE_DIRECT over SHA-256 of the SignDoc; the hash is SHA-256 of TxRaw", async () => {
    const signed = await signTx({
      signer: wallet,
      messages: [send],
      chainId: "c",
      accountNumber: 5n,
      sequence: 6n,
      fee,
    });
    const raw = fromBinary(cosmosTx.TxRawSchema, signed.txBytes);
    expect(raw.signatures).toHaveLength(1);
    const signBytes = encodeSignDoc({
      bodyBytes: raw.bodyBytes,
      authInfoBytes: raw.authInfoBytes,
      chainId: "c",
      accountNumber: 5n,
    });
    expect(verifyCosmos(raw.signatures[0]!, signBytes, wallet.publicKey)).toBe(true);
    expect(signed.hash).toBe(txHash(signed.txBytes));
    expect(signed.hash).toMatch(/^[0-9A-F]{64}$/);
    const auth = fromBinary(cosmosTx.AuthInfoSchema, raw.authInfoBytes);
    expect(auth.signerInfos[0]?.sequence).toBe(6n);
    expect(auth.signerInfos[0]?.modeInfo?.sum).toMatchObject({
      case: "single",
      value: { mode: cosmosTxSigning.SignMode.DIRECT },
    });
    expect(auth.fee?.amount).toEqual([]);
  });

  it("EVM wallets sign over Keccak-256", async () => {
    const evm = EvmWallet.fromPrivateKey("04".repeat(32));
    const signed = await signTx({
      signer: evm,
      messages: [send],
      chainId: "c",
      accountNumber: 1n,
      sequence: 0n,
      fee,
    });
    const raw = fromBinary(cosmosTx.TxRawSchema, signed.txBytes);
    const signBytes = encodeSignDoc({
      bodyBytes: raw.bodyBytes,
      authInfoBytes: raw.authInfoBytes,
      chainId: "c",
      accountNumber: 1n,
    });
    expect(verifyEthereum(raw.signatures[0]!, signBytes, evm.publicKey)).toBe(true);
    expect(verifyCosmos(raw.signatures[0]!, signBytes, evm.publicKey)).toBe(false);
  });

  it("puts the TxExtension of a permissioned key in the non-critical extension options (f2047)", async () => {
    const tradingKey = LocalWallet.fromPrivateKey("05".repeat(32));
    const signed = await signTx({
      signer: tradingKey,
      messages: [send, send],
      chainId: "c",
      accountNumber: 9n,
      sequence: 11n,
      fee,
      authenticators: [3n, 3n],
    });
    const raw = fromBinary(cosmosTx.TxRawSchema, signed.txBytes);
    const body = fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes);
    expect(body.extensionOptions).toEqual([]);
    expect(body.nonCriticalExtensionOptions).toHaveLength(1);
    expect(body.nonCriticalExtensionOptions[0]?.typeUrl).toBe("/perpx.accountplus.v1.TxExtension");
    expect(
      fromBinary(accountplus.TxExtensionSchema, body.nonCriticalExtensionOptions[0]!.value)
        .selectedAuthenticators,
    ).toEqual([3n, 3n]);
    // Field 2047, wire type 2: tag bytes 0xfa 0x7f.
    expect(toHexString(raw.bodyBytes)).toContain("fa7f");
    const auth = fromBinary(cosmosTx.AuthInfoSchema, raw.authInfoBytes);
    expect(auth.signerInfos[0]?.sequence).toBe(11n);
    const signBytes = encodeSignDoc({
      bodyBytes: raw.bodyBytes,
      authInfoBytes: raw.authInfoBytes,
      chainId: "c",
      accountNumber: 9n,
    });
    expect(verifyCosmos(raw.signatures[0]!, signBytes, tradingKey.publicKey)).toBe(true);
    expect(txExtension([1n]).typeUrl).toBe("/perpx.accountplus.v1.TxExtension");
  });

  it("round-trips any amount, memo and sequence (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n, max: (1n << 128n) - 1n }),
        fc.string({ maxLength: 64 }),
        fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
        async (amount, memo, sequence) => {
          const message = bankSendMsg({
            from: wallet.address,
            to: other.address,
            amount: [{ denom: "uusdc", amount }],
          });
          const signed = await signTx({
            signer: wallet,
            messages: [message],
            chainId: "c",
            accountNumber: 0n,
            sequence,
            fee,
            memo,
          });
          const raw = fromBinary(cosmosTx.TxRawSchema, signed.txBytes);
          const body = fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes);
          const decoded = registry.decode(body.messages[0]!) as { amount: { amount: string }[] };
          expect(decoded.amount[0]?.amount).toBe(amount.toString());
          expect(body.memo).toBe(memo);
          expect(fromBinary(cosmosTx.AuthInfoSchema, raw.authInfoBytes).signerInfos[0]?.sequence).toBe(
            sequence,
          );
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("the hand-written envelope is byte-identical to protobuf-es (property)", () => {
  const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
  const bytes = fc.uint8Array({ maxLength: 300 });
  const text = fc.string({ unit: "grapheme", maxLength: 160 });
  const any = fc.record({ typeUrl: text, value: bytes });

  it("TxBody, AuthInfo, SignDoc and TxRaw", () => {
    fc.assert(
      fc.property(
        fc.record({
          orders: fc.array(fc.integer({ min: 0, max: 0xffff_ffff }), { maxLength: 3 }),
          memo: text,
          timeoutHeight: u64,
          extensions: fc.array(any, { maxLength: 2 }),
          keyType: fc.constantFrom("secp256k1" as const, "eth_secp256k1" as const),
          sequence: u64,
          signMode: fc.constantFrom(0, 1, 127, 128, 191).map((mode) => mode as cosmosTxSigning.SignMode),
          coins: fc.array(fc.record({ denom: text, amount: u64 }), { maxLength: 3 }),
          gasLimit: u64,
          payer: text,
          granter: text,
          chainId: text,
          accountNumber: u64,
          body: bytes,
          signatures: fc.array(bytes, { maxLength: 3 }),
        }),
        (input) => {
          const messages = input.orders.map((clientId) =>
            placeOrderMsg({
              subaccount: { owner: wallet.address, number: clientId % 128 },
              clientId,
              clobPairId: clientId % 7,
              side: clientId % 2 ? "BUY" : "SELL",
              quantums: BigInt(clientId) + 1n,
              subticks: BigInt(clientId) * 1_000_000n + 1n,
              kind: "long-term",
              goodTilBlockTime: (clientId % 1_000_000) + 1,
            }),
          );
          const ours = encodeTxBody({
            messages,
            memo: input.memo,
            timeoutHeight: input.timeoutHeight,
            nonCriticalExtensionOptions: input.extensions.map((e) => create(AnySchema, e)),
          });
          const theirs = toBinary(
            cosmosTx.TxBodySchema,
            create(cosmosTx.TxBodySchema, {
              messages: messages.map(toAny),
              memo: input.memo,
              timeoutHeight: input.timeoutHeight,
              nonCriticalExtensionOptions: input.extensions.map((e) => create(AnySchema, e)),
            }),
          );
          expect(toHexString(ours)).toBe(toHexString(theirs));

          const fee = {
            amount: input.coins,
            gasLimit: input.gasLimit,
            payer: input.payer,
            granter: input.granter,
          };
          const publicKey = input.keyType === "secp256k1" ? wallet.publicKey : new Uint8Array(33).fill(2);
          const authInfo = encodeAuthInfo({
            publicKey,
            keyType: input.keyType,
            sequence: input.sequence,
            fee,
            signMode: input.signMode,
          });
          const expectedAuthInfo = toBinary(
            cosmosTx.AuthInfoSchema,
            create(cosmosTx.AuthInfoSchema, {
              signerInfos: [
                {
                  publicKey: encodePublicKey(publicKey, input.keyType),
                  modeInfo: { sum: { case: "single", value: { mode: input.signMode } } },
                  sequence: input.sequence,
                },
              ],
              fee: {
                amount: input.coins.map((c) => ({ denom: c.denom, amount: String(c.amount) })),
                gasLimit: input.gasLimit,
                payer: input.payer,
                granter: input.granter,
              },
            }),
          );
          expect(toHexString(authInfo)).toBe(toHexString(expectedAuthInfo));

          const doc = {
            bodyBytes: input.body,
            authInfoBytes: authInfo,
            chainId: input.chainId,
            accountNumber: input.accountNumber,
          };
          expect(toHexString(encodeSignDoc(doc))).toBe(
            toHexString(toBinary(cosmosTx.SignDocSchema, create(cosmosTx.SignDocSchema, doc))),
          );
          const raw = { bodyBytes: input.body, authInfoBytes: authInfo, signatures: input.signatures };
          expect(toHexString(encodeTxRaw(raw))).toBe(
            toHexString(
              toBinary(
                cosmosTx.TxRawSchema,
                create(cosmosTx.TxRawSchema, { ...raw, signatures: [...raw.signatures] }),
              ),
            ),
          );
          expect(txHash(raw.bodyBytes)).toBe(toHexString(sha256(raw.bodyBytes)).toUpperCase());
        },
      ),
      { numRuns: 300 },
    );
  });

  it("long fields (lengths over 127 bytes) and out-of-range uint64", () => {
    const memo = "x".repeat(20_000);
    const ours = encodeTxBody({ messages: [], memo });
    expect(fromBinary(cosmosTx.TxBodySchema, ours).memo).toBe(memo);
    expect(() =>
      encodeAuthInfo({
        publicKey: wallet.publicKey,
        keyType: "secp256k1",
        sequence: 1n << 64n,
        fee: { amount: [], gasLimit: 0n },
      }),
    ).toThrow(/sequence/);
  });
});
