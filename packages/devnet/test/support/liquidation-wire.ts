/**
 * Test support for the liquidation pass's timing and order over the wire: a devnet on free ports
 * with blocks on demand and fixed oracle prices, short-term orders from any subaccount number
 * (signed with cosmjs, broadcast over RPC), a block's liquidation and deleveraging matches and a
 * subaccount's positions read back over RPC and ABCI, blocks produced in a chosen second (the
 * chain seeds its pseudo-random offsets with the block's Unix time), and the chain's order of
 * subaccounts (the protobuf bytes of `SubaccountId`).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { clob, cosmosTx, decodeSerializableInt, perpetuals, subaccounts } from "@perpx/proto";
import type { BlockRecord } from "../../src/app/contract.js";
import { bech32Of, moduleAddress } from "../../src/app/lib/addresses.js";
import { type Devnet, startDevnet } from "../../src/index.js";
import { type OrderSpec, placeMsg, signMsgs, type TestSigner, testSigner } from "./clob-tx.js";
import { broadcastSync, rpcCall } from "./wire.js";

/** A devnet for liquidation tests and its four test signers (genesis accounts 1..4). */
export interface LiquidationNet {
  readonly devnet: Devnet;
  readonly signers: readonly [TestSigner, TestSigner, TestSigner, TestSigner];
  /** The latest height. */
  height(): number;
  /** A short-term order from subaccount `number` of `signer`; answers the CheckTx code. */
  place(signer: TestSigner, number: number, spec: Partial<OrderSpec>): Promise<number>;
}

/** A subaccount id. */
export interface Ref {
  readonly owner: string;
  readonly number: number;
}

/** Oracle prices of the tests: BTC $50,000, ETH $3,000, SOL $150. */
export const PRICES = { "BTC-USD": "50000", "ETH-USD": "3000", "SOL-USD": "150" } as const;

/** Subticks of a USD price: BTC-USD 1e5 per dollar, ETH-USD 1e6, SOL-USD 1e8 (every tick fits). */
export const subticks = {
  btc: (usd: number) => BigInt(Math.round(usd)) * 100_000n,
  eth: (usd: number) => BigInt(Math.round(usd * 10)) * 100_000n,
  sol: (usd: number) => BigInt(Math.round(usd * 100)) * 1_000_000n,
};

/** Base quantums of a size: BTC 1e10 per coin, ETH 1e9, SOL 1e7. */
export const quantums = {
  btc: (coins: number) => BigInt(Math.round(coins * 10_000)) * 1_000_000n,
  eth: (coins: number) => BigInt(Math.round(coins * 1_000)) * 1_000_000n,
  sol: (coins: number) => BigInt(Math.round(coins * 10)) * 1_000_000n,
};

/** Starts a devnet with blocks on demand, the oracle walk off and the test prices set. */
export async function startLiquidationNet(): Promise<LiquidationNet> {
  const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
  const signers = (await Promise.all(
    devnet.accounts.slice(1, 5).map((a, i) => testSigner(a.mnemonic, i + 1)),
  )) as unknown as LiquidationNet["signers"];
  devnet.app.control.setOracleWalk(false);
  for (const [pair, price] of Object.entries(PRICES)) devnet.app.control.setOraclePrice(pair, price);
  devnet.app.control.fund(bech32Of(moduleAddress("insurance_fund")), [
    { denom: "uusdc", amount: 1_000_000_000n },
  ]);
  devnet.mine(1);
  let clientId = 1;
  const height = () => Number(devnet.app.latestBlock().height);
  return {
    devnet,
    signers,
    height,
    async place(signer, number, spec) {
      const msg = placeMsg({
        owner: signer.address,
        clientId: clientId++,
        side: "buy",
        quantums: 0n,
        subticks: 0n,
        goodTilBlock: height() + 20,
        ...spec,
      });
      const order = (msg.value as clob.MsgPlaceOrder).order;
      if (order?.orderId?.subaccountId !== undefined) order.orderId.subaccountId.number = number;
      const tx = await signMsgs(signer, devnet.chainId, 0n, [msg], 0n);
      return (await broadcastSync(devnet.endpoints.nodeRpc, tx)).code;
    },
  };
}

/** The liquidation and deleveraging matches of a block's proposed operations, over RPC `block`. */
export async function matchesAt(
  devnet: Devnet,
  height: number,
): Promise<{
  liquidations: clob.MatchPerpetualLiquidation[];
  deleveragings: clob.MatchPerpetualDeleveraging[];
}> {
  const answer = await rpcCall(devnet.endpoints.nodeRpc, "block", { height: String(height) });
  const first = answer.block.data.txs[0] as string | undefined;
  if (first === undefined) return { liquidations: [], deleveragings: [] };
  const raw = fromBinary(cosmosTx.TxRawSchema, Buffer.from(first, "base64"));
  const body = fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes);
  const message = body.messages[0];
  if (message?.typeUrl !== "/perpx.clob.v1.MsgProposedOperations")
    return { liquidations: [], deleveragings: [] };
  const ops = fromBinary(clob.MsgProposedOperationsSchema, message.value).operationsQueue;
  const matches = ops.flatMap((o) => (o.operation.case === "match" ? [o.operation.value.match] : []));
  return {
    liquidations: matches.flatMap((m) => (m.case === "matchPerpetualLiquidation" ? [m.value] : [])),
    deleveragings: matches.flatMap((m) => (m.case === "matchPerpetualDeleveraging" ? [m.value] : [])),
  };
}

/** An ABCI query's answer bytes. */
export async function abciQuery(devnet: Devnet, path: string, data: Uint8Array): Promise<Uint8Array> {
  const answer = await rpcCall(devnet.endpoints.nodeRpc, "abci_query", {
    path,
    data: Buffer.from(data).toString("hex"),
  });
  return Buffer.from(answer.response.value as string, "base64");
}

/** A subaccount's USDC and positions by perpetual id (quantums), over ABCI. */
export async function subaccountOf(
  devnet: Devnet,
  ref: Ref,
): Promise<{ usdc: bigint; positions: Map<number, bigint> }> {
  const found = fromBinary(
    subaccounts.QuerySubaccountResponseSchema,
    await abciQuery(
      devnet,
      "/perpx.subaccounts.v1.Query/Subaccount",
      toBinary(
        subaccounts.QueryGetSubaccountRequestSchema,
        create(subaccounts.QueryGetSubaccountRequestSchema, ref),
      ),
    ),
  ).subaccount;
  const usdc = found?.assetPositions.find((a) => a.assetId === 0);
  return {
    usdc: usdc === undefined ? 0n : decodeSerializableInt(usdc.quantums),
    positions: new Map(
      (found?.perpetualPositions ?? []).map((p) => [p.perpetualId, decodeSerializableInt(p.quantums)]),
    ),
  };
}

/** The subaccounts in the chain's store order: by the protobuf bytes of their `SubaccountId`. */
export function chainOrder(refs: readonly Ref[]): Ref[] {
  const keyOf = (ref: Ref) =>
    toBinary(subaccounts.SubaccountIdSchema, create(subaccounts.SubaccountIdSchema, ref));
  const compare = (a: Uint8Array, b: Uint8Array) => {
    for (let i = 0; i < a.length && i < b.length; i++)
      if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
    return a.length - b.length;
  };
  return [...refs].sort((a, b) => compare(keyOf(a), keyOf(b)));
}

/** `owner/number` of a subaccount id (for comparing lists). */
export const refText = (ref: { owner?: string; number?: number } | undefined): string =>
  `${ref?.owner ?? ""}/${ref?.number ?? 0}`;

/**
 * The first whole second, from a few seconds after the latest block, that `wanted` accepts (the
 * tests pick one where the chain's pseudo-random offset differs from a rule that ignores it).
 */
export function secondWhere(devnet: Devnet, wanted: (seconds: bigint) => boolean): bigint {
  const start = BigInt(devnet.app.latestBlock().time.getTime()) / 1000n + 2n;
  for (let s = start; s < start + 1_000n; s++) if (wanted(s)) return s;
  throw new Error("no second found");
}

/** Produces the next block at 250 ms into second `seconds` (its Unix time is `seconds`). */
export function mineInSecond(devnet: Devnet, seconds: bigint): BlockRecord {
  return devnet.app.produceBlock(new Date(Number(seconds) * 1000 + 250));
}

/** A perpetual's params and its liquidity tier, over ABCI. */
export async function perpetualOf(
  devnet: Devnet,
  id: number,
): Promise<{ params: perpetuals.PerpetualParams; tier: perpetuals.LiquidityTier }> {
  const perpetual = fromBinary(
    perpetuals.QueryPerpetualResponseSchema,
    await abciQuery(
      devnet,
      "/perpx.perpetuals.v1.Query/Perpetual",
      toBinary(
        perpetuals.QueryPerpetualRequestSchema,
        create(perpetuals.QueryPerpetualRequestSchema, { id }),
      ),
    ),
  ).perpetual;
  const tiers = fromBinary(
    perpetuals.QueryAllLiquidityTiersResponseSchema,
    await abciQuery(
      devnet,
      "/perpx.perpetuals.v1.Query/AllLiquidityTiers",
      toBinary(
        perpetuals.QueryAllLiquidityTiersRequestSchema,
        create(perpetuals.QueryAllLiquidityTiersRequestSchema),
      ),
    ),
  ).liquidityTiers;
  const params = perpetual?.params;
  const tier = tiers.find((t) => t.id === params?.liquidityTier);
  if (params === undefined || tier === undefined) throw new Error(`no perpetual ${id}`);
  return { params, tier };
}

/**
 * A subaccount's net collateral and maintenance margin (quote quantums) at the given USD prices by
 * perpetual id, from its queried positions and their tiers: notional = quantums × price ×
 * 10^atomic resolution, maintenance = |notional| × initial margin × maintenance fraction.
 */
export async function riskOf(
  devnet: Devnet,
  ref: Ref,
  usd: Readonly<Record<number, number>>,
): Promise<{ netCollateral: bigint; maintenance: bigint; mmfPpm: Map<number, number> }> {
  const { usdc, positions } = await subaccountOf(devnet, ref);
  let netCollateral = usdc;
  let maintenance = 0n;
  const mmfPpm = new Map<number, number>();
  for (const [id, q] of positions) {
    const { params, tier } = await perpetualOf(devnet, id);
    const micro = BigInt(Math.round((usd[id] ?? 0) * 1_000_000));
    const notional = (q * micro) / 10n ** BigInt(-params.atomicResolution);
    netCollateral += notional;
    const fractionPpm = (BigInt(tier.initialMarginPpm) * BigInt(tier.maintenanceFractionPpm)) / 1_000_000n;
    maintenance += ((notional < 0n ? -notional : notional) * fractionPpm) / 1_000_000n;
    mmfPpm.set(id, Number(fractionPpm));
  }
  return { netCollateral, maintenance, mmfPpm };
}
