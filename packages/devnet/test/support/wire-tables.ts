/**
 * Writes `src/app/lib/wire-tables.ts`: the field tables of `wire-codec.ts` for the message types a
 * devnet start makes, writes and reads ({@link WIRE_ROOTS}, and every message type they contain),
 * read from protobuf-es's descriptors. `wire-tables.test.ts` checks the file is what this renders.
 *
 * Run it after changing the roots or the protos: `npx tsx packages/devnet/test/support/wire-tables.ts`.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { DescField, DescMessage, Registry } from "@bufbuild/protobuf";
import { typeRegistry } from "@perpx/proto";
import { NAMESPACES } from "../../../proto/scripts/barrels.mjs";

/** The message types with a table (their nested message types get one too). */
export const WIRE_ROOTS: readonly string[] = [
  "cosmos.bank.v1beta1.Metadata",
  "cosmos.base.abci.v1beta1.TxMsgData",
  "cosmos.tx.v1beta1.TxRaw",
  "cosmos.tx.v1beta1.TxBody",
  "cosmos.tx.v1beta1.AuthInfo",
  "ibc.core.channel.v1.IdentifiedChannel",
  "ibc.core.channel.v1.Channel",
  "perpx.affiliates.v1.AffiliateOverrides",
  "perpx.affiliates.v1.AffiliateParameters",
  "perpx.affiliates.v1.AffiliateTiers",
  "perpx.affiliates.v1.AffiliateWhitelist",
  "perpx.assets.v1.Asset",
  "perpx.bridge.v1.BridgeEventInfo",
  "perpx.bridge.v1.EventParams",
  "perpx.bridge.v1.ProposeParams",
  "perpx.bridge.v1.SafetyParams",
  "perpx.clob.v1.BlockRateLimitConfiguration",
  "perpx.clob.v1.ClobPair",
  "perpx.clob.v1.EquityTierLimitConfiguration",
  "perpx.clob.v1.LiquidationsConfig",
  "perpx.clob.v1.MsgProposedOperations",
  "perpx.clob.v1.MsgProposedOperationsResponse",
  "perpx.epochs.v1.EpochInfo",
  "perpx.feetiers.v1.PerpetualFeeParams",
  "perpx.perpetuals.v1.LiquidityTier",
  "perpx.perpetuals.v1.Params",
  "perpx.perpetuals.v1.PerpetualParams",
  "perpx.perpetuals.v1.PremiumStore",
  "perpx.prices.v1.MarketParam",
  "perpx.ratelimit.v1.AssetChainDailyLimitConfig",
  "perpx.ratelimit.v1.AssetWithdrawalConfig",
  "perpx.ratelimit.v1.LimitParams",
  "perpx.revshare.v1.MarketMapperRevShareDetails",
  "perpx.revshare.v1.MarketMapperRevenueShareParams",
  "perpx.rewards.v1.Params",
  "perpx.wrap.v1.WrapRule",
];

const SCALAR_NAMES: Readonly<Record<number, string>> = {
  1: "DOUBLE",
  2: "FLOAT",
  3: "INT64",
  4: "UINT64",
  5: "INT32",
  6: "FIXED64",
  7: "FIXED32",
  8: "BOOL",
  9: "STRING",
  12: "BYTES",
  13: "UINT32",
  15: "SFIXED32",
  16: "SFIXED64",
  17: "SINT32",
  18: "SINT64",
};

/** descriptor.proto's `Edition.EDITION_PROTO3`, the edition of a proto3 file. */
const EDITION_PROTO3 = 999;

/** protobuf-es's presence value for a field without explicit presence. */
const IMPLICIT = 2;

/** The identifier of a type's table: its name with the package's dots as underscores. */
export function tableName(typeName: string): string {
  return typeName.replaceAll(".", "_");
}

/**
 * The TypeScript type of a message: its namespace in `@perpx/proto` and generated name (a
 * well-known type: no namespace, the name `@bufbuild/protobuf/wkt` exports).
 */
function typeScriptName(desc: DescMessage): { namespace: string; name: string } {
  const pkg = desc.file.proto.package;
  if (pkg === "google.protobuf") return { namespace: "", name: desc.typeName.slice(pkg.length + 1) };
  const namespace = (NAMESPACES as Record<string, string | undefined>)[pkg];
  if (namespace === undefined) throw new Error(`wire tables: no @perpx/proto namespace for ${pkg}`);
  return { namespace, name: desc.typeName.slice(pkg.length + 1).replaceAll(".", "_") };
}

function refuse(field: DescField, why: string): never {
  throw new Error(`wire tables: ${field.parent.typeName}.${field.name}: ${why}`);
}

function typeOf(field: DescField, reach: (desc: DescMessage) => void): string {
  if (field.fieldKind === "map") refuse(field, "a map");
  const kind = field.fieldKind === "list" ? field.listKind : field.fieldKind;
  if (kind === "message") {
    const message = field.message as DescMessage;
    if ("delimitedEncoding" in field && field.delimitedEncoding === true) refuse(field, "a group");
    if (message.typeName.startsWith("google.protobuf.") && message.typeName.endsWith("Value")) {
      refuse(field, "a wrapper or struct type");
    }
    if (message.typeName === "google.protobuf.Struct") refuse(field, "a struct");
    reach(message);
    return `() => ${tableName(message.typeName)}`;
  }
  if (kind === "enum") {
    const desc = field.enum;
    if (desc === undefined || !desc.open || desc.values[0]?.number !== 0)
      refuse(field, "a closed enum or one without 0");
    return "ENUM";
  }
  const scalar = field.scalar as number;
  if ("longAsString" in field && field.longAsString === true) refuse(field, "a 64-bit integer as a string");
  if (scalar === 9 && !field.utf8Validation) refuse(field, "a string without UTF-8 validation");
  const name = SCALAR_NAMES[scalar];
  if (name === undefined) refuse(field, `scalar type ${scalar}`);
  return name;
}

function entryOf(field: DescField, reach: (desc: DescMessage) => void): string {
  const flags: string[] = [];
  if (field.fieldKind === "list") {
    flags.push("LIST");
    if (field.packed && field.listKind !== "message") flags.push("PACKED");
  } else if (field.oneof === undefined && field.fieldKind !== "message" && field.presence !== IMPLICIT) {
    flags.push("EXPLICIT");
  }
  const parts = [String(field.number), JSON.stringify(field.localName), typeOf(field, reach)];
  if (flags.length > 0 || field.oneof !== undefined) parts.push(flags.length > 0 ? flags.join(" | ") : "0");
  if (field.oneof !== undefined) parts.push(JSON.stringify(field.oneof.localName));
  return `[${parts.join(", ")}]`;
}

/**
 * The source of `wire-tables.ts` for `roots` (and every message type they contain), sorted by name.
 *
 * @param registry - where the descriptors come from.
 * @param roots - full message type names.
 * @returns the file's text.
 */
export function renderWireTables(registry: Registry, roots: readonly string[]): string {
  /** Each message type reached, with its entries (rendering one reaches the types it contains). */
  const messages = new Map<string, { desc: DescMessage; entries: string[] }>();
  const reach = (desc: DescMessage): void => {
    if (messages.has(desc.typeName)) return;
    const entries: string[] = [];
    messages.set(desc.typeName, { desc, entries });
    for (const field of desc.fields) entries.push(entryOf(field, reach));
  };
  for (const root of roots) {
    const desc = registry.getMessage(root);
    if (desc === undefined) throw new Error(`wire tables: no message ${root}`);
    if (desc.file.edition !== EDITION_PROTO3) throw new Error(`wire tables: ${root} is not proto3`);
    reach(desc);
  }
  const used = new Set<string>();
  const namespaces = new Set<string>();
  const wellKnown = new Set<string>();
  const tables = [...messages.values()]
    .sort((a, b) => a.desc.typeName.localeCompare(b.desc.typeName))
    .map(({ desc, entries }) => {
      for (const entry of entries)
        for (const word of entry.match(/\b[A-Z][A-Z0-9_]{2,}\b/g) ?? []) used.add(word);
      const { namespace, name } = typeScriptName(desc);
      if (namespace === "") wellKnown.add(name);
      else namespaces.add(namespace);
      const type = namespace === "" ? name : `${namespace}.${name}`;
      return [
        `/** \`${desc.typeName}\` */`,
        `export const ${tableName(desc.typeName)}: WireMessage<${type}> = wireMessage("${desc.typeName}", [`,
        ...entries.map((entry) => `  ${entry},`),
        "]);",
      ].join("\n");
    });
  const imports = [...used].filter((name) => name !== "0").sort();
  return [
    "// @generated by packages/devnet/test/support/wire-tables.ts; do not edit.",
    "/**",
    " * Field tables of the message types a devnet start makes, writes and reads (see `wire-codec.ts`),",
    " * read from their descriptors.",
    " */",
    ...(wellKnown.size > 0
      ? [`import type { ${[...wellKnown].sort().join(", ")} } from "@bufbuild/protobuf/wkt";`]
      : []),
    `import type { ${[...namespaces].sort().join(", ")} } from "@perpx/proto";`,
    `import { ${[...imports, "type WireMessage", "wireMessage"].join(", ")} } from "./wire-codec.js";`,
    "",
    tables.join("\n\n"),
    "",
  ].join("\n");
}

const target = fileURLToPath(new URL("../../src/app/lib/wire-tables.ts", import.meta.url));

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(target, renderWireTables(typeRegistry, WIRE_ROOTS));
  process.stdout.write(`wrote ${target}\n`);
}
