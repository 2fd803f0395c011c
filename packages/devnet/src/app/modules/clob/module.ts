/**
 * The clob module: short-term, long-term and conditional orders, the memclob, the proposer's
 * operations, cancels, batch cancels, expiry, triggers, block rate limits, equity tiers,
 * leverage, and the queries.
 *
 * The life of an order is the real chain's (chain-protocol.md 1.11). A short-term place, cancel or
 * batch cancel runs at CheckTx against the memclob (`memclob.ts`): the answer is final and the tx
 * never enters a block; the fills it makes are queued (`operations.ts`) and reach state through the
 * `MsgProposedOperations` the proposer puts at the head of the next block. A stateful order is
 * checked at CheckTx and again at delivery, stored by its tx (`stateful.ts`), and enters the book
 * after its block commits; its matches and removals travel in the next block's operations.
 *
 * The memclob lives in the module's store slice as memclob keys (`isMemclobKey` in `state.ts`):
 * kept beside the committed state, outside the app hash and the exported state, rolled back with a
 * failed step like any key. CheckTx writes them through to the node's state at once.
 */

import { create } from "@bufbuild/protobuf";
import { clob } from "@perpx/proto";
import { DevnetError } from "../../../devnet-error.js";
import {
  type Context,
  genesisJson,
  type Module,
  msgHandler,
  notFound,
  packAny,
  packWire,
  queryHandler,
  type TxPolicy,
} from "../../kernel/module.js";
import type { DecodedTx } from "../../kernel/tx.js";
import { decodeU64, encodeU64, utf8 } from "../../lib/codec.js";
import { abciError, sdkErrors } from "../../lib/errors.js";
import { paginate } from "../../lib/pagination.js";
import { wireCreate, wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import {
  BATCH_CANCEL_URL as BATCH,
  CANCEL_ORDER_URL as CANCEL,
  UPDATE_LEVERAGE_URL as LEVERAGE,
  PLACE_ORDER_URL as PLACE,
} from "../msg-type-urls.js";
import type { ProtoRecord } from "../records.js";
import { padKey } from "../records.js";
import { endBlock } from "./endblock.js";
import type { ClobKeepers } from "./engine.js";
import { clobErrors } from "./errors.js";
import { updateLeverage } from "./leverage.js";
import { equityTierConfig, rateLimitConfig } from "./limits.js";
import { runLiquidations } from "./liquidation.js";
import { type DaemonLiquidationInfo, NO_DAEMON_INFO, readDaemonInfo } from "./liquidation-daemon.js";
import { clearLiquidationInfo } from "./liquidation-fill.js";
import {
  batchCancelShortTerm,
  cancelShortTerm,
  placeNewStatefulOrders,
  placeShortTerm,
  rebuildBook,
} from "./memclob.js";
import { deliverOperations, type PlacementVerifier } from "./operations.js";
import { takeOperations } from "./operations-queue.js";
import {
  BATCH_CANCEL_WEIGHT,
  type BlockRateLimiter,
  createBlockRateLimiter,
  limitsOfKind,
  longestWindow,
  type RateLimitKind,
} from "./rate-limiter.js";
import { allPairs, CLOB, getOrder, getPair, isMemclobKey, keys, orderKey } from "./state.js";
import { cancelStateful, placeStateful } from "./stateful.js";
import { cancelTwap, placeTwap } from "./twap.js";
import { checkClobTx, clobTxPolicy, isClobTx } from "./tx-rules.js";
import {
  ORDER_FLAGS,
  orderKind,
  validateAgainstPair,
  validateBatchCancelBasic,
  validateCancelBasic,
  validateGoodTil,
  validateOrderBasic,
  validateTrigger,
} from "./validate.js";

/**
 * The relaxations of a clob tx whose messages are all short-term (no fee, gas or sequence; CheckTx
 * runs the messages and the tx never enters a block), and of any other clob tx: {@link clobTxPolicy}'s,
 * with CheckTx running the messages. Two constants, not objects spread per tx.
 */
const SHORT_TERM_POLICY: Readonly<Partial<TxPolicy>> = Object.freeze({
  chargeFees: false,
  checkSequence: false,
  meterGas: false,
  checkRunsMessages: true,
  enterBlock: false,
});
const STATEFUL_POLICY: Readonly<Partial<TxPolicy>> = Object.freeze({
  chargeFees: false,
  meterGas: false,
  checkRunsMessages: true,
});

/** The height a tx's orders are placed in, and the previous block's time (seconds). */
function windowOf(ctx: Context): { nextHeight: bigint; previousBlockTimeSeconds: bigint } {
  if (ctx.mode === "deliver") {
    const last = ctx.store(CLOB).get(keys.lastTime);
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
  validateTrigger(order, pair);
  return pair;
}

function checkCancelWindow(ctx: Context, msg: clob.MsgCancelOrder): void {
  const flags = msg.orderId?.orderFlags ?? 0;
  orderKind(flags);
  if (flags === ORDER_FLAGS.shortTerm) {
    if (msg.goodTilOneof.case !== "goodTilBlock" || msg.goodTilOneof.value === 0) {
      throw abciError(clobErrors.invalidOrderGoodTilBlock, "short-term cancels need a GoodTilBlock");
    }
  } else if (msg.goodTilOneof.case !== "goodTilBlockTime" || msg.goodTilOneof.value === 0) {
    throw abciError(clobErrors.invalidGoodTilBlockTime, "stateful cancels need a GoodTilBlockTime");
  }
  validateGoodTil(msg, windowOf(ctx), flags !== ORDER_FLAGS.shortTerm);
}

/**
 * The real chain's clob rate-limit decorator (`rate-limiter.ts`), at CheckTx only (not at
 * ReCheckTx, simulation or delivery), after the signatures and the sequence: a short-term place or
 * cancel counts 1 and a batch cancel 2 against the short-term limit, a stateful place 1 against the
 * stateful limit, a leverage update 1 against the leverage limit; a stateful cancel is not counted.
 * A message on an unknown pair is not counted (its validation refuses it), and a short-term one
 * with a bad good-til-block is refused before it is counted.
 */
function rateLimit(ctx: Context, limiter: BlockRateLimiter, tx: DecodedTx): void {
  if (ctx.mode !== "check" || ctx.recheck === true) return;
  const store = ctx.store(CLOB);
  const config = rateLimitConfig(store);
  const height = ctx.block.height;
  const window = windowOf(ctx);
  const count = (kind: RateLimitKind, key: string, weight: bigint) => {
    const refused = limiter.count(kind, key, height, weight, limitsOfKind(config, kind));
    if (refused !== undefined) throw refused;
  };
  const goodTilBlock = (value: number) =>
    validateGoodTil({ goodTilOneof: { case: "goodTilBlock", value } }, window);
  for (const m of tx.msgs) {
    if (m.typeUrl === PLACE) {
      const order = (m.msg as clob.MsgPlaceOrder).order ?? create(clob.OrderSchema);
      const owner = order.orderId?.subaccountId?.owner ?? "";
      if (getPair(store, order.orderId?.clobPairId ?? 0) === undefined) continue;
      if ((order.orderId?.orderFlags ?? 0) === ORDER_FLAGS.shortTerm) {
        goodTilBlock(order.goodTilOneof.case === "goodTilBlock" ? order.goodTilOneof.value : 0);
        count("shortTerm", owner, 1n);
      } else {
        count("stateful", owner, 1n);
      }
    } else if (m.typeUrl === CANCEL) {
      const msg = m.msg as clob.MsgCancelOrder;
      if (getPair(store, msg.orderId?.clobPairId ?? 0) === undefined) continue;
      if ((msg.orderId?.orderFlags ?? 0) !== ORDER_FLAGS.shortTerm) continue;
      goodTilBlock(msg.goodTilOneof.case === "goodTilBlock" ? msg.goodTilOneof.value : 0);
      count("shortTerm", msg.orderId?.subaccountId?.owner ?? "", 1n);
    } else if (m.typeUrl === BATCH) {
      const msg = m.msg as clob.MsgBatchCancel;
      if (msg.shortTermCancels.some((batch) => getPair(store, batch.clobPairId) === undefined)) continue;
      goodTilBlock(msg.goodTilBlock);
      count("shortTerm", msg.subaccountId?.owner ?? "", BATCH_CANCEL_WEIGHT);
    } else if (m.typeUrl === LEVERAGE) {
      const msg = m.msg as clob.MsgUpdateLeverage;
      const owner = msg.subaccountId?.owner ?? "";
      if (owner === "") throw abciError(clobErrors.invalidLeverage, "subaccount ID cannot be empty");
      count("leverage", owner, 1n);
    }
  }
}

/** The clob decorator's checks of a tx's orders and cancels (after the rate limits). */
function clobChecks(ctx: Context, tx: DecodedTx): void {
  for (const m of tx.msgs) {
    if (m.typeUrl === PLACE)
      checkPlacement(ctx, (m.msg as clob.MsgPlaceOrder).order ?? create(clob.OrderSchema));
    else if (m.typeUrl === CANCEL) checkCancelWindow(ctx, m.msg as clob.MsgCancelOrder);
  }
}

function placeOrder(ctx: Context, keepers: ClobKeepers, order: clob.Order): void {
  const pair = checkPlacement(ctx, order);
  const flags = order.orderId?.orderFlags ?? 0;
  if (flags === ORDER_FLAGS.shortTerm) placeShortTerm(ctx, keepers, order, pair, ctx.txBytes);
  else if (flags === ORDER_FLAGS.twap) placeTwap(ctx, keepers, order, pair);
  else placeStateful(ctx, keepers, order, pair);
}

function cancelOrder(ctx: Context, keepers: ClobKeepers, msg: clob.MsgCancelOrder): void {
  checkCancelWindow(ctx, msg);
  if ((msg.orderId?.orderFlags ?? 0) === ORDER_FLAGS.shortTerm) {
    cancelShortTerm(ctx, keepers, msg.orderId, BigInt(msg.goodTilOneof.value ?? 0));
  } else if (msg.orderId?.orderFlags === ORDER_FLAGS.twap) {
    cancelTwap(ctx, msg.orderId);
  } else {
    cancelStateful(ctx, keepers, msg.orderId);
  }
}

function batchCancel(
  ctx: Context,
  keepers: ClobKeepers,
  msg: clob.MsgBatchCancel,
): clob.MsgBatchCancelResponse {
  validateGoodTil({ goodTilOneof: { case: "goodTilBlock", value: msg.goodTilBlock } }, windowOf(ctx));
  return batchCancelShortTerm(ctx, keepers, msg);
}

/** The order of a short-term placement carried by proposed operations, its signature verified. */
function placementVerifier(ctx: Context): PlacementVerifier {
  return (bytes) => {
    if (ctx.verifyTx === undefined)
      throw new DevnetError("misconfigured", "proposed operations need the app's tx verifier");
    const tx = ctx.verifyTx(bytes);
    const m = tx.msgs[0];
    const order = m?.typeUrl === PLACE ? (m.msg as clob.MsgPlaceOrder).order : undefined;
    if (tx.msgs.length !== 1 || order?.orderId?.orderFlags !== ORDER_FLAGS.shortTerm) {
      throw abciError(
        clobErrors.invalidMsgProposedOperations,
        "a placement operation must be one short-term MsgPlaceOrder",
      );
    }
    return order;
  };
}

/** The clob module over the exchange keepers; `records` are its genesis records (pairs, configs). */
export function createClobModule(keepers: ClobKeepers, records: readonly ProtoRecord[]): Module {
  const limiter = createBlockRateLimiter();
  let daemon: DaemonLiquidationInfo = NO_DAEMON_INFO;
  return {
    name: CLOB,
    msgs: [
      msgHandler({
        typeUrl: "/perpx.clob.v1.MsgPlaceOrder",
        schema: () => clob.MsgPlaceOrderSchema,
        signers: (msg) => [msg.order?.orderId?.subaccountId?.owner ?? ""],
        validate: (msg) => validateOrderBasic(msg.order ?? create(clob.OrderSchema)),
        execute(ctx, msg) {
          placeOrder(ctx, keepers, msg.order ?? create(clob.OrderSchema));
          return packAny(clob.MsgPlaceOrderResponseSchema, create(clob.MsgPlaceOrderResponseSchema));
        },
      }),
      msgHandler({
        typeUrl: "/perpx.clob.v1.MsgCancelOrder",
        schema: () => clob.MsgCancelOrderSchema,
        signers: (msg) => [msg.orderId?.subaccountId?.owner ?? ""],
        validate: validateCancelBasic,
        execute(ctx, msg) {
          cancelOrder(ctx, keepers, msg);
          return packAny(clob.MsgCancelOrderResponseSchema, create(clob.MsgCancelOrderResponseSchema));
        },
      }),
      msgHandler({
        typeUrl: "/perpx.clob.v1.MsgBatchCancel",
        schema: () => clob.MsgBatchCancelSchema,
        signers: (msg) => [msg.subaccountId?.owner ?? ""],
        validate: validateBatchCancelBasic,
        execute: (ctx, msg) => packAny(clob.MsgBatchCancelResponseSchema, batchCancel(ctx, keepers, msg)),
      }),
      msgHandler({
        typeUrl: "/perpx.clob.v1.MsgProposedOperations",
        schema: () => clob.MsgProposedOperationsSchema,
        signers: () => [],
        validate: () => {
          throw abciError(
            sdkErrors.invalidRequest,
            "MsgProposedOperations is injected by the block proposer and cannot be in a transaction",
          );
        },
        execute(ctx, msg) {
          deliverOperations(ctx, keepers, msg, placementVerifier(ctx));
          const response = wire.perpx_clob_v1_MsgProposedOperationsResponse;
          return packWire(response, wireCreate(response));
        },
      }),
      msgHandler({
        typeUrl: "/perpx.clob.v1.MsgUpdateLeverage",
        schema: () => clob.MsgUpdateLeverageSchema,
        signers: (msg) => [msg.subaccountId?.owner ?? ""],
        execute(ctx, msg) {
          updateLeverage(ctx, keepers, msg);
          return packAny(clob.MsgUpdateLeverageResponseSchema, create(clob.MsgUpdateLeverageResponseSchema));
        },
      }),
    ],
    // chain-protocol.md 1.6 and 1.8 (`tx-rules.ts`): a clob tx is fee-free; `anteChecks` refuses
    // one whose messages break the rules. CheckTx runs its messages (1.11: the memclob answers a
    // short-term order there, and checks a stateful one fully); a short-term one never enters a block.
    txPolicy(typeUrls, msgs) {
      const policy = clobTxPolicy(typeUrls.map((typeUrl, i) => ({ typeUrl, msg: msgs[i] })));
      if (policy === undefined) return undefined;
      return policy.checkSequence === false ? SHORT_TERM_POLICY : STATEFUL_POLICY;
    },
    volatileKey: isMemclobKey,
    proposeMessages: (ctx) => [takeOperations(ctx.store(CLOB))],
    // The liquidation daemon reads the committed state before each block; the pass after the
    // block's commit works from that reading (the state of the block before), as on the chain.
    beforeBlock: (ctx) => {
      daemon = readDaemonInfo(ctx, keepers);
    },
    afterCommit: (ctx) => {
      placeNewStatefulOrders(ctx, keepers);
      runLiquidations(ctx, keepers, daemon);
    },
    afterRestore: rebuildBook,
    authenticateSigner(ctx, { tx, index }) {
      if (index === 0 && isClobTx(tx.msgs)) {
        checkClobTx(tx.msgs, tx.body.timeoutHeight, ctx.mode === "simulate");
      }
      return false;
    },
    afterAnte(ctx, tx) {
      if (!isClobTx(tx.msgs)) return;
      rateLimit(ctx, limiter, tx);
      clobChecks(ctx, tx);
    },
    initGenesis(ctx) {
      const store = ctx.store(CLOB);
      for (const r of records) store.set(r.key, wireEncode(r.table, r.value));
      store.set(keys.lastTime, encodeU64(ctx.block.timeMs));
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
    endBlock(ctx) {
      endBlock(ctx, keepers);
      clearLiquidationInfo(ctx);
      limiter.prune(ctx.block.height, longestWindow(rateLimitConfig(ctx.store(CLOB))));
    },
    queries: {
      "/perpx.clob.v1.Query/ClobPair": queryHandler(
        () => clob.QueryGetClobPairRequestSchema,
        () => clob.QueryClobPairResponseSchema,
        (ctx, req) => {
          const pair = getPair(ctx.store(CLOB), req.id);
          if (pair === undefined) throw notFound("not found");
          return create(clob.QueryClobPairResponseSchema, { clobPair: pair });
        },
      ),
      "/perpx.clob.v1.Query/ClobPairAll": queryHandler(
        () => clob.QueryAllClobPairRequestSchema,
        () => clob.QueryClobPairAllResponseSchema,
        (ctx, req) => {
          const items = allPairs(ctx.store(CLOB)).map((p) => ({ key: utf8(padKey(p.id, 10)), value: p }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(clob.QueryClobPairAllResponseSchema, { clobPair: page, pagination });
        },
      ),
      "/perpx.clob.v1.Query/EquityTierLimitConfiguration": queryHandler(
        () => clob.QueryEquityTierLimitConfigurationRequestSchema,
        () => clob.QueryEquityTierLimitConfigurationResponseSchema,
        (ctx) =>
          create(clob.QueryEquityTierLimitConfigurationResponseSchema, {
            equityTierLimitConfig: equityTierConfig(ctx.store(CLOB)),
          }),
      ),
      "/perpx.clob.v1.Query/BlockRateLimitConfiguration": queryHandler(
        () => clob.QueryBlockRateLimitConfigurationRequestSchema,
        () => clob.QueryBlockRateLimitConfigurationResponseSchema,
        (ctx) =>
          create(clob.QueryBlockRateLimitConfigurationResponseSchema, {
            blockRateLimitConfig: rateLimitConfig(ctx.store(CLOB)),
          }),
      ),
      "/perpx.clob.v1.Query/LiquidationsConfiguration": queryHandler(
        () => clob.QueryLiquidationsConfigurationRequestSchema,
        () => clob.QueryLiquidationsConfigurationResponseSchema,
        (ctx) => {
          const bytes = ctx.store(CLOB).get(keys.liquidationsConfig);
          return create(clob.QueryLiquidationsConfigurationResponseSchema, {
            liquidationsConfig:
              bytes === undefined ? create(clob.LiquidationsConfigSchema) : fromBinaryLiquidations(bytes),
          });
        },
      ),
      "/perpx.clob.v1.Query/StatefulOrder": queryHandler(
        () => clob.QueryStatefulOrderRequestSchema,
        () => clob.QueryStatefulOrderResponseSchema,
        (ctx, req) => {
          const stored =
            (req.orderId?.orderFlags ?? 0) === ORDER_FLAGS.shortTerm
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
        () => clob.QueryNextClobPairIdRequestSchema,
        () => clob.QueryNextClobPairIdResponseSchema,
        (ctx) => {
          const pairs = allPairs(ctx.store(CLOB));
          const next = pairs.reduce((max, p) => Math.max(max, p.id + 1), 0);
          return create(clob.QueryNextClobPairIdResponseSchema, { nextClobPairId: next });
        },
      ),
      "/perpx.clob.v1.Query/Leverage": queryHandler(
        () => clob.QueryLeverageRequestSchema,
        () => clob.QueryLeverageResponseSchema,
        (ctx, req) => {
          const prefix = keys.leveragePrefix(req.owner, req.number);
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
