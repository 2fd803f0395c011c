/**
 * The IBC module's wiring: the channel records of `records.ts`, ICS-20 `MsgTransfer`, the ICS-04
 * packet-state, escrow and denom-trace queries, the simulated relayer's begin-block step, and the
 * devnet control operations (`receive`, `recreate-channel`, and the relayer's of `ibc-relayer.ts`).
 * The state operations are the {@link IbcKeeper}'s (`ibc.ts`).
 */
import { create } from "@bufbuild/protobuf";
import { ibcDenom } from "@perpx/core";
import { ibcTransfer } from "@perpx/proto";
import type { ChainConfig } from "../../genesis/genesis.js";
import { type Module, msgHandler, notFound, packAny, queryHandler } from "../../kernel/module.js";
import { accAddressBytes } from "../../lib/addresses.js";
import { fromUtf8, utf8 } from "../../lib/codec.js";
import { abciError, sdkErrors } from "../../lib/errors.js";
import { paginate } from "../../lib/pagination.js";
import { textField, uintField } from "../../lib/request-fields.js";
import type { StoreAccess } from "../auth/auth.js";
import { createIbcModule, revisionOf } from "../records.js";
import { IBC, type IbcKeeper, ibcErrors, TRANSFER_PORT } from "./ibc.js";
import { escrowQueries } from "./ibc-escrow.js";
import { packetQueries } from "./ibc-packets.js";
import { relayerHooks } from "./ibc-relayer.js";

/** The IBC module of `records.ts`, extended with ICS-20 transfers, traces and devnet controls. */
export function createIbcTransferModule(config: ChainConfig, keeper: IbcKeeper): Module {
  const base = createIbcModule(config.ibc.channels, config.ibc.counterparty);
  const traces = (ctx: StoreAccess) =>
    [...ctx.store(IBC).entries("denom_trace/")].map(([key, bytes]) => {
      const path = fromUtf8(bytes);
      const parts = path.split("/");
      return {
        key: utf8(key),
        value: create(ibcTransfer.DenomTraceSchema, {
          path: parts.slice(0, -1).join("/"),
          baseDenom: parts.at(-1) ?? "",
        }),
      };
    });
  const relayer = relayerHooks(keeper, revisionOf(config.ibc.counterparty.chainId));
  return {
    ...base,
    beginBlock: relayer.beginBlock,
    msgs: [
      msgHandler({
        typeUrl: "/ibc.applications.transfer.v1.MsgTransfer",
        schema: () => ibcTransfer.MsgTransferSchema,
        signers: (msg) => [msg.sender],
        validate(msg) {
          if (msg.token === undefined || !/^\d+$/.test(msg.token.amount) || BigInt(msg.token.amount) <= 0n) {
            throw abciError(ibcErrors.invalidAmount, `amount ${msg.token?.amount ?? ""} must be positive`);
          }
          if (msg.receiver.trim() === "")
            throw abciError(sdkErrors.invalidAddress, "missing recipient address");
        },
        execute(ctx, msg) {
          const from = accAddressBytes(msg.sender, "invalid sender address");
          const sequence = keeper.send(ctx, {
            sourcePort: msg.sourcePort,
            sourceChannel: msg.sourceChannel,
            denom: msg.token?.denom ?? "",
            amount: BigInt(msg.token?.amount ?? "0"),
            from,
            sender: msg.sender,
            receiver: msg.receiver,
            timeoutHeight: {
              revisionNumber: msg.timeoutHeight?.revisionNumber ?? 0n,
              revisionHeight: msg.timeoutHeight?.revisionHeight ?? 0n,
            },
            timeoutTimestamp: msg.timeoutTimestamp,
            memo: msg.memo,
          });
          return packAny(
            ibcTransfer.MsgTransferResponseSchema,
            create(ibcTransfer.MsgTransferResponseSchema, { sequence }),
          );
        },
      }),
    ],
    queries: {
      ...base.queries,
      ...packetQueries(),
      ...escrowQueries(),
      "/ibc.applications.transfer.v1.Query/DenomTraces": queryHandler(
        () => ibcTransfer.QueryDenomTracesRequestSchema,
        () => ibcTransfer.QueryDenomTracesResponseSchema,
        (ctx, req) => {
          const { page, pagination } = paginate(traces(ctx), req.pagination);
          return create(ibcTransfer.QueryDenomTracesResponseSchema, { denomTraces: page, pagination });
        },
      ),
      "/ibc.applications.transfer.v1.Query/DenomTrace": queryHandler(
        () => ibcTransfer.QueryDenomTraceRequestSchema,
        () => ibcTransfer.QueryDenomTraceResponseSchema,
        (ctx, req) => {
          const hash = req.hash.replace(/^ibc\//, "");
          const found = traces(ctx).find((t) => fromUtf8(t.key) === `denom_trace/${hash}`);
          if (found === undefined) throw notFound(`denomination trace not found: ${hash}`);
          return create(ibcTransfer.QueryDenomTraceResponseSchema, { denomTrace: found.value });
        },
      ),
      "/ibc.applications.transfer.v1.Query/DenomHash": queryHandler(
        () => ibcTransfer.QueryDenomHashRequestSchema,
        () => ibcTransfer.QueryDenomHashResponseSchema,
        (_ctx, req) => {
          const parts = req.trace.split("/");
          if (parts.length < 3) throw notFound(`invalid trace ${req.trace}`);
          const hash = ibcDenom(parts[0] as string, parts[1] as string, parts.slice(2).join("/")).slice(4);
          return create(ibcTransfer.QueryDenomHashResponseSchema, { hash });
        },
      ),
    },
    control: {
      ...relayer.control,
      receive(ctx, request) {
        const result = keeper.receive(ctx, {
          portId: textField(request, "port", TRANSFER_PORT),
          channelId: textField(request, "channel"),
          denom: textField(request, "denom"),
          amount: uintField(request, "amount"),
          sender: textField(request, "sender", "counterparty"),
          receiver: accAddressBytes(textField(request, "receiver"), "invalid receiver address"),
        });
        return {
          sequence: result.sequence.toString(),
          voucherDenom: result.voucherDenom,
          creditedDenom: result.creditedDenom,
          wrapped: result.wrapped,
        };
      },
      "recreate-channel"(ctx, request) {
        return keeper.recreateChannel(
          ctx,
          textField(request, "port", TRANSFER_PORT),
          textField(request, "channel"),
        );
      },
    },
  };
}
