/**
 * ICS-20 escrow as ibc-go keeps it: coins of this chain sent over a channel wait in that channel's
 * escrow account (`sha256("ics20-1" ‖ 0x00 ‖ "<port>/<channel>")[:20]`) until they come back, and
 * the total held in escrow per denom is counted; with the `EscrowAddress` and `TotalEscrowForDenom`
 * queries of `ibc.applications.transfer.v1.Query`.
 *
 * Store slice `ibc/`: `total_escrow/<denom>`: u256 big-endian.
 */
import { create } from "@bufbuild/protobuf";
import { sha256 } from "@noble/hashes/sha2.js";
import { ibcTransfer } from "@perpx/proto";
import { invalidArgument, notFound, type QueryHandler, queryHandler } from "../../kernel/module.js";
import { bech32Of } from "../../lib/addresses.js";
import { decodeUint, encodeU256, utf8 } from "../../lib/codec.js";
import type { StoreAccess } from "../auth/auth.js";

const IBC = "ibc";
/** The ICS-20 application version, part of the escrow address preimage. */
const ICS20_VERSION = "ics20-1";

/** The 20-byte escrow account of a channel end. */
export function escrowAddress(portId: string, channelId: string): Uint8Array {
  const version = utf8(ICS20_VERSION);
  const contents = utf8(`${portId}/${channelId}`);
  const preimage = new Uint8Array(version.length + 1 + contents.length);
  preimage.set(version, 0);
  preimage.set(contents, version.length + 1);
  return sha256(preimage).subarray(0, 20);
}

/** The amount of `denom` in escrow over every channel. */
export function totalEscrow(ctx: StoreAccess, denom: string): bigint {
  const bytes = ctx.store(IBC).get(`total_escrow/${denom}`);
  return bytes === undefined ? 0n : decodeUint(bytes);
}

/**
 * Adds `delta` (negative when coins leave escrow) to the escrow total of `denom`; never below zero
 * (coins put in an escrow account through devnet control were never counted).
 */
export function addTotalEscrow(ctx: StoreAccess, denom: string, delta: bigint): void {
  const next = totalEscrow(ctx, denom) + delta;
  if (next <= 0n) ctx.store(IBC).delete(`total_escrow/${denom}`);
  else ctx.store(IBC).set(`total_escrow/${denom}`, encodeU256(next));
}

const IDENTIFIER = /^[a-zA-Z0-9._+\-#[\]<>]{2,128}$/;

/** The escrow queries of `ibc.applications.transfer.v1.Query`, by gRPC method path. */
export function escrowQueries(): Record<string, QueryHandler> {
  const Q = "/ibc.applications.transfer.v1.Query";
  return {
    [`${Q}/EscrowAddress`]: queryHandler(
      () => ibcTransfer.QueryEscrowAddressRequestSchema,
      () => ibcTransfer.QueryEscrowAddressResponseSchema,
      (ctx, req) => {
        if (!IDENTIFIER.test(req.portId))
          throw invalidArgument(`invalid port ID: ${JSON.stringify(req.portId)}`);
        if (!IDENTIFIER.test(req.channelId)) {
          throw invalidArgument(`invalid channel ID: ${JSON.stringify(req.channelId)}`);
        }
        if (!ctx.store(IBC).has(`channel/${req.portId}/${req.channelId}`)) {
          throw notFound(`port-id: ${req.portId}, channel-id: ${req.channelId}: channel not found`);
        }
        return create(ibcTransfer.QueryEscrowAddressResponseSchema, {
          escrowAddress: bech32Of(escrowAddress(req.portId, req.channelId)),
        });
      },
    ),
    [`${Q}/TotalEscrowForDenom`]: queryHandler(
      () => ibcTransfer.QueryTotalEscrowForDenomRequestSchema,
      () => ibcTransfer.QueryTotalEscrowForDenomResponseSchema,
      (ctx, req) => {
        if (!/^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/.test(req.denom)) {
          throw invalidArgument(`invalid denom: ${JSON.stringify(req.denom)}`);
        }
        return create(ibcTransfer.QueryTotalEscrowForDenomResponseSchema, {
          amount: { denom: req.denom, amount: totalEscrow(ctx, req.denom).toString() },
        });
      },
    ),
  };
}
