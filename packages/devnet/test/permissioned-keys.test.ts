/**
 * Permissioned keys against a running devnet: real txs built here with
 * `@perpx/proto` and signed with `@noble/curves` (cosmos keys from cosmjs HD wallets, an EVM key
 * from m/44'/60'), sent through CometBFT RPC.
 *
 * The real clob and sending modules run the messages: what the trading key may do must succeed
 * (code 0) and change the book (StatefulOrder, batch-cancel responses); what it may not is refused
 * by the authenticator with nothing changed.
 */
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { type Any, AnySchema } from "@bufbuild/protobuf/wkt";
import { Bip39, EnglishMnemonic, Slip10, Slip10Curve, stringToPath } from "@cosmjs/crypto";
import { StargateClient } from "@cosmjs/stargate";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { approveAgentTypedData, toBech32 } from "@perpx/core";
import { hashTypedData } from "@perpx/core/evm";
import {
  accountplus,
  clob,
  cosmosAbci,
  cosmosBank,
  cosmosSecp256k1,
  cosmosTx,
  cosmosTxSigning,
  sending,
} from "@perpx/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BATCH_CANCEL_URL,
  CANCEL_ORDER_URL,
  encodeAuthenticator,
  PLACE_ORDER_URL,
  tradingKeyAuthenticator,
} from "../src/app/modules/accountplus/authenticators.js";
import { type Devnet, startDevnet } from "../src/index.js";

const FEE = { amount: [{ denom: "uusdc", amount: "5000" }], gasLimit: 200_000n };
const utf8 = (text: string) => new TextEncoder().encode(text);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

// ------------------------------------------------------------------ keys, txs, RPC

interface Key {
  secret: Uint8Array;
  publicKey: Uint8Array;
}

async function cosmosKey(mnemonic: string, path = "m/44'/118'/0'/0/0"): Promise<Key> {
  const seed = await Bip39.mnemonicToSeed(new EnglishMnemonic(mnemonic));
  return keyFromSecret(Slip10.derivePath(Slip10Curve.Secp256k1, seed, stringToPath(path)).privkey);
}

function keyFromSecret(secret: Uint8Array): Key {
  return { secret, publicKey: secp256k1.getPublicKey(secret, true) };
}

const packAny = <D extends DescMessage>(schema: D, init: MessageShape<D> | Record<string, unknown>): Any =>
  create(AnySchema, {
    typeUrl: `/${schema.typeName}`,
    value: toBinary(schema, create(schema, init as never)),
  });

interface TxOptions {
  messages: Any[];
  /** Key in signer_infos[0] and signing key. */
  key: Key;
  accountNumber: bigint;
  sequence: bigint;
  selected?: bigint[];
  criticalExtension?: boolean;
  /** "cosmos": sha256 ECDSA (default); "eth": keccak ECDSA r||s||v. */
  scheme?: "cosmos" | "eth";
}

let chainId = "";

function buildTx(options: TxOptions): Uint8Array {
  const extension =
    options.selected === undefined
      ? []
      : [packAny(accountplus.TxExtensionSchema, { selectedAuthenticators: options.selected })];
  const bodyBytes = toBinary(
    cosmosTx.TxBodySchema,
    create(cosmosTx.TxBodySchema, {
      messages: options.messages,
      nonCriticalExtensionOptions: options.criticalExtension ? [] : extension,
      extensionOptions: options.criticalExtension ? extension : [],
    }),
  );
  const authInfoBytes = toBinary(
    cosmosTx.AuthInfoSchema,
    create(cosmosTx.AuthInfoSchema, {
      signerInfos: [
        {
          publicKey: packAny(cosmosSecp256k1.PubKeySchema, { key: options.key.publicKey }),
          modeInfo: { sum: { case: "single", value: { mode: cosmosTxSigning.SignMode.DIRECT } } },
          sequence: options.sequence,
        },
      ],
      fee: FEE,
    }),
  );
  const signDoc = toBinary(
    cosmosTx.SignDocSchema,
    create(cosmosTx.SignDocSchema, {
      bodyBytes,
      authInfoBytes,
      chainId,
      accountNumber: options.accountNumber,
    }),
  );
  let signature: Uint8Array;
  if (options.scheme === "eth") {
    const recovered = secp256k1.sign(keccak_256(signDoc), options.key.secret, {
      prehash: false,
      format: "recovered",
    });
    signature = new Uint8Array(65);
    signature.set(recovered.subarray(1));
    signature[64] = (recovered[0] as number) + 27;
  } else {
    signature = secp256k1.sign(signDoc, options.key.secret);
  }
  return toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] }),
  );
}

let devnet: Devnet;
let reader: StargateClient;

async function rpc(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(devnet.endpoints.nodeRpc, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const json = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (json.result === undefined) throw new Error(`${method}: ${JSON.stringify(json.error)}`);
  return json.result;
}

interface Outcome {
  code: number;
  codespace: string;
  log: string;
  /**
   * Where it ended: CheckTx refused it, it ran in a block, or CheckTx accepted a short-term order
   * tx, which lives in the memclob and never enters a block (its answer is final).
   */
  stage: "check" | "deliver" | "memclob";
  /** The delivered (or, in the memclob, checked) tx's result data (base64 `TxMsgData`). */
  data?: string;
}

/** Broadcasts, mines a block when CheckTx accepted, and returns the outcome. */
async function send(tx: Uint8Array): Promise<Outcome> {
  const check = (await rpc("broadcast_tx_sync", { tx: b64(tx) })) as {
    code: number;
    codespace: string;
    log: string;
    hash: string;
    data: string;
  };
  if (check.code !== 0)
    return { code: check.code, codespace: check.codespace, log: check.log, stage: "check" };
  devnet.mine(1);
  const hash = Buffer.from(check.hash, "hex").toString("base64");
  const found = (await rpc("tx", { hash }).catch((error: Error) => {
    if (!/not found/.test(error.message)) throw error;
    return undefined;
  })) as { tx_result: { code: number; codespace: string; log: string; data?: string } } | undefined;
  if (found === undefined)
    return { code: 0, codespace: "", log: check.log, data: check.data, stage: "memclob" };
  return { ...found.tx_result, stage: "deliver" };
}

async function query<Res extends DescMessage>(
  path: string,
  request: Uint8Array,
  response: Res,
): Promise<MessageShape<Res>> {
  const result = (await rpc("abci_query", { path, data: Buffer.from(request).toString("hex") })) as {
    response: { code: number; value: string | null; log: string };
  };
  if (result.response.code !== 0) throw new Error(result.response.log);
  return fromBinary(response, Buffer.from(result.response.value ?? "", "base64"));
}

async function authenticators(address: string): Promise<accountplus.AccountAuthenticator[]> {
  const request = toBinary(
    accountplus.GetAuthenticatorsRequestSchema,
    create(accountplus.GetAuthenticatorsRequestSchema, { account: address }),
  );
  return (
    await query(
      "/perpx.accountplus.v1.Query/GetAuthenticators",
      request,
      accountplus.GetAuthenticatorsResponseSchema,
    )
  ).accountAuthenticators;
}

async function accountOf(address: string): Promise<{ accountNumber: bigint; sequence: bigint }> {
  const account = await reader.getAccount(address);
  if (account === null) throw new Error(`no account ${address}`);
  return { accountNumber: BigInt(account.accountNumber), sequence: BigInt(account.sequence) };
}

const usdc = async (address: string) => BigInt((await reader.getBalance(address, "uusdc")).amount);

async function control(
  path: string,
  body: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${devnet.endpoints.devnetControl}/devnet${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** The order as the StatefulOrder query has it (undefined once it left the book). */
async function statefulOrder(owner: string, clientId: number): Promise<clob.Order | undefined> {
  const request = toBinary(
    clob.QueryStatefulOrderRequestSchema,
    create(clob.QueryStatefulOrderRequestSchema, {
      orderId: { subaccountId: { owner, number: 0 }, clientId, orderFlags: 64, clobPairId: 0 },
    }),
  );
  try {
    const found = await query(
      "/perpx.clob.v1.Query/StatefulOrder",
      request,
      clob.QueryStatefulOrderResponseSchema,
    );
    return found.orderPlacement?.order;
  } catch (error) {
    if (/not found/.test(String(error))) return undefined;
    throw error;
  }
}

/** The `MsgBatchCancelResponse` of a delivered batch cancel. */
function batchCancelResponse(outcome: Outcome): clob.MsgBatchCancelResponse {
  const data = fromBinary(cosmosAbci.TxMsgDataSchema, Buffer.from(outcome.data ?? "", "base64"));
  return fromBinary(clob.MsgBatchCancelResponseSchema, data.msgResponses[0]?.value ?? new Uint8Array());
}

// ------------------------------------------------------------------ messages

// Orders are valid for the chain (windows, grid, margin once the subaccount is funded): a refusal
// below is the authenticator's, an acceptance is the clob's. Buys at $1 rest without crossing.
let nextClientId = 100;
const latestHeight = () => Number(devnet.app.latestBlock().height);
const blockSeconds = () => Math.floor(devnet.app.latestBlock().time.getTime() / 1000);
const placeOrder = (owner: string, number: number, clientId = nextClientId++) =>
  packAny(clob.MsgPlaceOrderSchema, {
    order: {
      orderId: { subaccountId: { owner, number }, clientId, orderFlags: 0, clobPairId: 0 },
      side: 1,
      quantums: 1_000_000n,
      subticks: 100_000n,
      goodTilOneof: { case: "goodTilBlock", value: latestHeight() + 5 },
    },
  });
const placeLongTerm = (owner: string, clientId: number, goodTilBlockTime: number) =>
  packAny(clob.MsgPlaceOrderSchema, {
    order: {
      orderId: { subaccountId: { owner, number: 0 }, clientId, orderFlags: 64, clobPairId: 0 },
      side: 1,
      quantums: 1_000_000n,
      subticks: 100_000n,
      goodTilOneof: { case: "goodTilBlockTime", value: goodTilBlockTime },
    },
  });
const cancelLongTerm = (owner: string, clientId: number, goodTilBlockTime: number) =>
  packAny(clob.MsgCancelOrderSchema, {
    orderId: { subaccountId: { owner, number: 0 }, clientId, orderFlags: 64, clobPairId: 0 },
    goodTilOneof: { case: "goodTilBlockTime", value: goodTilBlockTime },
  });
const cancelOrder = (owner: string, number: number, clientId = 7, ahead = 5) =>
  packAny(clob.MsgCancelOrderSchema, {
    orderId: { subaccountId: { owner, number }, clientId, orderFlags: 0, clobPairId: 0 },
    goodTilOneof: { case: "goodTilBlock", value: latestHeight() + ahead },
  });
const batchCancel = (owner: string, number: number, clientIds: number[] = [7], ahead = 5) =>
  packAny(clob.MsgBatchCancelSchema, {
    subaccountId: { owner, number },
    shortTermCancels: [{ clobPairId: 0, clientIds }],
    goodTilBlock: latestHeight() + ahead,
  });
const bankSend = (from: string, to: string) =>
  packAny(cosmosBank.MsgSendSchema, {
    fromAddress: from,
    toAddress: to,
    amount: [{ denom: "uusdc", amount: "1000" }],
  });
const withdraw = (owner: string) =>
  packAny(sending.MsgWithdrawFromSubaccountSchema, {
    sender: { owner, number: 0 },
    recipient: owner,
    assetId: 0,
    quantums: 1_000n,
  });
const transfer = (owner: string, to: string) =>
  packAny(sending.MsgCreateTransferSchema, {
    transfer: {
      sender: { owner, number: 0 },
      recipient: { owner: to, number: 0 },
      assetId: 0,
      amount: 1_000n,
    },
  });

beforeAll(async () => {
  devnet = await startDevnet({
    ports: "free",
    blockTimeMs: 0,
  });
  chainId = devnet.chainId;
  reader = await StargateClient.connect(devnet.endpoints.nodeRpc);
});

afterAll(async () => {
  reader?.disconnect();
  await devnet?.stop();
});

describe("permissioned keys on a cosmos account", () => {
  const agent = keyFromSecret(new Uint8Array(32).fill(0x42));
  let owner: string;
  let ownerKey: Key;
  let other: string;
  let tradingId: bigint;

  /** A tx of the owner's messages signed by the trading key with a TxExtension. */
  const asAgent = async (messages: Any[], selected?: bigint[], extra: Partial<TxOptions> = {}) => {
    const account = await accountOf(owner);
    return send(
      buildTx({
        messages,
        key: agent,
        ...account,
        selected: selected ?? messages.map(() => tradingId),
        ...extra,
      }),
    );
  };
  const asOwner = async (messages: Any[]) =>
    send(buildTx({ messages, key: ownerKey, ...(await accountOf(owner)) }));

  beforeAll(async () => {
    owner = devnet.accounts[0]?.address as string;
    ownerKey = await cosmosKey(devnet.accounts[0]?.mnemonic as string);
    other = devnet.accounts[1]?.address as string;
    devnet.app.control.fundSubaccount(owner, 0, 100_000_000_000n);
  });

  it("adds the trading key (one MessageFilter with comma-separated URLs) and lists it", async () => {
    const config = encodeAuthenticator({
      type: "AllOf",
      children: [
        { type: "SignatureVerification", publicKey: agent.publicKey },
        { type: "MessageFilter", typeUrls: [PLACE_ORDER_URL, CANCEL_ORDER_URL, BATCH_CANCEL_URL] },
        { type: "SubaccountFilter", numbers: [0] },
      ],
    });
    const before = await authenticators(owner);
    const outcome = await asOwner([
      packAny(accountplus.MsgAddAuthenticatorSchema, {
        sender: owner,
        authenticatorType: "AllOf",
        data: config.config,
      }),
    ]);
    expect(outcome).toMatchObject({ code: 0, stage: "deliver" });
    const after = await authenticators(owner);
    expect(after).toHaveLength(before.length + 1);
    const added = after.at(-1) as accountplus.AccountAuthenticator;
    expect(added.type).toBe("AllOf");
    expect(Buffer.from(added.config).toString("utf8")).toBe(Buffer.from(config.config).toString("utf8"));
    tradingId = added.id;
    const one = await query(
      "/perpx.accountplus.v1.Query/GetAuthenticator",
      toBinary(
        accountplus.GetAuthenticatorRequestSchema,
        create(accountplus.GetAuthenticatorRequestSchema, { account: owner, authenticatorId: tradingId }),
      ),
      accountplus.GetAuthenticatorResponseSchema,
    );
    expect(one.accountAuthenticator?.id).toBe(tradingId);
    const params = await query(
      "/perpx.accountplus.v1.Query/Params",
      new Uint8Array(),
      accountplus.QueryParamsResponseSchema,
    );
    expect(params.params?.isSmartAccountActive).toBe(true);
  });

  it("refuses unsafe trees, malformed configs and data over 1024 bytes on add", async () => {
    const add = (authenticatorType: string, data: Uint8Array) =>
      asOwner([packAny(accountplus.MsgAddAuthenticatorSchema, { sender: owner, authenticatorType, data })]);
    // Unsafe trees and bad configs are the real chain's plain errors: codespace undefined, code 1.
    expect(await add("MessageFilter", utf8(PLACE_ORDER_URL))).toMatchObject({
      codespace: "undefined",
      code: 1,
      stage: "deliver",
    });
    const unsafe = encodeAuthenticator({
      type: "AnyOf",
      children: [
        { type: "SignatureVerification", publicKey: agent.publicKey },
        { type: "SubaccountFilter", numbers: [0] },
      ],
    });
    const refused = await add(unsafe.type, unsafe.config);
    expect(refused).toMatchObject({ codespace: "undefined", code: 1 });
    expect(refused.log).toMatch(
      /: unsafe: authenticator tree does not require signature verification all possible paths, type = AnyOf/,
    );
    expect(await add("SignatureVerification", new Uint8Array(1025))).toMatchObject({
      codespace: "dydxaccountplus",
      code: 3,
    });
    expect(await add("SubaccountFilter", utf8("zero"))).toMatchObject({ codespace: "undefined", code: 1 });
    expect(await add("SignatureVerification", agent.publicKey.subarray(1))).toMatchObject({
      codespace: "undefined",
      code: 1,
    });
    expect(await add("Passkey", new Uint8Array(0))).toMatchObject({
      codespace: "undefined",
      code: 1,
      log: "failed to execute message; message index: 0: authenticator type Passkey is not registered",
    });
  });

  it("the trading key places, cancels and batch-cancels on subaccount 0: code 0, and the book changes", async () => {
    // A long-term order: the StatefulOrder query sees it arrive and leave.
    const gtbt = blockSeconds() + 3_600;
    const longId = nextClientId++;
    const placed = await asAgent([placeLongTerm(owner, longId, gtbt)]);
    expect(placed, placed.log).toMatchObject({ code: 0, stage: "deliver" });
    expect((await statefulOrder(owner, longId))?.orderId?.clientId).toBe(longId);
    const cancelled = await asAgent([cancelLongTerm(owner, longId, gtbt)]);
    expect(cancelled, cancelled.log).toMatchObject({ code: 0, stage: "deliver" });
    expect(await statefulOrder(owner, longId)).toBeUndefined();
    // Short-term orders (memclob only): one placed and cancelled (a second cancel with a lower
    // good-til-block meets the tombstone: clob 9), two placed and batch-cancelled with an unknown id
    // (all succeed); cancelling them again below their tombstones cancels nothing: clob 46.
    const single = nextClientId++;
    expect(await asAgent([placeOrder(owner, 0, single)])).toMatchObject({ code: 0, stage: "memclob" });
    expect(await asAgent([cancelOrder(owner, 0, single)])).toMatchObject({ code: 0, stage: "memclob" });
    expect(await asAgent([cancelOrder(owner, 0, single, 3)])).toMatchObject({ codespace: "clob", code: 9 });
    const ids = [nextClientId++, nextClientId++];
    for (const id of ids) {
      const outcome = await asAgent([placeOrder(owner, 0, id)]);
      expect(outcome, outcome.log).toMatchObject({ code: 0, stage: "memclob" });
    }
    const batch = await asAgent([batchCancel(owner, 0, [...ids, 999_999])]);
    expect(batch, batch.log).toMatchObject({ code: 0, stage: "memclob" });
    const response = batchCancelResponse(batch);
    expect(response.shortTermSucceeded[0]?.clientIds).toEqual([...ids, 999_999]);
    expect(response.shortTermFailed).toEqual([]);
    expect(await asAgent([batchCancel(owner, 0, ids, 3)])).toMatchObject({ codespace: "clob", code: 46 });
  });

  it("the trading key cannot withdraw, transfer, bank-send or trade subaccount 1; nothing changes", async () => {
    const balance = await usdc(owner);
    const otherBalance = await usdc(other);
    const account = await accountOf(owner);
    const cases: Array<[Any, RegExp]> = [
      [bankSend(owner, other), /message types do not match/],
      [withdraw(owner), /message types do not match/],
      [transfer(owner, other), /message types do not match/],
      [placeOrder(owner, 1), /subaccount number 1 not in allowed list 0/],
      [cancelOrder(owner, 1), /subaccount number 1/],
      [batchCancel(owner, 1), /subaccount number 1/],
    ];
    for (const [message, reason] of cases) {
      const outcome = await asAgent([message]);
      expect(outcome, message.typeUrl).toMatchObject({
        codespace: "dydxaccountplus",
        code: 104,
        stage: "check",
      });
      expect(outcome.log).toMatch(reason);
    }
    // Mixed: an allowed message does not carry a forbidden one.
    const mixed = await asAgent([placeOrder(owner, 0), bankSend(owner, other)]);
    expect(mixed).toMatchObject({ codespace: "dydxaccountplus", code: 104 });
    expect(await usdc(owner)).toBe(balance);
    expect(await usdc(other)).toBe(otherBalance);
    expect(await accountOf(owner)).toEqual(account);
  });

  it("checks the extension: id per message, known id, non-critical only, and the signature", async () => {
    const order = placeOrder(owner, 0);
    expect(await asAgent([order], [tradingId, tradingId])).toMatchObject({ codespace: "sdk", code: 18 });
    expect(await asAgent([order], [9_999n])).toMatchObject({ codespace: "dydxaccountplus", code: 1 });
    expect(await asAgent([order], undefined, { criticalExtension: true })).toMatchObject({
      codespace: "sdk",
      code: 31,
    });
    // Without an extension the classic path applies: the agent's key is not the owner's.
    expect(await asAgent([bankSend(owner, other)], [])).toMatchObject({ codespace: "sdk", code: 8 });
    // The owner's key is not the authenticator's key.
    const wrongKey = await send(
      buildTx({ messages: [order], key: ownerKey, ...(await accountOf(owner)), selected: [tradingId] }),
    );
    expect(wrongKey).toMatchObject({ codespace: "dydxaccountplus", code: 104 });
    expect(wrongKey.log).toMatch(/signature verification failed/);
    // A wrong sequence is still a wrong sequence (a stateful order: short-term orders carry none).
    const account = await accountOf(owner);
    const longTerm = packAny(clob.MsgPlaceOrderSchema, {
      order: {
        orderId: { subaccountId: { owner, number: 0 }, clientId: 99, orderFlags: 64, clobPairId: 0 },
        side: 1,
        quantums: 1_000_000n,
        subticks: 100_000n,
        goodTilOneof: { case: "goodTilBlockTime", value: Math.floor(Date.now() / 1000) + 3600 },
      },
    });
    const stale = await send(
      buildTx({
        messages: [longTerm],
        key: agent,
        ...account,
        sequence: account.sequence + 5n,
        selected: [tradingId],
      }),
    );
    expect(stale).toMatchObject({ codespace: "sdk", code: 32 });
  });

  it("accepts a timestamp nonce from the trading key and records it in AccountState", async () => {
    const block = devnet.app.latestBlock();
    const nonce = BigInt(block.time.getTime()) + 1n;
    const { accountNumber, sequence } = await accountOf(owner);
    const clientId = nextClientId++;
    const outcome = await send(
      buildTx({
        messages: [placeLongTerm(owner, clientId, blockSeconds() + 3_600)],
        key: agent,
        accountNumber,
        sequence: nonce,
        selected: [tradingId],
      }),
    );
    expect(outcome, outcome.log).toMatchObject({ code: 0, stage: "deliver" });
    expect((await statefulOrder(owner, clientId))?.orderId?.clientId).toBe(clientId);
    const state = await query(
      "/perpx.accountplus.v1.Query/AccountState",
      toBinary(
        accountplus.AccountStateRequestSchema,
        create(accountplus.AccountStateRequestSchema, { address: owner }),
      ),
      accountplus.AccountStateResponseSchema,
    );
    expect(state.accountState?.timestampNonceDetails?.timestampNonces).toContain(nonce);
    expect((await accountOf(owner)).sequence).toBe(sequence);
  });

  it("an AnyOf-of-MessageFilters trading key behaves the same; removal revokes it", async () => {
    const config = encodeAuthenticator(tradingKeyAuthenticator(agent.publicKey));
    expect(
      await asOwner([
        packAny(accountplus.MsgAddAuthenticatorSchema, {
          sender: owner,
          authenticatorType: config.type,
          data: config.config,
        }),
      ]),
    ).toMatchObject({ code: 0 });
    const id = (await authenticators(owner)).at(-1)?.id as bigint;
    expect(id).toBe(tradingId + 1n);
    expect(await asAgent([bankSend(owner, other)], [id])).toMatchObject({
      codespace: "dydxaccountplus",
      code: 104,
    });
    expect(await asAgent([placeOrder(owner, 0)], [id])).toMatchObject({ code: 0, stage: "memclob" });

    const remove = (authenticatorId: bigint) =>
      asOwner([packAny(accountplus.MsgRemoveAuthenticatorSchema, { sender: owner, id: authenticatorId })]);
    expect(await remove(id)).toMatchObject({ code: 0, stage: "deliver" });
    expect(await asAgent([placeOrder(owner, 0)], [id])).toMatchObject({
      codespace: "dydxaccountplus",
      code: 1,
    });
    expect(await remove(id)).toMatchObject({ codespace: "dydxaccountplus", code: 1, stage: "deliver" });
    // Another account cannot use (or remove) this account's authenticator.
    const stranger = devnet.accounts[1]?.address as string;
    const strangerKey = await cosmosKey(devnet.accounts[1]?.mnemonic as string);
    const strangerRemove = await send(
      buildTx({
        messages: [packAny(accountplus.MsgRemoveAuthenticatorSchema, { sender: stranger, id: tradingId })],
        key: strangerKey,
        ...(await accountOf(stranger)),
      }),
    );
    expect(strangerRemove).toMatchObject({ codespace: "dydxaccountplus", code: 1 });
    expect((await authenticators(owner)).map((a) => a.id)).toContain(tradingId);
  });
});

describe("EIP-712 ServiceTransaction:ApproveAgent from an EVM wallet", () => {
  const mnemonic = "test test test test test test test test test test test junk";
  let evm: Key;
  let evmAddressBytes: Uint8Array;
  let evmHex: string;
  const agent = keyFromSecret(new Uint8Array(32).fill(0x24));
  let owner: string;
  let agentId: bigint;
  let ethId: bigint;

  const approval = (nonce: number, signer: Key = evm) => {
    const params = {
      evmChainId: devnet.evmChainId,
      masterAddress: evmHex,
      agentPublicKey: agent.publicKey,
      nonce,
    };
    const recovered = secp256k1.sign(hashTypedData(approveAgentTypedData(params)), signer.secret, {
      prehash: false,
      format: "recovered",
    });
    const signature = new Uint8Array(65);
    signature.set(recovered.subarray(1));
    signature[64] = (recovered[0] as number) + 27;
    const message = JSON.parse(
      JSON.stringify(approveAgentTypedData(params).message, (_k, v: unknown) =>
        typeof v === "bigint" ? v.toString() : v,
      ),
    ) as Record<string, unknown>;
    return { typedDataSignature: `0x${Buffer.from(signature).toString("hex")}`, message };
  };

  beforeAll(async () => {
    evm = await cosmosKey(mnemonic, "m/44'/60'/0'/0/0");
    evmAddressBytes = keccak_256(secp256k1.getPublicKey(evm.secret, false).subarray(1)).subarray(12);
    evmHex = `0x${Buffer.from(evmAddressBytes).toString("hex")}`;
    expect(evmHex).toBe("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266");
    owner = toBech32(evmHex);
    const funded = await control("/fund", {
      address: evmHex,
      coins: [{ denom: "uusdc", amount: "100000000" }],
    });
    expect(funded.status).toBe(200);
    devnet.app.control.fundSubaccount(owner, 0, 100_000_000_000n);
  });

  it("refuses a signature from another key, a wrong chain id or a mismatched agent address", async () => {
    const other = keyFromSecret(new Uint8Array(32).fill(0x11));
    const forged = await control("/approve-agent", approval(1_000, other));
    expect(forged).toMatchObject({ status: 400, json: { code: "approve_agent_rejected" } });
    const good = approval(1_000);
    const tampered = await control("/approve-agent", {
      ...good,
      message: { ...good.message, nonce: "1001" },
    });
    expect(tampered.status).toBe(400);
    const mismatched = await control("/approve-agent", {
      ...good,
      message: { ...good.message, agentAddress: "0x0000000000000000000000000000000000000001" },
    });
    expect(mismatched.status).toBe(400);
    expect((await control("/approve-agent", { message: good.message })).status).toBe(400);
    expect(await authenticators(owner)).toHaveLength(0);
  });

  it("registers the agent's AllOf authenticator and the wallet's EthAddressSignatureVerification; a replay is refused", async () => {
    const approved = await control("/approve-agent", approval(2_000));
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    expect(approved.json.address).toBe(owner);
    agentId = BigInt(approved.json.agentAuthenticatorId as string);
    ethId = BigInt(approved.json.ethAuthenticatorId as string);
    const list = await authenticators(owner);
    expect(list.map((a) => a.type).sort()).toEqual(["AllOf", "EthAddressSignatureVerification"]);
    const eth = list.find((a) => a.id === ethId);
    expect(new Uint8Array(eth?.config ?? [])).toEqual(new Uint8Array(evmAddressBytes));
    expect(new Uint8Array(list.find((a) => a.id === agentId)?.config ?? [])).toEqual(
      encodeAuthenticator(tradingKeyAuthenticator(agent.publicKey)).config,
    );
    expect((await control("/approve-agent", approval(2_000))).status).toBe(400);
    expect((await control("/approve-agent", approval(1_500))).status).toBe(400);
  });

  it("the agent trades subaccount 0 and nothing else for the EVM account", async () => {
    const account = await accountOf(owner);
    const clientId = nextClientId++;
    const placed = await send(
      buildTx({
        messages: [placeLongTerm(owner, clientId, blockSeconds() + 3_600)],
        key: agent,
        ...account,
        selected: [agentId],
      }),
    );
    expect(placed, placed.log).toMatchObject({ code: 0, stage: "deliver" });
    expect((await statefulOrder(owner, clientId))?.orderId?.clientId).toBe(clientId);
    const before = await usdc(owner);
    for (const message of [bankSend(owner, devnet.accounts[2]?.address as string), withdraw(owner)]) {
      const refused = await send(
        buildTx({ messages: [message], key: agent, ...(await accountOf(owner)), selected: [agentId] }),
      );
      expect(refused, message.typeUrl).toMatchObject({
        codespace: "dydxaccountplus",
        code: 104,
        stage: "check",
      });
    }
    expect(await usdc(owner)).toBe(before);
  });

  it("the EVM wallet signs a cosmos tx with a Keccak-256 signature through its EthAddressSignatureVerification", async () => {
    const to = devnet.accounts[2]?.address as string;
    const before = await usdc(to);
    const account = await accountOf(owner);
    const sent = await send(
      buildTx({ messages: [bankSend(owner, to)], key: evm, ...account, selected: [ethId], scheme: "eth" }),
    );
    expect(sent, sent.log).toMatchObject({ code: 0, stage: "deliver" });
    expect(await usdc(to)).toBe(before + 1000n);
    // A cosmos-style (SHA-256) signature by the same key does not recover to the address.
    const wrong = await send(
      buildTx({ messages: [bankSend(owner, to)], key: evm, ...(await accountOf(owner)), selected: [ethId] }),
    );
    expect(wrong).toMatchObject({ codespace: "dydxaccountplus", code: 100 });
  });
});
