import { describe, expect, test } from "vitest";
import { bankSendMsg, placeOrderMsg } from "../tx.js";
import { LocalWallet } from "../wallets.js";
import { encodeAuthInfo, encodeSignDoc, encodeTxBody, encodeTxRaw, txHash } from "./encode.js";
import { type SignTxParams, signTx, txExtension } from "./sign.js";

// Pinned output of signTx for fixed inputs, as the implementation before the single-buffer envelope
// (one encoder per message, a copy per finish) produced it. Any change to these bytes is a change
// to what the chain receives.
const wallet = LocalWallet.fromPrivateKey("1f".repeat(32), { backend: "js" });
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const order = (clientId: number) =>
  placeOrderMsg({
    subaccount: { owner: wallet.address, number: 0 },
    clientId,
    clobPairId: 0,
    side: "BUY",
    quantums: 1_000_000n,
    subticks: 2_868_800_000n,
    kind: "short-term",
    goodTilBlock: 1_000_000,
  });

const cases: { name: string; params: SignTxParams; expected: Record<string, string> }[] = [
  {
    name: "one short-term order, no fee",
    params: {
      signer: wallet,
      messages: [order(7)],
      chainId: "perpx-local-1",
      accountNumber: 0n,
      sequence: 0n,
      fee: { amount: [], gasLimit: 1_000_000n },
    },
    expected: {
      txBytes: [
        "0a6b0a690a1c2f70657270782e636c6f622e76312e4d7367506c6163654f7264657212490a470a350a2e0a2c706572707831",
        "3736376c33646335373970666565677379306d6367726a7270753575386d34737568786a656a1507000000100118c0843d20",
        "80d4f9d70a28c0843d12560a4e0a460a1f2f636f736d6f732e63727970746f2e736563703235366b312e5075624b65791223",
        "0a2102505f234a81fe3af88625ebda259dbaec44c72b181e2f64735f8b8ec8d7cf737712040a020801120410c0843d1a407e",
        "7843b3930dc3be581434cc84815a83bb60d1c696db43047888d28bbe8cec872c9697221b0080dac99025bf5f8f8c28241baf",
        "85d26159e1c3cdc506bdbd6003",
      ].join(""),
      hash: "DEC375F98E9A201028666A7DB4B4D94F589B2FB5D44841C0BDA6EBD928B288CF",
      bodyBytes: [
        "0a690a1c2f70657270782e636c6f622e76312e4d7367506c6163654f7264657212490a470a350a2e0a2c7065727078313736",
        "376c33646335373970666565677379306d6367726a7270753575386d34737568786a656a1507000000100118c0843d2080d4",
        "f9d70a28c0843d",
      ].join(""),
      authInfoBytes: [
        "0a4e0a460a1f2f636f736d6f732e63727970746f2e736563703235366b312e5075624b657912230a2102505f234a81fe3af8",
        "8625ebda259dbaec44c72b181e2f64735f8b8ec8d7cf737712040a020801120410c0843d",
      ].join(""),
      signature: [
        "7e7843b3930dc3be581434cc84815a83bb60d1c696db43047888d28bbe8cec872c9697221b0080dac99025bf5f8f8c28241b",
        "af85d26159e1c3cdc506bdbd6003",
      ].join(""),
    },
  },
  {
    name: "three orders, a fee coin, a 150-byte memo and a timeout height (multi-byte lengths)",
    params: {
      signer: wallet,
      messages: [order(1), order(2), order(3)],
      chainId: "perpx-local-1",
      accountNumber: 12n,
      sequence: 345n,
      fee: { amount: [{ denom: "aperpx", amount: 5000n }], gasLimit: 250_000n },
      memo: "x".repeat(150),
      timeoutHeight: 99n,
    },
    expected: {
      txBytes: [
        "0adc030a690a1c2f70657270782e636c6f622e76312e4d7367506c6163654f7264657212490a470a350a2e0a2c7065727078",
        "313736376c33646335373970666565677379306d6367726a7270753575386d34737568786a656a1501000000100118c0843d",
        "2080d4f9d70a28c0843d0a690a1c2f70657270782e636c6f622e76312e4d7367506c6163654f7264657212490a470a350a2e",
        "0a2c7065727078313736376c33646335373970666565677379306d6367726a7270753575386d34737568786a656a15020000",
        "00100118c0843d2080d4f9d70a28c0843d0a690a1c2f70657270782e636c6f622e76312e4d7367506c6163654f7264657212",
        "490a470a350a2e0a2c7065727078313736376c33646335373970666565677379306d6367726a7270753575386d3473756878",
        "6a656a1503000000100118c0843d2080d4f9d70a28c0843d1296017878787878787878787878787878787878787878787878",
        "7878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878",
        "7878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878",
        "787878787878787878787878787878787878787878787878787878186312690a510a460a1f2f636f736d6f732e6372797074",
        "6f2e736563703235366b312e5075624b657912230a2102505f234a81fe3af88625ebda259dbaec44c72b181e2f64735f8b8e",
        "c8d7cf737712040a02080118d90212140a0e0a066170657270781204353030301090a10f1a401c6f9eb5f7f8dea83b85ea61",
        "53c3e1d5d0462129b836e8f3ba65f71a9e99aad646a43cb2d9ea266ec4401f98ce8524cb39197421b8faeffb3ab69603ae81",
        "38f8",
      ].join(""),
      hash: "2B81195298300186DB0A9969265E5077CA17BD79016B40EF63F23AEFE071BCFB",
      bodyBytes: [
        "0a690a1c2f70657270782e636c6f622e76312e4d7367506c6163654f7264657212490a470a350a2e0a2c7065727078313736",
        "376c33646335373970666565677379306d6367726a7270753575386d34737568786a656a1501000000100118c0843d2080d4",
        "f9d70a28c0843d0a690a1c2f70657270782e636c6f622e76312e4d7367506c6163654f7264657212490a470a350a2e0a2c70",
        "65727078313736376c33646335373970666565677379306d6367726a7270753575386d34737568786a656a15020000001001",
        "18c0843d2080d4f9d70a28c0843d0a690a1c2f70657270782e636c6f622e76312e4d7367506c6163654f7264657212490a47",
        "0a350a2e0a2c7065727078313736376c33646335373970666565677379306d6367726a7270753575386d34737568786a656a",
        "1503000000100118c0843d2080d4f9d70a28c0843d1296017878787878787878787878787878787878787878787878787878",
        "7878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878",
        "7878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878",
        "7878787878787878787878787878787878787878787878781863",
      ].join(""),
      authInfoBytes: [
        "0a510a460a1f2f636f736d6f732e63727970746f2e736563703235366b312e5075624b657912230a2102505f234a81fe3af8",
        "8625ebda259dbaec44c72b181e2f64735f8b8ec8d7cf737712040a02080118d90212140a0e0a066170657270781204353030",
        "301090a10f",
      ].join(""),
      signature: [
        "1c6f9eb5f7f8dea83b85ea6153c3e1d5d0462129b836e8f3ba65f71a9e99aad646a43cb2d9ea266ec4401f98ce8524cb3919",
        "7421b8faeffb3ab69603ae8138f8",
      ].join(""),
    },
  },
  {
    name: "a permissioned key's authenticator and a timestamp nonce",
    params: {
      signer: wallet,
      messages: [order(9)],
      chainId: "perpx-mainnet-1",
      accountNumber: 3n,
      sequence: 1_700_000_000_000n,
      fee: { amount: [], gasLimit: 0n },
      authenticators: [4n],
    },
    expected: {
      txBytes: [
        "0a96010a690a1c2f70657270782e636c6f622e76312e4d7367506c6163654f7264657212490a470a350a2e0a2c7065727078",
        "313736376c33646335373970666565677379306d6367726a7270753575386d34737568786a656a1509000000100118c0843d",
        "2080d4f9d70a28c0843dfa7f280a212f70657270782e6163636f756e74706c75732e76312e5478457874656e73696f6e1203",
        "0a010412590a550a460a1f2f636f736d6f732e63727970746f2e736563703235366b312e5075624b657912230a2102505f23",
        "4a81fe3af88625ebda259dbaec44c72b181e2f64735f8b8ec8d7cf737712040a0208011880d095ffbc3112001a40ac373697",
        "2e7d6d7cfcee97a164c63672c8048c759d4af61ad229ce3fba0c17c12ce0014c97513421e622c842a080c05f5f3491343b96",
        "4f106d798ac23482005d",
      ].join(""),
      hash: "1C2561E36F348C53ED04D63ACE16955DCB07FF8467CF1B73784B779CC5C4BCC4",
      bodyBytes: [
        "0a690a1c2f70657270782e636c6f622e76312e4d7367506c6163654f7264657212490a470a350a2e0a2c7065727078313736",
        "376c33646335373970666565677379306d6367726a7270753575386d34737568786a656a1509000000100118c0843d2080d4",
        "f9d70a28c0843dfa7f280a212f70657270782e6163636f756e74706c75732e76312e5478457874656e73696f6e12030a0104",
      ].join(""),
      authInfoBytes: [
        "0a550a460a1f2f636f736d6f732e63727970746f2e736563703235366b312e5075624b657912230a2102505f234a81fe3af8",
        "8625ebda259dbaec44c72b181e2f64735f8b8ec8d7cf737712040a0208011880d095ffbc311200",
      ].join(""),
      signature: [
        "ac3736972e7d6d7cfcee97a164c63672c8048c759d4af61ad229ce3fba0c17c12ce0014c97513421e622c842a080c05f5f34",
        "91343b964f106d798ac23482005d",
      ].join(""),
    },
  },
  {
    name: "an empty body",
    params: {
      signer: wallet,
      messages: [],
      chainId: "c",
      accountNumber: 0n,
      sequence: 0n,
      fee: { amount: [], gasLimit: 0n },
    },
    expected: {
      txBytes: [
        "12520a4e0a460a1f2f636f736d6f732e63727970746f2e736563703235366b312e5075624b657912230a2102505f234a81fe",
        "3af88625ebda259dbaec44c72b181e2f64735f8b8ec8d7cf737712040a02080112001a40221af7a24e50728a429556408d27",
        "60a640b126708da75f6825a0d86522cbcd225406a41b6d057d69df3510c70e80c5ad2ae3ad9ed279747e9b22766317aea8b1",
      ].join(""),
      hash: "33A8DEED4D608B029F6470A6A6E0E90F62FE11AF0960CAC49ABD71B819014468",
      bodyBytes: [].join(""),
      authInfoBytes: [
        "0a4e0a460a1f2f636f736d6f732e63727970746f2e736563703235366b312e5075624b657912230a2102505f234a81fe3af8",
        "8625ebda259dbaec44c72b181e2f64735f8b8ec8d7cf737712040a0208011200",
      ].join(""),
      signature: [
        "221af7a24e50728a429556408d2760a640b126708da75f6825a0d86522cbcd225406a41b6d057d69df3510c70e80c5ad2ae3",
        "ad9ed279747e9b22766317aea8b1",
      ].join(""),
    },
  },
];

describe("signTx", () => {
  for (const { name, params, expected } of cases) {
    test(`pinned bytes: ${name}`, async () => {
      const signed = await signTx(params);
      expect({
        txBytes: hex(signed.txBytes),
        hash: signed.hash,
        bodyBytes: hex(signed.bodyBytes),
        authInfoBytes: hex(signed.authInfoBytes),
        signature: hex(signed.signature),
      }).toEqual(expected);
    });
  }

  test("equals the envelope encoders composed one by one, with the native and the js backend", async () => {
    const send = bankSendMsg({
      from: wallet.address,
      to: wallet.address,
      amount: [{ denom: "aperpx", amount: 1n }],
    });
    for (const backend of ["js", "auto"] as const) {
      const signer = LocalWallet.fromPrivateKey("2a".repeat(32), { backend });
      const params: SignTxParams = {
        signer,
        messages: [send, order(5)],
        chainId: "perpx-local-1",
        accountNumber: 8n,
        sequence: 2n,
        fee: { amount: [{ denom: "aperpx", amount: 10n }], gasLimit: 200_000n },
        memo: "m",
        authenticators: [1n, 2n],
      };
      const bodyBytes = encodeTxBody({
        messages: params.messages,
        memo: "m",
        nonCriticalExtensionOptions: [txExtension([1n, 2n])],
      });
      const authInfoBytes = encodeAuthInfo({
        publicKey: signer.publicKey,
        keyType: signer.keyType,
        sequence: 2n,
        fee: params.fee,
      });
      const signDoc = encodeSignDoc({
        bodyBytes,
        authInfoBytes,
        chainId: "perpx-local-1",
        accountNumber: 8n,
      });
      const signature = signer.sign(signDoc);
      const txBytes = encodeTxRaw({ bodyBytes, authInfoBytes, signatures: [signature] });
      const signed = await signTx(params);
      expect(hex(signed.txBytes)).toBe(hex(txBytes));
      expect(hex(signed.bodyBytes)).toBe(hex(bodyBytes));
      expect(hex(signed.authInfoBytes)).toBe(hex(authInfoBytes));
      expect(hex(signed.signature)).toBe(hex(signature));
      expect(signed.hash).toBe(txHash(txBytes));
    }
  });
});

describe("signTx's result", () => {
  test("hash is an own, enumerable accessor shared by every result, read lazily and once", async () => {
    const params = (clientId: number): SignTxParams => ({
      signer: wallet,
      messages: [order(clientId)],
      chainId: "perpx-local-1",
      accountNumber: 0n,
      sequence: 0n,
      fee: { amount: [], gasLimit: 1_000_000n },
    });
    const [a, b] = await Promise.all([signTx(params(1)), signTx(params(2))]);
    expect(Object.keys(a)).toEqual(["txBytes", "hash", "bodyBytes", "authInfoBytes", "signature"]);
    const descriptor = Object.getOwnPropertyDescriptor(a, "hash");
    expect(descriptor).toMatchObject({ enumerable: true, configurable: true, set: undefined });
    // One getter for every result, not a closure per tx (a getter per object literal puts every
    // result on V8's slow path).
    expect(Object.getOwnPropertyDescriptor(b, "hash")?.get).toBe(descriptor?.get);
    expect(a.hash).toBe(txHash(a.txBytes));
    expect(b.hash).toBe(txHash(b.txBytes));
    expect(a.hash).not.toBe(b.hash);
    expect({ ...a }.hash).toBe(a.hash);
  });
});
