/**
 * Modules that only hold genesis records: assets, IBC (client, connection, channel),
 * wrap rules, bridge parameters, rate limits and withdrawal limits, clob rate-limit configuration,
 * and the upgrade history. Each stores protobuf bytes under documented keys of its own slice, so
 * a full module of the same name reads them as they are; these serve the records' queries.
 *
 * Keys (all numeric parts zero-padded so keys sort numerically):
 * - `assets/asset/<id:10>`: `perpx.assets.v1.Asset`
 * - `ibc/channel/<port>/<channel>`: `ibc.core.channel.v1.Channel`; `ibc/chain`: JSON of the
 *   counterparty (client id, connection id, chain id)
 * - `wrap/rule/<port>/<channel>/<source denom>`: `perpx.wrap.v1.WrapRule`
 * - `bridge/event_params/<eth chain id:20>`: `perpx.bridge.v1.EventParams`;
 *   `bridge/propose_params`, `bridge/safety_params`
 * - `ratelimit/limit_params/<denom>`: `perpx.ratelimit.v1.LimitParams`;
 *   `ratelimit/withdrawal_config/<asset id:10>`: `AssetWithdrawalConfig`;
 *   `ratelimit/daily_limit/<chain id:20>/<asset id:10>`: `AssetChainDailyLimitConfig`
 * - `clob/block_rate_limit_config`: `perpx.clob.v1.BlockRateLimitConfiguration`
 * - `upgrade/applied/<version>`: u64 height; `upgrade/order/<height:20>`: the version
 */
import { create, type DescMessage, fromBinary, type Message, type MessageShape } from "@bufbuild/protobuf";
import { cosmosUpgrade, ibcChannel, ibcClient, schemaOf } from "@perpx/proto";
import { genesisJson, type Module, notFound, type QueryContext, queryHandler } from "../kernel/module.js";
import { decodeU64, encodeU64, fromUtf8, utf8 } from "../lib/codec.js";
import { paginate } from "../lib/pagination.js";
import { type WireMessage, wireCreate, wireEncode } from "../lib/wire-codec.js";
import * as wire from "../lib/wire-tables.js";

/** Values below this are spelled once per width and kept (ids, subaccount numbers, order flags). */
const SMALL_VALUES = 1024;
/** The spellings of small values by width: `table[value]`, filled as they are asked for. */
const smallSpellings = new Map<number, string[]>();

/** A zero-padded number for store keys. */
export function padKey(value: number | bigint, width: number): string {
  if (typeof value === "number" && value >= 0 && value < SMALL_VALUES && Number.isInteger(value)) {
    let table = smallSpellings.get(width);
    if (table === undefined) {
      table = [];
      smallSpellings.set(width, table);
    }
    let spelled = table[value];
    if (spelled === undefined) {
      spelled = value.toString().padStart(width, "0");
      table[value] = spelled;
    }
    return spelled;
  }
  return value.toString().padStart(width, "0");
}

/** `prefix/<id:10>` spellings by prefix, indexed by id (see {@link idStoreKey}). */
const idKeys = new Map<string, string[]>();

/**
 * `${prefix}/${padKey(id, 10)}`, the same string each time for a small id (a fill reads the same
 * perpetual's keys again and again).
 */
export function idStoreKey(prefix: string, id: number): string {
  if (!(id >= 0 && id < SMALL_VALUES && Number.isInteger(id))) return `${prefix}/${padKey(id, 10)}`;
  let table = idKeys.get(prefix);
  if (table === undefined) {
    table = [];
    idKeys.set(prefix, table);
  }
  let key = table[id];
  if (key === undefined) {
    key = `${prefix}/${padKey(id, 10)}`;
    table[id] = key;
  }
  return key;
}

/** One stored record: its key in the module's slice, its message and its type's wire table. */
export interface ProtoRecord<T extends Message = Message> {
  readonly key: string;
  readonly table: WireMessage<T>;
  readonly value: T;
}

/** Builds a {@link ProtoRecord} with its type tied to the table (written without a descriptor). */
export function record<T extends Message>(key: string, table: WireMessage<T>, value: T): ProtoRecord {
  return { key, table, value } as unknown as ProtoRecord;
}

/** The schema of a table's message type (built when first asked: a genesis export or a query). */
function schemaOfTable(table: WireMessage): DescMessage {
  return schemaOf(`/${table.typeName}`);
}

/** Reads a stored record (undefined when absent). */
export function readRecord<Desc extends DescMessage>(
  ctx: QueryContext,
  module: string,
  key: string,
  schema: Desc,
): MessageShape<Desc> | undefined {
  const bytes = ctx.store(module).get(key);
  return bytes === undefined ? undefined : fromBinary(schema, bytes);
}

/** Reads every record under a key prefix, in key order. */
export function readRecords<Desc extends DescMessage>(
  ctx: QueryContext,
  module: string,
  prefix: string,
  schema: Desc,
): { key: string; value: MessageShape<Desc> }[] {
  return [...ctx.store(module).entries(prefix)].map(([key, bytes]) => ({
    key,
    value: fromBinary(schema, bytes),
  }));
}

/**
 * A module that writes `records` at genesis, exports them as JSON (`{ "<key>": <proto JSON> }`, or
 * `exportGenesis` when given) and answers `queries`.
 */
export function createRecordsModule(options: {
  name: string;
  records: readonly ProtoRecord[];
  raw?: ReadonlyArray<{ key: string; value: Uint8Array }>;
  queries?: Module["queries"];
  exportGenesis?: (ctx: QueryContext) => unknown;
}): Module {
  const module: Module = {
    name: options.name,
    initGenesis(ctx) {
      const store = ctx.store(options.name);
      for (const r of options.records) store.set(r.key, wireEncode(r.table, r.value));
      for (const r of options.raw ?? []) store.set(r.key, r.value);
    },
    exportGenesis:
      options.exportGenesis ??
      ((ctx) => {
        const out: Record<string, unknown> = {};
        for (const r of options.records) {
          const schema = schemaOfTable(r.table);
          const current = readRecord(ctx, options.name, r.key, schema);
          if (current !== undefined) out[r.key] = genesisJson(schema, current);
        }
        return out;
      }),
  };
  return options.queries === undefined ? module : { ...module, queries: options.queries };
}

/** The IBC counterparty of the devnet's transfer channel. */
export interface IbcCounterparty {
  readonly clientId: string;
  readonly connectionId: string;
  readonly chainId: string;
}

/** The IBC module: channels and the counterparty, with the channel queries. */
export function createIbcModule(
  channels: readonly ibcChannel.IdentifiedChannel[],
  counterparty: IbcCounterparty,
): Module {
  const toChannel = (c: ibcChannel.IdentifiedChannel) =>
    wireCreate(wire.ibc_core_channel_v1_Channel, {
      state: c.state,
      ordering: c.ordering,
      connectionHops: c.connectionHops,
      version: c.version,
      upgradeSequence: c.upgradeSequence,
      ...(c.counterparty === undefined ? {} : { counterparty: c.counterparty }),
    });
  const proofHeight = (ctx: QueryContext) =>
    create(ibcClient.HeightSchema, {
      revisionNumber: revisionOf(ctx.block.chainId),
      revisionHeight: ctx.block.height,
    });
  return createRecordsModule({
    name: "ibc",
    records: channels.map((c) =>
      record(`channel/${c.portId}/${c.channelId}`, wire.ibc_core_channel_v1_Channel, toChannel(c)),
    ),
    raw: [{ key: "chain", value: utf8(JSON.stringify(counterparty)) }],
    exportGenesis(ctx) {
      const chain = ctx.store("ibc").get("chain");
      return {
        counterparty: chain === undefined ? null : JSON.parse(fromUtf8(chain)),
        channels: readRecords(ctx, "ibc", "channel/", ibcChannel.ChannelSchema).map(({ key, value }) => {
          const [, portId, channelId] = key.split("/");
          return {
            port_id: portId,
            channel_id: channelId,
            ...(genesisJson(ibcChannel.ChannelSchema, value) as object),
          };
        }),
      };
    },
    queries: {
      "/ibc.core.channel.v1.Query/Channels": queryHandler(
        () => ibcChannel.QueryChannelsRequestSchema,
        () => ibcChannel.QueryChannelsResponseSchema,
        (ctx, req) => {
          const items = readRecords(ctx, "ibc", "channel/", ibcChannel.ChannelSchema).map(
            ({ key, value }) => {
              const [, portId = "", channelId = ""] = key.split("/");
              return {
                key: utf8(key),
                value: wireCreate(wire.ibc_core_channel_v1_IdentifiedChannel, {
                  state: value.state,
                  ordering: value.ordering,
                  connectionHops: value.connectionHops,
                  version: value.version,
                  portId,
                  channelId,
                  upgradeSequence: value.upgradeSequence,
                  ...(value.counterparty === undefined ? {} : { counterparty: value.counterparty }),
                }),
              };
            },
          );
          const { page, pagination } = paginate(items, req.pagination);
          return create(ibcChannel.QueryChannelsResponseSchema, {
            channels: page,
            pagination,
            height: proofHeight(ctx),
          });
        },
      ),
      "/ibc.core.channel.v1.Query/Channel": queryHandler(
        () => ibcChannel.QueryChannelRequestSchema,
        () => ibcChannel.QueryChannelResponseSchema,
        (ctx, req) => {
          const channel = readRecord(
            ctx,
            "ibc",
            `channel/${req.portId}/${req.channelId}`,
            ibcChannel.ChannelSchema,
          );
          if (channel === undefined) {
            throw notFound(
              `channel, port-id: ${req.portId}, channel-id: ${req.channelId}: channel not found`,
            );
          }
          return create(ibcChannel.QueryChannelResponseSchema, { channel, proofHeight: proofHeight(ctx) });
        },
      ),
    },
  });
}

/** The revision number of a chain id of the form `name-<n>` (IBC's convention), else 0. */
export function revisionOf(chainId: string): bigint {
  const match = /-(\d+)$/.exec(chainId);
  return match === null ? 0n : BigInt(match[1] as string);
}

/** The upgrade module: the applied plans of the profile, `AppliedPlan` and `CurrentPlan`. */
export function createUpgradeModule(upgrades: ReadonlyMap<string, bigint>): Module {
  const raw: { key: string; value: Uint8Array }[] = [];
  for (const [version, height] of upgrades) {
    raw.push({ key: `applied/${version}`, value: encodeU64(height) });
    raw.push({ key: `order/${padKey(height, 20)}`, value: utf8(version) });
  }
  return createRecordsModule({
    name: "upgrade",
    records: [],
    raw,
    exportGenesis(ctx) {
      return {
        applied: [...ctx.store("upgrade").entries("order/")].map(([key, value]) => ({
          name: fromUtf8(value),
          height: BigInt(key.slice("order/".length)).toString(),
        })),
      };
    },
    queries: {
      "/cosmos.upgrade.v1beta1.Query/AppliedPlan": queryHandler(
        () => cosmosUpgrade.QueryAppliedPlanRequestSchema,
        () => cosmosUpgrade.QueryAppliedPlanResponseSchema,
        (ctx, req) => {
          const bytes = ctx.store("upgrade").get(`applied/${req.name}`);
          return create(cosmosUpgrade.QueryAppliedPlanResponseSchema, {
            height: bytes === undefined ? 0n : decodeU64(bytes),
          });
        },
      ),
      "/cosmos.upgrade.v1beta1.Query/CurrentPlan": queryHandler(
        () => cosmosUpgrade.QueryCurrentPlanRequestSchema,
        () => cosmosUpgrade.QueryCurrentPlanResponseSchema,
        () => create(cosmosUpgrade.QueryCurrentPlanResponseSchema, {}),
      ),
    },
  });
}
