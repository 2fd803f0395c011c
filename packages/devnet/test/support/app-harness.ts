/**
 * Test support for the chain application's tests: signed txs (cosmjs SIGN_MODE_DIRECT over bodies
 * built with @perpx/proto) from the genesis accounts, and a chain driven block by block.
 */
import { create, type DescMessage, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet, encodePubkey, makeAuthInfoBytes, makeSignDoc } from "@cosmjs/proto-signing";
import { cosmosBank, cosmosTx, cosmosTxSigning, packAny } from "@perpx/proto";
import { createChainApp } from "../../src/app/app.js";
import type { PersistentChainApp, TxResult } from "../../src/app/contract.js";
import { GENESIS_ACCOUNTS } from "../../src/app/genesis/genesis-accounts.js";
import { bech32Of, moduleAddress } from "../../src/app/lib/addresses.js";

/** SIGN_MODE_UNSPECIFIED, as cosmjs's simulation sends it (cosmjs types its own enum). */
export const UNSPECIFIED_MODE = cosmosTxSigning.SignMode.UNSPECIFIED as number as Parameters<
  typeof makeAuthInfoBytes
>[5];

export const GENESIS_TIME = new Date("2026-01-01T00:00:00Z");
export const CHAIN_ID = "perpx-local-1";
export const [ALICE, BOB, CARL] = GENESIS_ACCOUNTS.map((a) => a.address) as [string, string, string];
export const FEE_COLLECTOR = bech32Of(moduleAddress("fee_collector"));

/** A genesis account that signs txs. */
export interface Signer {
  readonly address: string;
  /** Its public key as the `Any` cosmjs puts in a signer info. */
  readonly pubkeyAny: ReturnType<typeof encodePubkey>;
  sign(options: TxOptions): Promise<Uint8Array>;
}

/** A cosmjs wallet that signs SIGN_MODE_DIRECT txs whose body is built with @perpx/proto. */
export async function walletSigner(mnemonic: string): Promise<Signer> {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(mnemonic, { prefix: "perpx" });
  const [account] = await wallet.getAccounts();
  if (account === undefined) throw new Error("no account");
  const pubkeyAny = encodePubkey(encodeSecp256k1Pubkey(account.pubkey));
  return {
    address: account.address,
    pubkeyAny,
    async sign(options: TxOptions): Promise<Uint8Array> {
      const bodyBytes = body(options);
      const authInfoBytes = makeAuthInfoBytes(
        [{ pubkey: pubkeyAny, sequence: options.sequence }],
        options.fee ?? [{ denom: "uusdc", amount: "5000" }],
        Number(options.gas ?? 200_000n),
        undefined,
        undefined,
      );
      const doc = makeSignDoc(bodyBytes, authInfoBytes, options.chainId ?? CHAIN_ID, options.accountNumber);
      const { signature } = await wallet.signDirect(account.address, doc);
      return txRaw(bodyBytes, authInfoBytes, Buffer.from(signature.signature, "base64"));
    },
  };
}

export interface TxOptions {
  msgs: { typeUrl: string; value: Uint8Array }[];
  sequence: bigint;
  accountNumber: bigint;
  fee?: { denom: string; amount: string }[];
  gas?: bigint;
  chainId?: string;
  memo?: string;
}

export function any<Desc extends DescMessage>(schema: Desc, value: MessageShape<Desc>) {
  return packAny(schema, value);
}

export function body(options: TxOptions): Uint8Array {
  return toBinary(
    cosmosTx.TxBodySchema,
    create(cosmosTx.TxBodySchema, {
      messages: options.msgs.map((m) => ({ $typeName: "google.protobuf.Any" as const, ...m })),
      memo: options.memo ?? "",
    }),
  );
}

export function txRaw(bodyBytes: Uint8Array, authInfoBytes: Uint8Array, signature: Uint8Array): Uint8Array {
  return toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] }),
  );
}

export function send(from: string, to: string, amount: bigint, denom = "uusdc") {
  return any(
    cosmosBank.MsgSendSchema,
    create(cosmosBank.MsgSendSchema, {
      fromAddress: from,
      toAddress: to,
      amount: [{ $typeName: "cosmos.base.v1beta1.Coin", denom, amount: amount.toString() }],
    }),
  );
}

export function newApp(profile: "local" | "testnet" | "mainnet" = "local"): PersistentChainApp {
  return createChainApp({ profile, genesisTime: GENESIS_TIME });
}

let clock = GENESIS_TIME.getTime();
export function nextBlock(app: PersistentChainApp) {
  clock += 1000;
  return app.produceBlock(new Date(clock));
}

/** Checks and delivers one tx; returns the CheckTx result and the delivery result (if it was queued). */
export function run(
  app: PersistentChainApp,
  tx: Uint8Array,
): { check: TxResult; deliver: TxResult | undefined } {
  const check = app.checkTx(tx);
  if (check.code !== 0) return { check, deliver: undefined };
  const block = nextBlock(app);
  const index = block.txs.length - 1;
  return { check, deliver: block.txResults[index] };
}

/** The first two genesis accounts as signers. */
export async function genesisSigners(): Promise<{ alice: Signer; bob: Signer }> {
  return {
    alice: await walletSigner((GENESIS_ACCOUNTS[0] as { mnemonic: string }).mnemonic),
    bob: await walletSigner((GENESIS_ACCOUNTS[1] as { mnemonic: string }).mnemonic),
  };
}
