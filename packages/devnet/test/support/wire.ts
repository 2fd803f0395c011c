/**
 * Test support over the real wire: txs signed with cosmjs (SIGN_MODE_DIRECT) and broadcast with
 * RPC `broadcast_tx_sync`, subaccounts read over RPC `abci_query`, REST and gRPC. Nothing here
 * touches the chain application in-process.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { decodeSerializableInt, subaccounts } from "@perpx/proto";
import type { Loose } from "./loose.js";
import { signTx, type TestMsg } from "./sign-tx.js";

/** The endpoints a wire client needs. */
export interface WireEndpoints {
  readonly rpc: string;
  readonly rest: string;
  readonly grpc: string;
}

/** A CheckTx answer of `broadcast_tx_sync`. */
export interface SyncAnswer {
  readonly code: number;
  readonly codespace: string;
  readonly log: string;
  readonly hash: string;
}

/** A subaccount as read from the wire: USDC, positions (SerializableInts decoded), margin flag. */
export interface WireSubaccount {
  readonly usdc: bigint;
  readonly positions: ReadonlyArray<{
    perpetualId: number;
    quantums: bigint;
    fundingIndex: bigint;
    quoteBalance: bigint;
  }>;
  readonly marginEnabled: boolean;
}

/** A JSON-RPC call; throws on a JSON-RPC error. */
export async function rpcCall(rpc: string, method: string, params: Record<string, unknown>): Promise<Loose> {
  const res = await fetch(rpc, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as Loose;
  if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** GET a REST path; the status and JSON body. */
export async function restGet(rest: string, path: string): Promise<{ status: number; body: Loose }> {
  const res = await fetch(`${rest}${path}`);
  return { status: res.status, body: (await res.json()) as Loose };
}

/** Broadcasts TxRaw bytes with `broadcast_tx_sync`. */
export async function broadcastSync(rpc: string, tx: Uint8Array): Promise<SyncAnswer> {
  const result = await rpcCall(rpc, "broadcast_tx_sync", { tx: Buffer.from(tx).toString("base64") });
  return { code: result.code, codespace: result.codespace, log: result.log, hash: result.hash };
}

/** What a signed tx carries besides its messages. */
export interface SignOptions {
  readonly chainId: string;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  /** uusdc fee; 0 (the default) for a fee-free clob tx. */
  readonly feeUusdc?: bigint;
  readonly gasLimit?: bigint;
  readonly timeoutHeight?: bigint;
}

/**
 * Signs `msgs` with the wallet of `mnemonic` (index 0) and returns the TxRaw bytes: `signTx` with
 * this file's defaults (no fee, gas limit 1,000,000).
 */
export function signWire(
  mnemonic: string,
  msgs: readonly TestMsg[],
  options: SignOptions,
): Promise<Uint8Array> {
  return signTx({
    mnemonic,
    msgs,
    chainId: options.chainId,
    accountNumber: options.accountNumber,
    sequence: options.sequence,
    feeUusdc: (options.feeUusdc ?? 0n).toString(),
    gasLimit: options.gasLimit ?? 1_000_000n,
    ...(options.timeoutHeight === undefined ? {} : { timeoutHeight: options.timeoutHeight }),
  });
}

/** The account number and sequence of `address`, over REST. */
export async function accountOf(
  rest: string,
  address: string,
): Promise<{ accountNumber: bigint; sequence: bigint }> {
  const { body } = await restGet(rest, `/cosmos/auth/v1beta1/accounts/${address}`);
  return { accountNumber: BigInt(body.account.account_number), sequence: BigInt(body.account.sequence) };
}

/** The uusdc bank balance of `address`, over REST. */
export async function bankUusdc(rest: string, address: string): Promise<bigint> {
  const { body } = await restGet(rest, `/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=uusdc`);
  return BigInt(body.balance.amount);
}

function fromProto(raw: subaccounts.Subaccount | undefined): WireSubaccount {
  const usdc = raw?.assetPositions.find((p) => p.assetId === 0);
  return {
    usdc: usdc === undefined ? 0n : decodeSerializableInt(usdc.quantums),
    positions: (raw?.perpetualPositions ?? []).map((p) => ({
      perpetualId: p.perpetualId,
      quantums: decodeSerializableInt(p.quantums),
      fundingIndex: decodeSerializableInt(p.fundingIndex),
      quoteBalance: decodeSerializableInt(p.quoteBalance),
    })),
    marginEnabled: raw?.marginEnabled ?? false,
  };
}

/** A subaccount over RPC `abci_query`. */
export async function subaccountOverAbci(rpc: string, owner: string, number = 0): Promise<WireSubaccount> {
  const data = toBinary(
    subaccounts.QueryGetSubaccountRequestSchema,
    create(subaccounts.QueryGetSubaccountRequestSchema, { owner, number }),
  );
  const result = await rpcCall(rpc, "abci_query", {
    path: "/perpx.subaccounts.v1.Query/Subaccount",
    data: Buffer.from(data).toString("hex"),
  });
  if (result.response.code !== 0) throw new Error(`abci_query: ${result.response.log}`);
  const response = fromBinary(
    subaccounts.QuerySubaccountResponseSchema,
    new Uint8Array(Buffer.from(result.response.value, "base64")),
  );
  return fromProto(response.subaccount);
}

/** A subaccount over gRPC (h2c). */
export async function subaccountOverGrpc(grpc: string, owner: string, number = 0): Promise<WireSubaccount> {
  const client = createClient(subaccounts.Query, createGrpcTransport({ baseUrl: grpc }));
  return fromProto((await client.subaccount({ owner, number })).subaccount);
}

/** A subaccount over REST (SerializableInts are decimal strings there). */
export async function subaccountOverRest(rest: string, owner: string, number = 0): Promise<WireSubaccount> {
  const { body } = await restGet(rest, `/perpx/subaccounts/v1/subaccount/${owner}/${number}`);
  const raw = body.subaccount;
  const usdc = (raw.asset_positions as Loose[]).find((p) => p.asset_id === 0);
  return {
    usdc: usdc === undefined ? 0n : BigInt(usdc.quantums),
    positions: (raw.perpetual_positions as Loose[]).map((p) => ({
      perpetualId: p.perpetual_id,
      quantums: BigInt(p.quantums),
      fundingIndex: BigInt(p.funding_index),
      quoteBalance: BigInt(p.quote_balance),
    })),
    marginEnabled: raw.margin_enabled,
  };
}
