/**
 * Builds and signs a tx in tests without any client library of ours: messages packed with
 * `@perpx/proto`, SIGN_MODE_DIRECT with cosmjs's `makeSignDoc` and a `DirectSecp256k1HdWallet`,
 * TxRaw bytes out.
 */
import { create, type DescMessage, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet, encodePubkey, makeAuthInfoBytes, makeSignDoc } from "@cosmjs/proto-signing";
import { cosmosTx } from "@perpx/proto";

/** One message of a tx: its schema and value. */
export interface TestMsg<Desc extends DescMessage = DescMessage> {
  schema: Desc;
  value: MessageShape<Desc>;
}

/** Ties a message to its schema. */
export function msg<Desc extends DescMessage>(schema: Desc, value: MessageShape<Desc>): TestMsg {
  return { schema, value } as unknown as TestMsg;
}

/** Signs `msgs` with the wallet of `mnemonic` (index 0) and returns the TxRaw bytes. */
export async function signTx(options: {
  mnemonic: string;
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
  msgs: readonly TestMsg[];
  gasLimit?: bigint;
  /** The uusdc fee; "0" signs a tx with no fee coin (a fee-free clob tx). @default "12500" */
  feeUusdc?: string;
  /** @default 0n */
  timeoutHeight?: bigint;
}): Promise<Uint8Array> {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(options.mnemonic, { prefix: "perpx" });
  const [account] = await wallet.getAccounts();
  if (account === undefined) throw new Error("no account");
  const bodyBytes = toBinary(
    cosmosTx.TxBodySchema,
    create(cosmosTx.TxBodySchema, {
      messages: options.msgs.map((m) => ({
        $typeName: "google.protobuf.Any" as const,
        typeUrl: `/${m.schema.typeName}`,
        value: toBinary(m.schema, m.value),
      })),
      timeoutHeight: options.timeoutHeight ?? 0n,
    }),
  );
  const fee = options.feeUusdc ?? "12500";
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey: encodePubkey(encodeSecp256k1Pubkey(account.pubkey)), sequence: Number(options.sequence) }],
    fee === "0" ? [] : [{ denom: "uusdc", amount: fee }],
    Number(options.gasLimit ?? 500_000n),
    undefined,
    undefined,
  );
  const signDoc = makeSignDoc(bodyBytes, authInfoBytes, options.chainId, Number(options.accountNumber));
  const { signature } = await wallet.signDirect(account.address, signDoc);
  return toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, {
      bodyBytes,
      authInfoBytes,
      signatures: [new Uint8Array(Buffer.from(signature.signature, "base64"))],
    }),
  );
}
