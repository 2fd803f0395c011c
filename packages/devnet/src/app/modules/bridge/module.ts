/**
 * The x/bridge module around its keeper (`keeper.ts`): genesis records, the messages (withdrawals,
 * the delayed completion, governance parameters), the begin- and end-block steps of the deposit
 * and withdrawal lifecycles, the devnet's `deposit` control operation and the queries.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { bridge } from "@perpx/proto";
import { bridgeRecords, type ChainConfig } from "../../genesis/genesis.js";
import { GOV_AUTHORITY, requireGovAuthority } from "../../kernel/governance.js";
import {
  emptyResponse,
  type Module,
  msgHandler,
  notFound,
  packAny,
  type QueryContext,
  queryHandler,
} from "../../kernel/module.js";
import { bech32Of } from "../../lib/addresses.js";
import { utf8 } from "../../lib/codec.js";
import { parseAmount } from "../../lib/coins.js";
import { abciError, sdkErrors } from "../../lib/errors.js";
import { paginate } from "../../lib/pagination.js";
import { textField, uintField } from "../../lib/request-fields.js";
import type { AuthKeeper } from "../auth/auth.js";
import { createRecordsModule, padKey, readRecord, readRecords } from "../records.js";

import {
  BRIDGE,
  BRIDGE_DEVNET_PARAMS,
  type BridgeKeeper,
  bridgeErrors,
  DELAYMSG_AUTHORITY,
  eventKey,
} from "./keeper.js";

function chainOf(ctx: QueryContext, keeper: BridgeKeeper, requested: bigint): bigint {
  if (requested !== 0n) return requested;
  return keeper.eventParams(ctx)[0]?.ethChainId ?? 0n;
}

/** The bridge module over its genesis records (see `records.ts`). */
export function createBridgeModule(config: ChainConfig, keeper: BridgeKeeper, auth: AuthKeeper): Module {
  const base = createRecordsModule({ name: BRIDGE, records: bridgeRecords(config) });
  return {
    ...base,
    beginBlock(ctx) {
      keeper.advanceDeposits(ctx);
    },
    endBlock(ctx) {
      keeper.signWithdrawals(ctx, config.profile);
    },
    msgs: [
      msgHandler({
        typeUrl: "/perpx.bridge.v1.MsgInitiateWithdrawal",
        schema: () => bridge.MsgInitiateWithdrawalSchema,
        signers: (msg) => [msg.sender],
        validate(msg) {
          if (!/^0x[0-9a-fA-F]{40}$/.test(msg.recipient)) {
            throw abciError(bridgeErrors.invalidWithdrawal, `recipient ${msg.recipient} is not a 0x address`);
          }
          const amount = parseAmount(msg.coin?.amount ?? "");
          if (amount === undefined || amount <= 0n) {
            throw abciError(sdkErrors.invalidCoins, `amount ${msg.coin?.amount ?? ""} must be positive`);
          }
        },
        execute(ctx, msg) {
          const withdrawalId = keeper.initiateWithdrawal(ctx, msg);
          return packAny(
            bridge.MsgInitiateWithdrawalResponseSchema,
            create(bridge.MsgInitiateWithdrawalResponseSchema, { withdrawalId }),
          );
        },
      }),
      msgHandler({
        typeUrl: "/perpx.bridge.v1.MsgAcknowledgeBridges",
        schema: () => bridge.MsgAcknowledgeBridgesSchema,
        signers: () => [],
        execute() {
          throw abciError(bridgeErrors.notAllowed, "MsgAcknowledgeBridges is injected by the block proposer");
        },
      }),
      msgHandler({
        typeUrl: "/perpx.bridge.v1.MsgCompleteBridge",
        schema: () => bridge.MsgCompleteBridgeSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          if (msg.authority !== DELAYMSG_AUTHORITY(auth) && msg.authority !== GOV_AUTHORITY) {
            throw abciError(bridgeErrors.invalidAuthority, `invalid authority ${msg.authority}`);
          }
          keeper.complete(ctx, msg);
          return emptyResponse(bridge.MsgCompleteBridgeResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.bridge.v1.MsgUpdateEventParams",
        schema: () => bridge.MsgUpdateEventParamsSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, bridgeErrors.invalidAuthority);
          const p = msg.params;
          if (p === undefined || p.ethChainId === 0n || p.denom === "") {
            throw abciError(bridgeErrors.invalidEventParams, "params need a denom and an eth_chain_id");
          }
          ctx
            .store(BRIDGE)
            .set(`event_params/${padKey(p.ethChainId, 20)}`, toBinary(bridge.EventParamsSchema, p));
          return emptyResponse(bridge.MsgUpdateEventParamsResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.bridge.v1.MsgUpdateProposeParams",
        schema: () => bridge.MsgUpdateProposeParamsSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, bridgeErrors.invalidAuthority);
          ctx
            .store(BRIDGE)
            .set(
              "propose_params",
              toBinary(bridge.ProposeParamsSchema, msg.params ?? create(bridge.ProposeParamsSchema)),
            );
          return emptyResponse(bridge.MsgUpdateProposeParamsResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/perpx.bridge.v1.MsgUpdateSafetyParams",
        schema: () => bridge.MsgUpdateSafetyParamsSchema,
        signers: (msg) => [msg.authority],
        execute(ctx, msg) {
          requireGovAuthority(msg.authority, bridgeErrors.invalidAuthority);
          ctx
            .store(BRIDGE)
            .set(
              "safety_params",
              toBinary(bridge.SafetyParamsSchema, msg.params ?? create(bridge.SafetyParamsSchema)),
            );
          return emptyResponse(bridge.MsgUpdateSafetyParamsResponseSchema);
        },
      }),
    ],
    queries: {
      "/perpx.bridge.v1.Query/EventParams": queryHandler(
        () => bridge.QueryEventParamsRequestSchema,
        () => bridge.QueryEventParamsResponseSchema,
        (ctx, req) => {
          const all = keeper.eventParams(ctx);
          const chain = chainOf(ctx, keeper, req.ethChainId);
          const params = all.find((p) => p.ethChainId === chain);
          if (params === undefined) throw notFound(`event params of eth chain ${req.ethChainId} not found`);
          return create(bridge.QueryEventParamsResponseSchema, { params, allParams: all });
        },
      ),
      "/perpx.bridge.v1.Query/ProposeParams": queryHandler(
        () => bridge.QueryProposeParamsRequestSchema,
        () => bridge.QueryProposeParamsResponseSchema,
        (ctx) => create(bridge.QueryProposeParamsResponseSchema, { params: keeper.propose(ctx) }),
      ),
      "/perpx.bridge.v1.Query/SafetyParams": queryHandler(
        () => bridge.QuerySafetyParamsRequestSchema,
        () => bridge.QuerySafetyParamsResponseSchema,
        (ctx) => create(bridge.QuerySafetyParamsResponseSchema, { params: keeper.safety(ctx) }),
      ),
      "/perpx.bridge.v1.Query/AcknowledgedEventInfo": queryHandler(
        () => bridge.QueryAcknowledgedEventInfoRequestSchema,
        () => bridge.QueryAcknowledgedEventInfoResponseSchema,
        (ctx, req) =>
          create(bridge.QueryAcknowledgedEventInfoResponseSchema, {
            info: keeper.info(ctx, "acknowledged", chainOf(ctx, keeper, req.ethChainId)),
            allInfos: keeper.eventParams(ctx).map((p) => keeper.info(ctx, "acknowledged", p.ethChainId)),
          }),
      ),
      "/perpx.bridge.v1.Query/RecognizedEventInfo": queryHandler(
        () => bridge.QueryRecognizedEventInfoRequestSchema,
        () => bridge.QueryRecognizedEventInfoResponseSchema,
        (ctx, req) =>
          create(bridge.QueryRecognizedEventInfoResponseSchema, {
            info: keeper.info(ctx, "recognized", chainOf(ctx, keeper, req.ethChainId)),
            allInfos: keeper.eventParams(ctx).map((p) => keeper.info(ctx, "recognized", p.ethChainId)),
          }),
      ),
      "/perpx.bridge.v1.Query/DelayedCompleteBridgeMessages": queryHandler(
        () => bridge.QueryDelayedCompleteBridgeMessagesRequestSchema,
        () => bridge.QueryDelayedCompleteBridgeMessagesResponseSchema,
        (ctx, req) =>
          create(bridge.QueryDelayedCompleteBridgeMessagesResponseSchema, {
            messages: [...ctx.store(BRIDGE).entries("delayed/")]
              .map(([key, bytes]) =>
                create(bridge.DelayedCompleteBridgeMessageSchema, {
                  message: fromBinary(bridge.MsgCompleteBridgeSchema, bytes),
                  blockHeight: Number(key.split("/")[1]),
                }),
              )
              .filter((m) => req.address === "" || m.message?.event?.address === req.address),
          }),
      ),
      "/perpx.bridge.v1.Query/BridgeEvents": queryHandler(
        () => bridge.QueryBridgeEventsRequestSchema,
        () => bridge.QueryBridgeEventsResponseSchema,
        (ctx, req) => {
          const items = keeper
            .records(ctx)
            .filter(
              (r) =>
                (req.ethChainId === undefined || r.event?.ethChainId === req.ethChainId) &&
                (req.address === "" || r.event?.address === req.address),
            )
            .map((r) => ({ key: utf8(eventKey(r.event?.ethChainId ?? 0n, r.event?.id ?? 0)), value: r }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(bridge.QueryBridgeEventsResponseSchema, { events: page, pagination });
        },
      ),
      "/perpx.bridge.v1.Query/AggregatedWithdrawals": queryHandler(
        () => bridge.QueryAggregatedWithdrawalsRequestSchema,
        () => bridge.QueryAggregatedWithdrawalsResponseSchema,
        (ctx, req) => {
          const items = readRecords(ctx, BRIDGE, "withdrawal/", bridge.AggregatedWithdrawalSchema)
            .filter(
              ({ value }) =>
                (req.ethChainId === undefined || value.withdrawal?.ethChainId === req.ethChainId) &&
                (!req.readyForRelayOnly || value.readyForRelay),
            )
            .map(({ key, value }) => ({ key: utf8(key), value }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(bridge.QueryAggregatedWithdrawalsResponseSchema, { withdrawals: page, pagination });
        },
      ),
      "/perpx.bridge.v1.Query/AggregatedWithdrawal": queryHandler(
        () => bridge.QueryAggregatedWithdrawalRequestSchema,
        () => bridge.QueryAggregatedWithdrawalResponseSchema,
        (ctx, req) => {
          const withdrawal = readRecord(
            ctx,
            BRIDGE,
            `withdrawal/${padKey(req.withdrawalId, 20)}`,
            bridge.AggregatedWithdrawalSchema,
          );
          if (withdrawal === undefined) throw notFound(`withdrawal ${req.withdrawalId} not found`);
          return create(bridge.QueryAggregatedWithdrawalResponseSchema, { withdrawal });
        },
      ),
    },
    control: {
      "source-log"(ctx, request) {
        const ethChainId = uintField(request, "ethChainId");
        const r = keeper.observe(
          ctx,
          {
            ethChainId,
            bridgeAddress: textField(request, "bridgeContract"),
            tokenAddress: textField(request, "token"),
            sender: textField(request, "sender"),
            address: textField(request, "address"),
            amount: uintField(request, "amount"),
            sourceBlock: uintField(request, "sourceBlock"),
            txHash: textField(request, "txHash"),
          },
          "source",
        );
        return { ethChainId: ethChainId.toString(), id: r.event?.id ?? 0 };
      },
      "source-final"(ctx, request) {
        keeper.markSourceFinal(ctx, uintField(request, "ethChainId"), Number(uintField(request, "id")));
        return {};
      },
      deposit(ctx, request) {
        const chains = keeper.eventParams(ctx);
        const chainName = request.chain;
        let ethChainId: bigint;
        if (typeof chainName === "string" && !/^\d+$/.test(chainName)) {
          const found = config.bridgeChains.find((c) => c.name === chainName);
          if (found === undefined) {
            throw abciError(
              bridgeErrors.unknownChain,
              `${chainName}; source chains: ${config.bridgeChains.map((c) => c.name).join(", ")}`,
            );
          }
          ethChainId = found.ethChainId;
        } else {
          ethChainId = uintField(request, "ethChainId", { fallback: chains[0]?.ethChainId ?? 0n });
        }
        const params = chains.find((p) => p.ethChainId === ethChainId);
        const sender = textField(request, "sender");
        const address =
          typeof request.address === "string" && request.address !== ""
            ? request.address
            : /^0x[0-9a-fA-F]{40}$/.test(sender)
              ? bech32Of(Uint8Array.from(Buffer.from(sender.slice(2), "hex")))
              : sender;
        const r = keeper.observe(ctx, {
          ethChainId,
          bridgeAddress: textField(request, "bridgeContract", params?.ethAddress),
          tokenAddress: textField(request, "token", params?.tokenAddress),
          sender,
          address,
          amount: uintField(request, "amount"),
          sourceBlock: uintField(request, "sourceBlock", { fallback: 0n }),
          txHash: typeof request.txHash === "string" ? request.txHash : "",
        });
        const e = r.event as bridge.BridgeEvent;
        return {
          ethChainId: e.ethChainId.toString(),
          id: e.id,
          address: e.address,
          coin: { denom: e.coin?.denom ?? "", amount: e.coin?.amount ?? "0" },
          status: bridge.BridgeEventStatus[r.status],
          observedAtBlock: ctx.block.height.toString(),
          finalAtBlock: (ctx.block.height + BigInt(BRIDGE_DEVNET_PARAMS.finalityBlocks)).toString(),
        };
      },
    },
  };
}
