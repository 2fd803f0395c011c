/**
 * A devnet for indexer tests: started on free ports without block production (blocks are mined
 * explicitly), a fixed oracle price, and helpers that sign deposits and orders and read the
 * indexer's REST answers.
 */
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { affiliates, sending } from "@perpx/proto";
import { expect } from "vitest";
import type { TxResult } from "../../src/app/contract.js";
import { GENESIS_ACCOUNTS } from "../../src/app/genesis/genesis-accounts.js";
import { startDevnet } from "../../src/devnet.js";
import type { Devnet, StartDevnetOptions } from "../../src/devnet-options.js";
import { type OrderSpec, placeMsg, signMsgs, type TestSigner, testSigner } from "./clob-tx.js";

export type Msg = { schema: DescMessage; value: MessageShape<DescMessage> };

/** BTC-USD at $65,000 in subticks. */
export const BTC_PRICE_SUBTICKS = 6_500_000_000n;

/** A devnet, its first signers, and their next sequences. */
export interface IndexedChain {
  readonly devnet: Devnet;
  readonly signers: readonly TestSigner[];
  readonly sequences: bigint[];
}

/** Starts a devnet on free ports, mining only on demand, BTC-USD held at $65,000. */
export async function startIndexedChain(options: StartDevnetOptions = {}): Promise<IndexedChain> {
  const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, ...options });
  devnet.app.control.setOracleWalk(false);
  devnet.app.control.setOraclePrice("BTC-USD", "65000");
  const signers = await Promise.all(GENESIS_ACCOUNTS.slice(0, 3).map((a, i) => testSigner(a.mnemonic, i)));
  return { devnet, signers, sequences: signers.map(() => 0n) };
}

/** One signer's opening deposit: quote quantums into its subaccount 0, or into `number`. */
export type OpeningDeposit = bigint | { readonly quantums: bigint; readonly number: number } | undefined;

/**
 * {@link startIndexedChain}, then each signer's opening deposit (signer `i` gets `deposits[i]`;
 * none for `undefined`), each in its own block and expected to succeed.
 */
export async function startFundedChain(
  deposits: readonly OpeningDeposit[],
  options: StartDevnetOptions = {},
): Promise<IndexedChain> {
  const chain = await startIndexedChain(options);
  for (const [i, deposit] of deposits.entries()) {
    if (deposit === undefined) continue;
    const owner = (chain.signers[i] as TestSigner).address;
    const msg =
      typeof deposit === "bigint"
        ? depositMsg(owner, deposit)
        : depositMsg(owner, deposit.quantums, deposit.number);
    const result = await deliver(chain, i, [msg]);
    expect(result.code, result.log).toBe(0);
  }
  return chain;
}

/** The addresses of the chain's three signers, in order. */
export function signerAddresses(chain: IndexedChain): [string, string, string] {
  return chain.signers.map((s) => s.address) as [string, string, string];
}

/** A deposit of `quantums` USDC quote quantums into the signer's subaccount `number`. */
export function depositMsg(owner: string, quantums: bigint, number = 0): Msg {
  return {
    schema: sending.MsgDepositToSubaccountSchema,
    value: create(sending.MsgDepositToSubaccountSchema, {
      sender: owner,
      recipient: { owner, number },
      assetId: 0,
      quantums,
    }),
  } as Msg;
}

/** A transfer of whole `dollars` of USDC between two subaccounts. */
export function transferMsg(
  from: { owner: string; number: number },
  to: { owner: string; number: number },
  dollars: bigint,
): Msg {
  return {
    schema: sending.MsgCreateTransferSchema,
    value: create(sending.MsgCreateTransferSchema, {
      transfer: { sender: from, recipient: to, assetId: 0, amount: dollars * 1_000_000n },
    }),
  } as Msg;
}

/** `affiliate` refers `referee` (signed by the referee). */
export function registerAffiliateMsg(referee: string, affiliate: string): Msg {
  return {
    schema: affiliates.MsgRegisterAffiliateSchema,
    value: create(affiliates.MsgRegisterAffiliateSchema, { referee, affiliate }),
  } as Msg;
}

/** Signs and checks a stateful tx of signer `i` (its sequence moves on), then mines a block. */
export async function deliver(chain: IndexedChain, i: number, msgs: Msg[]): Promise<TxResult> {
  const signer = chain.signers[i] as TestSigner;
  const sequence = chain.sequences[i] as bigint;
  const bytes = await signMsgs(signer, chain.devnet.chainId, sequence, msgs, 50_000n);
  const check = chain.devnet.app.checkTx(bytes);
  expect(check.code, check.log).toBe(0);
  chain.sequences[i] = sequence + 1n;
  const [block] = chain.devnet.mine(1);
  return block?.txResults.at(-1) as TxResult;
}

/** CheckTx of a short-term order of signer `i` (never in a block); expects acceptance. */
export async function placeShortTerm(
  chain: IndexedChain,
  i: number,
  spec: Partial<OrderSpec>,
): Promise<TxResult> {
  const signer = chain.signers[i] as TestSigner;
  const height = Number(chain.devnet.app.latestBlock().height);
  const msg = placeMsg({
    owner: signer.address,
    clientId: 1,
    side: "buy",
    quantums: 1_000_000n,
    subticks: BTC_PRICE_SUBTICKS,
    goodTilBlock: height + 10,
    ...spec,
  });
  const result = chain.devnet.app.checkTx(await signMsgs(signer, chain.devnet.chainId, 0n, [msg], 0n));
  expect(result.code, result.log).toBe(0);
  return result;
}

/** GET on the indexer: status, JSON body and headers. */
export async function getIndexer(
  chain: IndexedChain,
  path: string,
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(`${chain.devnet.endpoints.indexer}${path}`);
  return { status: response.status, body: await response.json(), headers: response.headers };
}
