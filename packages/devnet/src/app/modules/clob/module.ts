/**
 * The clob module: short-term, long-term and conditional orders, matching, fills, cancels, batch
 * cancels, expiry, triggers, funding, block rate limits, equity tiers, leverage, and the queries.
 *
 * How CheckTx and delivery interplay: CheckTx runs the stateless checks (`validate`) and, in the
 * ante step, the checks that need state but not the book (one short-term message per tx, the
 * good-til windows, the clob pair, the block rate limits, which count in CheckTx's pending state as
 * the real chain's CheckTx does). Matching happens when the tx is delivered: txs reach a block in
 * the order CheckTx accepted them, and each order matches against the book as the previous ones
 * left it. So a short-term order broadcast with `broadcast_tx_sync` is matched in the next block,
 * deterministically (the same txs in the same order give the same fills on every run).
 *
 * Where the book lives: in the module's store slice (see `book.ts`). Short-term orders are kept in
 * memory only, as on the real node: their keys (order, book entry, expiry, replay protection, rate
 * limit counters) are the slice's volatile keys (`isShortTermKey` in `state.ts`), which the root
 * store keeps beside the committed state. So a failed tx still rolls their book changes back and
 * the book iterates them merged with the stateful orders in price-time priority, but they are not
 * in the app hash nor in the exported state: a restart with `--state` drops them. The fills,
 * positions and balances they cause are committed state. Long-term and conditional orders are
 * stateful, as on the real chain.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { decodeU64, encodeU64, utf8 } from "../../codec.js";
import { abciError } from "../../errors.js";
import {
  type Context,
  genesisJson,
  type Module,
  msgHandler,
  notFound,
  packAny,
  queryHandler,
} from "../../module.js";
import { paginate } from "../../pagination.js";
import type { DecodedTx } from "../../tx.js";
import type { ProtoRecord } from "../records.js";
import { padKey } from "../records.js";
import { endBlock } from "./endblock.js";
import { CLOB_EVENTS, type ClobKeepers, Engine, orderAttributes } from "./engine.js";
import { clobErrors } from "./errors.js";
import { checkEquityTier, consumeRateLimit, equityTierConfig, rateLimitConfig } from "./limits.js";
import {
  allPairs,
  CLOB,
  expiryKey,
  getDone,
  getOrder,
  getPair,
  goodTil,
  isShortTermKey,
  nextPriority,
  orderKey,
  setOrder,
} from "./state.js";
import { checkClobTx, clobTxPolicy, isClobTx } from "./tx-rules.js";
import {
  orderKind,
  orderLabel,
  validateAgainstPair,
  validateBatchCancelBasic,
  validateCancelBasic,
  validateGoodTil,
  validateLeverageUpdate,
  validateOrderBasic,
} from "./validate.js";

const PLACE = `/${clob.MsgPlaceOrderSchema.typeName}`;
const CANCEL = `/${clob.MsgCancelOrderSchema.typeName}`;
const BATCH = `/${clob.MsgBatchCancelSchema.typeName}`;
const LEVERAGE = `/${clob.MsgUpdateLeverageSchema.typeName}`;

/** The height a tx's orders are placed in, and the previous block's time (seconds). */
function windowOf(ctx: Context): { nextHeight: bigint; previousBlockTimeSeconds: bigint } {
  if (ctx.mode === "deliver") {
    const last = ctx.store(CLOB).get("last_time");
    const ms = last === undefined ? ctx.block.timeMs : decodeU64(last);
    return { nextHeight: ctx.block.height, previousBlockTimeSeconds: ms / 1000n };
  }
  return { nextHeight: ctx.block.height + 1n, previousBlockTimeSeconds: ctx.block.timeMs / 1000n };
}

/** The checks of a place order that need state but not the book (CheckTx and delivery). */
function checkPlacement(ctx: Context, order: clob.Order): clob.ClobPair {
  validateOrderBasic(order);
  const pair = validateAgainstPair(order, getPair(ctx.store(CLOB), order.orderId?.clobPairId ?? 0));
  validateGoodTil(order, windowOf(ctx));
  return pair;
}

function checkCancelWindow(ctx: Context, msg: clob.MsgCancelOrder): void {
  const flags = msg.orderId?.orderFlags ?? 0;
  orderKind(flags);
  if (flags === 0) {
    if (msg.goodTilOneof.case !== "goodTilBlock" || msg.goodTilOneof.value === 0) {
      throw abciError(clobErrors.invalidOrderGoodTilBlock, "short-term cancels need a GoodTilBlock");
    }
  } else if (msg.goodTilOneof.case !== "goodTilBlockTime" || msg.goodTilOneof.value === 0) {
    throw abciError(clobErrors.invalidGoodTilBlockTime, "stateful cancels need a GoodTilBlockTime");
  }
  const probe = create(clob.OrderSchema, { orderId: msg.orderId, goodTilOneof: msg.goodTilOneof });
  validateGoodTil(probe, windowOf(ctx));
}

/** Ante-time clob checks of a tx (see the module comment); counts the rate limits. */
function anteChecks(ctx: Context, tx: DecodedTx): void {
  const msgs = tx.msgs;
  checkClobTx(msgs, tx.body.timeoutHeight, ctx.mode === "simulate");
  const store = ctx.store(CLOB);
  const height = windowOf(ctx).nextHeight;
  for (const m of msgs) {
    const signer = m.signers[0] ?? "";
    if (m.typeUrl === PLACE) {
      const order = (m.msg as clob.MsgPlaceOrder).order ?? create(clob.OrderSchema);
      checkPlacement(ctx, order);
      consumeRateLimit(store, order.orderId?.orderFlags === 0 ? "short" : "stateful", signer, height);
    } else if (m.typeUrl === CANCEL) {
      const msg = m.msg as clob.MsgCancelOrder;
      checkCancelWindow(ctx, msg);
      consumeRateLimit(store, msg.orderId?.orderFlags === 0 ? "short" : "stateful", signer, height);
    } else if (m.typeUrl === BATCH) {
      consumeRateLimit(store, "short", signer, height);
    } else if (m.typeUrl === LEVERAGE) {
      consumeRateLimit(store, "leverage", signer, height);
    }
  }
}

function placeOrder(ctx: Context, keepers: ClobKeepers, order: clob.Order): void {
  const pair = checkPlacement(ctx, order);
  const engine = new Engine(ctx, keepers);
  const store = engine.store;
  const key = orderKey(order.orderId);
  const kind = orderKind(order.orderId?.orderFlags ?? 0);
  const existing = getOrder(store, key);
  let filled = 0n;
  if (kind === "short-term") {
    const done = getDone(store, key);
    if (done !== undefined && done.gtb >= goodTil(order)) {
      throw abciError(
        done.reason === "filled" ? clobErrors.orderFullyFilled : clobErrors.orderIsCanceled,
        `order ${orderLabel(order)} was ${done.reason} with GoodTilBlock ${done.gtb}`,
      );
    }
    if (existing !== undefined) {
      if (goodTil(order) <= goodTil(existing.order)) {
        throw abciError(clobErrors.invalidReplacement, `order ${orderLabel(order)} already exists`);
      }
    }
  } else if (existing !== undefined) {
    if (goodTil(order) <= goodTil(existing.order)) {
      throw abciError(clobErrors.statefulOrderExists, `order ${orderLabel(order)} already exists`);
    }
  } else {
    const ref = {
      owner: order.orderId?.subaccountId?.owner ?? "",
      number: order.orderId?.subaccountId?.number ?? 0,
    };
    let open = 0;
    for (const [k] of store.entries(`order/${ref.owner}/${padKey(ref.number, 10)}/`)) {
      if (!isShortTermKey(k)) open++;
    }
    checkEquityTier(store, keepers.subaccounts.netCollateral(ctx, ref), open);
  }
  if (existing !== undefined) {
    filled = existing.filled;
    engine.removeOrder(existing, CLOB_EVENTS.cancel, "replaced");
    if (kind === "short-term") store.delete(`done/${key}`);
  }
  const priority = nextPriority(store, kind === "short-term");
  if (kind === "conditional") {
    setOrder(store, key, {
      order,
      ...priority,
      height: ctx.block.height,
      txIndex: 0,
      filled,
      triggered: false,
    });
    store.set(`trig/${padKey(pair.id, 10)}/${key}`, new Uint8Array(0));
    store.set(expiryKey(order, key), new Uint8Array(0));
    ctx.events.emitEvent(CLOB_EVENTS.place, [
      ...orderAttributes(order),
      ["condition_type", clob.Order_ConditionType[order.conditionType] ?? ""],
      ["trigger_subticks", order.conditionalOrderTriggerSubticks.toString()],
      ["quantums", order.quantums.toString()],
      ["subticks", order.subticks.toString()],
      ["good_til", goodTil(order).toString()],
    ]);
    return;
  }
  engine.place(order, pair, { txIndex: 0 }, filled, priority);
}

function cancelOrder(ctx: Context, keepers: ClobKeepers, msg: clob.MsgCancelOrder): void {
  checkCancelWindow(ctx, msg);
  const engine = new Engine(ctx, keepers);
  const key = orderKey(msg.orderId);
  const existing = getOrder(engine.store, key);
  const shortTerm = (msg.orderId?.orderFlags ?? 0) === 0;
  if (existing === undefined) {
    throw abciError(
      shortTerm ? clobErrors.orderDoesNotExist : clobErrors.statefulOrderDoesNotExist,
      `order ${key} does not exist`,
    );
  }
  engine.removeOrder(existing, CLOB_EVENTS.cancel, "user_canceled");
}

function batchCancel(
  ctx: Context,
  keepers: ClobKeepers,
  msg: clob.MsgBatchCancel,
): clob.MsgBatchCancelResponse {
  const probe = create(clob.OrderSchema, { goodTilOneof: { case: "goodTilBlock", value: msg.goodTilBlock } });
  validateGoodTil(probe, windowOf(ctx));
  const engine = new Engine(ctx, keepers);
  const succeeded: clob.OrderBatch[] = [];
  const failed: clob.OrderBatch[] = [];
  for (const batch of msg.shortTermCancels) {
    const ok: number[] = [];
    const ko: number[] = [];
    for (const clientId of batch.clientIds) {
      const key = orderKey(
        create(clob.OrderIdSchema, {
          subaccountId: msg.subaccountId,
          clientId,
          orderFlags: 0,
          clobPairId: batch.clobPairId,
        }),
      );
      const existing = getOrder(engine.store, key);
      if (existing === undefined) ko.push(clientId);
      else {
        engine.removeOrder(existing, CLOB_EVENTS.cancel, "user_canceled");
        ok.push(clientId);
      }
    }
    if (ok.length > 0)
      succeeded.push(create(clob.OrderBatchSchema, { clobPairId: batch.clobPairId, clientIds: ok }));
    if (ko.length > 0)
      failed.push(create(clob.OrderBatchSchema, { clobPairId: batch.clobPairId, clientIds: ko }));
  }
  if (succeeded.length === 0)
    throw abciError(clobErrors.batchCancelFailed, "no order of the batch was cancelled");
  return create(clob.MsgBatchCancelResponseSchema, {
    shortTermSucceeded: succeeded,
    shortTermFailed: failed,
  });
}

function levKey(owner: string, number: number, pairId: number): string {
  return `lev/${owner}/${padKey(number, 10)}/${padKey(pairId, 10)}`;
}

function updateLeverage(ctx: Context, msg: clob.MsgUpdateLeverage): void {
  const store = ctx.store(CLOB);
  const owner = msg.subaccountId?.owner ?? "";
  const number = msg.subaccountId?.number ?? 0;
  validateLeverageUpdate(msg, (id) => getPair(store, id) !== undefined);
  for (const entry of msg.clobPairLeverage) {
    store.set(levKey(owner, number, entry.clobPairId), encodeU64(BigInt(entry.customImfPpm)));
    ctx.events.emitEvent(CLOB_EVENTS.leverage, [
      ["owner", owner],
      ["subaccount_number", String(number)],
      ["clob_pair_id", String(entry.clobPairId)],
      ["custom_imf_ppm", String(entry.customImfPpm)],
    ]);
  }
}

/** The clob module over the exchange keepers; `records` are its genesis records (pairs, configs). */
export function createClobModule(keepers: ClobKeepers, records: readonly ProtoRecord[]): Module {
  return {
    name: CLOB,
    msgs: [
      msgHandler({
        schema: clob.MsgPlaceOrderSchema,
        signers: (msg) => [msg.order?.orderId?.subaccountId?.owner ?? ""],
        validate: (msg) => validateOrderBasic(msg.order ?? create(clob.OrderSchema)),
        execute(ctx, msg) {
          placeOrder(ctx, keepers, msg.order ?? create(clob.OrderSchema));
          return packAny(clob.MsgPlaceOrderResponseSchema, create(clob.MsgPlaceOrderResponseSchema));
        },
      }),
      msgHandler({
        schema: clob.MsgCancelOrderSchema,
        signers: (msg) => [msg.orderId?.subaccountId?.owner ?? ""],
        validate: validateCancelBasic,
        execute(ctx, msg) {
          cancelOrder(ctx, keepers, msg);
          return packAny(clob.MsgCancelOrderResponseSchema, create(clob.MsgCancelOrderResponseSchema));
        },
      }),
      msgHandler({
        schema: clob.MsgBatchCancelSchema,
        signers: (msg) => [msg.subaccountId?.owner ?? ""],
        validate: validateBatchCancelBasic,
        execute: (ctx, msg) => packAny(clob.MsgBatchCancelResponseSchema, batchCancel(ctx, keepers, msg)),
      }),
      msgHandler({
        schema: clob.MsgUpdateLeverageSchema,
        signers: (msg) => [msg.subaccountId?.owner ?? ""],
        execute(ctx, msg) {
          updateLeverage(ctx, msg);
          return packAny(clob.MsgUpdateLeverageResponseSchema, create(clob.MsgUpdateLeverageResponseSchema));
        },
      }),
    ],
    // chain-protocol.md 1.6 and 1.8 (`tx-rules.ts`): a clob tx is fee-free; `anteChecks` refuses
    // one whose messages break the rules.
    txPolicy: (typeUrls, msgs) => clobTxPolicy(typeUrls.map((typeUrl, i) => ({ typeUrl, msg: msgs[i] }))),
    volatileKey: isShortTermKey,
    authenticateSigner(ctx, { tx, index }) {
      if (index === 0 && isClobTx(tx.msgs)) anteChecks(ctx, tx);
      return false;
    },
    initGenesis(ctx) {
      const store = ctx.store(CLOB);
      for (const r of records) store.set(r.key, toBinary(r.schema, r.value));
      store.set("last_time", encodeU64(ctx.block.timeMs));
      store.set("funding/last", encodeU64(ctx.block.timeMs));
    },
    exportGenesis(ctx) {
      const store = ctx.store(CLOB);
      return {
        clob_pairs: allPairs(store).map((p) => genesisJson(clob.ClobPairSchema, p)),
        equity_tier_limit_config: genesisJson(
          clob.EquityTierLimitConfigurationSchema,
          equityTierConfig(store),
        ),
        block_rate_limit_config: genesisJson(clob.BlockRateLimitConfigurationSchema, rateLimitConfig(store)),
      };
    },
    endBlock: (ctx) => endBlock(ctx, keepers),
    queries: {
      "/perpx.clob.v1.Query/ClobPair": queryHandler(
        clob.QueryGetClobPairRequestSchema,
        clob.QueryClobPairResponseSchema,
        (ctx, req) => {
          const pair = getPair(ctx.store(CLOB), req.id);
          if (pair === undefined) throw notFound("not found");
          return create(clob.QueryClobPairResponseSchema, { clobPair: pair });
        },
      ),
      "/perpx.clob.v1.Query/ClobPairAll": queryHandler(
        clob.QueryAllClobPairRequestSchema,
        clob.QueryClobPairAllResponseSchema,
        (ctx, req) => {
          const items = allPairs(ctx.store(CLOB)).map((p) => ({ key: utf8(padKey(p.id, 10)), value: p }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(clob.QueryClobPairAllResponseSchema, { clobPair: page, pagination });
        },
      ),
      "/perpx.clob.v1.Query/EquityTierLimitConfiguration": queryHandler(
        clob.QueryEquityTierLimitConfigurationRequestSchema,
        clob.QueryEquityTierLimitConfigurationResponseSchema,
        (ctx) =>
          create(clob.QueryEquityTierLimitConfigurationResponseSchema, {
            equityTierLimitConfig: equityTierConfig(ctx.store(CLOB)),
          }),
      ),
      "/perpx.clob.v1.Query/BlockRateLimitConfiguration": queryHandler(
        clob.QueryBlockRateLimitConfigurationRequestSchema,
        clob.QueryBlockRateLimitConfigurationResponseSchema,
        (ctx) =>
          create(clob.QueryBlockRateLimitConfigurationResponseSchema, {
            blockRateLimitConfig: rateLimitConfig(ctx.store(CLOB)),
          }),
      ),
      "/perpx.clob.v1.Query/LiquidationsConfiguration": queryHandler(
        clob.QueryLiquidationsConfigurationRequestSchema,
        clob.QueryLiquidationsConfigurationResponseSchema,
        (ctx) => {
          const bytes = ctx.store(CLOB).get("liquidations_config");
          return create(clob.QueryLiquidationsConfigurationResponseSchema, {
            liquidationsConfig:
              bytes === undefined ? create(clob.LiquidationsConfigSchema) : fromBinaryLiquidations(bytes),
          });
        },
      ),
      "/perpx.clob.v1.Query/StatefulOrder": queryHandler(
        clob.QueryStatefulOrderRequestSchema,
        clob.QueryStatefulOrderResponseSchema,
        (ctx, req) => {
          const stored =
            (req.orderId?.orderFlags ?? 0) === 0
              ? undefined
              : getOrder(ctx.store(CLOB), orderKey(req.orderId));
          if (stored === undefined) throw notFound("not found");
          return create(clob.QueryStatefulOrderResponseSchema, {
            orderPlacement: {
              order: stored.order,
              placementIndex: { blockHeight: Number(stored.height), transactionIndex: stored.txIndex },
            },
            fillAmount: stored.filled,
            triggered: stored.triggered,
          });
        },
      ),
      "/perpx.clob.v1.Query/NextClobPairId": queryHandler(
        clob.QueryNextClobPairIdRequestSchema,
        clob.QueryNextClobPairIdResponseSchema,
        (ctx) => {
          const pairs = allPairs(ctx.store(CLOB));
          const next = pairs.reduce((max, p) => Math.max(max, p.id + 1), 0);
          return create(clob.QueryNextClobPairIdResponseSchema, { nextClobPairId: next });
        },
      ),
      "/perpx.clob.v1.Query/Leverage": queryHandler(
        clob.QueryLeverageRequestSchema,
        clob.QueryLeverageResponseSchema,
        (ctx, req) => {
          const prefix = `lev/${req.owner}/${padKey(req.number, 10)}/`;
          const entries = [...ctx.store(CLOB).entries(prefix)].map(([key, value]) =>
            create(clob.ClobPairLeverageInfoSchema, {
              clobPairId: Number(key.slice(prefix.length)),
              customImfPpm: Number(decodeU64(value)),
            }),
          );
          return create(clob.QueryLeverageResponseSchema, { clobPairLeverage: entries });
        },
      ),
    },
  };
}

import { fromBinary } from "@bufbuild/protobuf";

function fromBinaryLiquidations(bytes: Uint8Array): clob.LiquidationsConfig {
  return fromBinary(clob.LiquidationsConfigSchema, bytes);
}
