/**
 * Signed clob txs for tests, built with `@perpx/proto` and cosmjs (SIGN_MODE_DIRECT, `makeSignDoc`,
 * TxRaw): no client library of ours.
 */
import { create, type DescMessage, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import {
  DirectSecp256k1HdWallet,
  DirectSecp256k1Wallet,
  encodePubkey,
  makeAuthInfoBytes,
  makeSignDoc,
  type OfflineDirectSigner,
} from "@cosmjs/proto-signing";
import { clob, cosmosTx } from "@perpx/proto";

/** A signer: its wallet, address and account number. */
export interface TestSigner {
  readonly wallet: OfflineDirectSigner;
  readonly address: string;
  readonly accountNumber: number;
}

/** A signer from a mnemonic. */
export async function testSigner(mnemonic: string, accountNumber: number): Promise<TestSigner> {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(mnemonic, { prefix: "perpx" });
  const [account] = await wallet.getAccounts();
  if (account === undefined) throw new Error("no account");
  return { wallet, address: account.address, accountNumber };
}

/** A signer from a raw secp256k1 private key (a funded subaccount's, `fundedSubaccountKey(i)`). */
export async function keySigner(privateKey: Uint8Array, accountNumber: number): Promise<TestSigner> {
  const wallet = await DirectSecp256k1Wallet.fromKey(privateKey, "perpx");
  const [account] = await wallet.getAccounts();
  if (account === undefined) throw new Error("no account");
  return { wallet, address: account.address, accountNumber };
}

/** Signs one or more messages; `fee` 0 for free short-term txs. */
export async function signMsgs(
  signer: TestSigner,
  chainId: string,
  sequence: bigint,
  msgs: ReadonlyArray<{ schema: DescMessage; value: MessageShape<DescMessage> }>,
  fee = 50_000n,
): Promise<Uint8Array> {
  const [account] = await signer.wallet.getAccounts();
  if (account === undefined) throw new Error("no account");
  const bodyBytes = toBinary(
    cosmosTx.TxBodySchema,
    create(cosmosTx.TxBodySchema, {
      messages: msgs.map((m) => ({
        $typeName: "google.protobuf.Any" as const,
        typeUrl: `/${m.schema.typeName}`,
        value: toBinary(m.schema, m.value),
      })),
    }),
  );
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey: encodePubkey(encodeSecp256k1Pubkey(account.pubkey)), sequence: Number(sequence) }],
    fee === 0n ? [] : [{ denom: "uusdc", amount: fee.toString() }],
    fee === 0n ? 1_000_000 : 2_000_000,
    undefined,
    undefined,
  );
  const signDoc = makeSignDoc(bodyBytes, authInfoBytes, chainId, signer.accountNumber);
  const { signature } = await signer.wallet.signDirect(account.address, signDoc);
  return toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, {
      bodyBytes,
      authInfoBytes,
      signatures: [new Uint8Array(Buffer.from(signature.signature, "base64"))],
    }),
  );
}

/** Fields of a test order. */
export interface OrderSpec {
  owner: string;
  clientId: number;
  side: "buy" | "sell";
  quantums: bigint;
  subticks: bigint;
  clobPairId?: number;
  flags?: 0 | 32 | 64;
  goodTilBlock?: number;
  goodTilBlockTime?: number;
  timeInForce?: clob.Order_TimeInForce;
  reduceOnly?: boolean;
  conditionType?: clob.Order_ConditionType;
  triggerSubticks?: bigint;
}

/** A `MsgPlaceOrder` message of a spec. */
export function placeMsg(spec: OrderSpec): { schema: DescMessage; value: MessageShape<DescMessage> } {
  const flags = spec.flags ?? 0;
  const value = create(clob.MsgPlaceOrderSchema, {
    order: {
      orderId: {
        subaccountId: { owner: spec.owner, number: 0 },
        clientId: spec.clientId,
        orderFlags: flags,
        clobPairId: spec.clobPairId ?? 0,
      },
      side: spec.side === "buy" ? clob.Order_Side.BUY : clob.Order_Side.SELL,
      quantums: spec.quantums,
      subticks: spec.subticks,
      goodTilOneof:
        flags === 0
          ? { case: "goodTilBlock", value: spec.goodTilBlock ?? 0 }
          : { case: "goodTilBlockTime", value: spec.goodTilBlockTime ?? 0 },
      timeInForce: spec.timeInForce ?? clob.Order_TimeInForce.UNSPECIFIED,
      reduceOnly: spec.reduceOnly ?? false,
      conditionType: spec.conditionType ?? clob.Order_ConditionType.UNSPECIFIED,
      conditionalOrderTriggerSubticks: spec.triggerSubticks ?? 0n,
    },
  });
  return { schema: clob.MsgPlaceOrderSchema, value } as {
    schema: DescMessage;
    value: MessageShape<DescMessage>;
  };
}
