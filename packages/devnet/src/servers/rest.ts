/**
 * Cosmos REST (grpc-gateway style): proto3 JSON with snake_case field names, 64-bit integers and
 * SerializableInts as decimal strings, other bytes as base64 and `Any` with `@type`
 * (`toCosmosJson` of `@perpx/proto`). Cosmos routes are the SDK's paths; perpx modules
 * get a generic route per Query method, built from the descriptors of `@perpx/proto`:
 *
 *   GET /perpx/<module>/v1/<method>[/<field>...]
 *
 * where `<method>` is the method name in snake_case or kebab-case (`ClobPairAll` ->
 * `clob_pair_all` or `clob-pair-all`), the optional trailing segments fill the request's scalar
 * fields in field-number order, and query parameters fill any field by name (snake_case or
 * camelCase, dotted for nested messages: `pagination.limit=10`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type DescField,
  type DescMessage,
  type DescMethod,
  type JsonObject,
  type JsonValue,
  type Message,
  ScalarType,
} from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { PerpxError } from "@perpx/errors";
import { fromCosmosJson, toCosmosJson } from "@perpx/proto";
import type { Dispatcher } from "./dispatch.js";
import { HEIGHT_HEADER } from "./grpc.js";
import { answerGrpcWebPreflight, isGrpcWebCall, isGrpcWebPreflight, serveGrpcWeb } from "./grpc-web.js";
import {
  BodyError,
  closeServer,
  createHttpServer,
  listen,
  readBody,
  type ServerTimeouts,
  sendCorsPreflight,
  sendJson,
  urlOf,
} from "./http.js";

/** HTTP status of a gRPC code, as grpc-gateway maps it. */
export function httpStatusOf(code: Code): number {
  switch (code) {
    case Code.Canceled:
      return 499;
    case Code.InvalidArgument:
    case Code.FailedPrecondition:
    case Code.OutOfRange:
      return 400;
    case Code.DeadlineExceeded:
      return 504;
    case Code.NotFound:
      return 404;
    case Code.AlreadyExists:
    case Code.Aborted:
      return 409;
    case Code.PermissionDenied:
      return 403;
    case Code.Unauthenticated:
      return 401;
    case Code.ResourceExhausted:
      return 429;
    case Code.Unimplemented:
      return 501;
    case Code.Unavailable:
      return 503;
    default:
      return 500;
  }
}

/** A request problem tied to one field or parameter. */
class BadRequest extends PerpxError {
  override name = "BadRequest";
  constructor(
    readonly field: string,
    readonly description: string,
  ) {
    super("INVALID_ARGUMENT", `${field}: ${description}`);
  }
}

function errorBody(
  code: Code,
  message: string,
  violations: Array<{ field: string; description: string }> = [],
) {
  return {
    code,
    message,
    details:
      violations.length === 0
        ? []
        : [{ "@type": "type.googleapis.com/google.rpc.BadRequest", field_violations: violations }],
  };
}

/** `ClobPairAll` -> `clob_pair_all`; `ABCIQuery` -> `abci_query`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase();
}

type Segment = { literal: string } | { field: string };

interface Route {
  httpMethod: "GET" | "POST";
  segments: Segment[];
  method: DescMethod;
  /** POST routes read the request from the JSON body. */
  body: boolean;
  /** Generic perpx routes: trailing segments fill these scalar fields in order. */
  trailing?: DescField[];
}

/** The path of one IBC channel end in the REST routes. */
const CHANNEL = "/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}";

/** The Cosmos SDK and IBC routes: `[http method, path template, gRPC method path]`. */
const COSMOS_ROUTES: ReadonlyArray<readonly [Route["httpMethod"], string, string]> = [
  ["GET", "/cosmos/auth/v1beta1/accounts", "/cosmos.auth.v1beta1.Query/Accounts"],
  ["GET", "/cosmos/auth/v1beta1/accounts/{address}", "/cosmos.auth.v1beta1.Query/Account"],
  ["GET", "/cosmos/auth/v1beta1/account_info/{address}", "/cosmos.auth.v1beta1.Query/AccountInfo"],
  ["GET", "/cosmos/auth/v1beta1/params", "/cosmos.auth.v1beta1.Query/Params"],
  ["GET", "/cosmos/auth/v1beta1/module_accounts", "/cosmos.auth.v1beta1.Query/ModuleAccounts"],
  ["GET", "/cosmos/auth/v1beta1/module_accounts/{name}", "/cosmos.auth.v1beta1.Query/ModuleAccountByName"],
  ["GET", "/cosmos/bank/v1beta1/balances/{address}", "/cosmos.bank.v1beta1.Query/AllBalances"],
  ["GET", "/cosmos/bank/v1beta1/balances/{address}/by_denom", "/cosmos.bank.v1beta1.Query/Balance"],
  [
    "GET",
    "/cosmos/bank/v1beta1/spendable_balances/{address}",
    "/cosmos.bank.v1beta1.Query/SpendableBalances",
  ],
  [
    "GET",
    "/cosmos/bank/v1beta1/spendable_balances/{address}/by_denom",
    "/cosmos.bank.v1beta1.Query/SpendableBalanceByDenom",
  ],
  ["GET", "/cosmos/bank/v1beta1/supply", "/cosmos.bank.v1beta1.Query/TotalSupply"],
  ["GET", "/cosmos/bank/v1beta1/supply/by_denom", "/cosmos.bank.v1beta1.Query/SupplyOf"],
  ["GET", "/cosmos/bank/v1beta1/params", "/cosmos.bank.v1beta1.Query/Params"],
  ["GET", "/cosmos/bank/v1beta1/denoms_metadata", "/cosmos.bank.v1beta1.Query/DenomsMetadata"],
  ["GET", "/cosmos/bank/v1beta1/denoms_metadata/{denom}", "/cosmos.bank.v1beta1.Query/DenomMetadata"],
  ["POST", "/cosmos/tx/v1beta1/simulate", "/cosmos.tx.v1beta1.Service/Simulate"],
  ["POST", "/cosmos/tx/v1beta1/txs", "/cosmos.tx.v1beta1.Service/BroadcastTx"],
  ["GET", "/cosmos/tx/v1beta1/txs", "/cosmos.tx.v1beta1.Service/GetTxsEvent"],
  ["GET", "/cosmos/tx/v1beta1/txs/{hash}", "/cosmos.tx.v1beta1.Service/GetTx"],
  ["GET", "/cosmos/base/tendermint/v1beta1/node_info", "/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo"],
  ["GET", "/cosmos/base/tendermint/v1beta1/syncing", "/cosmos.base.tendermint.v1beta1.Service/GetSyncing"],
  [
    "GET",
    "/cosmos/base/tendermint/v1beta1/blocks/latest",
    "/cosmos.base.tendermint.v1beta1.Service/GetLatestBlock",
  ],
  [
    "GET",
    "/cosmos/base/tendermint/v1beta1/blocks/{height}",
    "/cosmos.base.tendermint.v1beta1.Service/GetBlockByHeight",
  ],
  [
    "GET",
    "/cosmos/base/tendermint/v1beta1/validatorsets/latest",
    "/cosmos.base.tendermint.v1beta1.Service/GetLatestValidatorSet",
  ],
  [
    "GET",
    "/cosmos/base/tendermint/v1beta1/validatorsets/{height}",
    "/cosmos.base.tendermint.v1beta1.Service/GetValidatorSetByHeight",
  ],
  ["GET", "/cosmos/base/tendermint/v1beta1/abci_query", "/cosmos.base.tendermint.v1beta1.Service/ABCIQuery"],
  ["GET", "/cosmos/base/node/v1beta1/config", "/cosmos.base.node.v1beta1.Service/Config"],
  ["GET", "/cosmos/base/node/v1beta1/status", "/cosmos.base.node.v1beta1.Service/Status"],
  ["GET", "/cosmos/upgrade/v1beta1/current_plan", "/cosmos.upgrade.v1beta1.Query/CurrentPlan"],
  ["GET", "/cosmos/upgrade/v1beta1/applied_plan/{name}", "/cosmos.upgrade.v1beta1.Query/AppliedPlan"],
  ["GET", "/cosmos/upgrade/v1beta1/module_versions", "/cosmos.upgrade.v1beta1.Query/ModuleVersions"],
  ["GET", "/cosmos/upgrade/v1beta1/authority", "/cosmos.upgrade.v1beta1.Query/Authority"],
  ["GET", "/ibc/core/channel/v1/channels", "/ibc.core.channel.v1.Query/Channels"],
  ["GET", "/ibc/core/channel/v1/channels/{channel_id}/ports/{port_id}", "/ibc.core.channel.v1.Query/Channel"],
  ["GET", `${CHANNEL}/packet_commitments`, "/ibc.core.channel.v1.Query/PacketCommitments"],
  ["GET", `${CHANNEL}/packet_commitments/{sequence}`, "/ibc.core.channel.v1.Query/PacketCommitment"],
  [
    "GET",
    `${CHANNEL}/packet_commitments/{packet_commitment_sequences}/unreceived_packets`,
    "/ibc.core.channel.v1.Query/UnreceivedPackets",
  ],
  [
    "GET",
    `${CHANNEL}/packet_commitments/{packet_ack_sequences}/unreceived_acks`,
    "/ibc.core.channel.v1.Query/UnreceivedAcks",
  ],
  ["GET", `${CHANNEL}/packet_receipts/{sequence}`, "/ibc.core.channel.v1.Query/PacketReceipt"],
  ["GET", `${CHANNEL}/packet_acks/{sequence}`, "/ibc.core.channel.v1.Query/PacketAcknowledgement"],
  ["GET", `${CHANNEL}/packet_acknowledgements`, "/ibc.core.channel.v1.Query/PacketAcknowledgements"],
  ["GET", `${CHANNEL}/next_sequence`, "/ibc.core.channel.v1.Query/NextSequenceReceive"],
  ["GET", "/ibc/apps/transfer/v1/denom_traces", "/ibc.applications.transfer.v1.Query/DenomTraces"],
  ["GET", "/ibc/apps/transfer/v1/denom_traces/{hash}", "/ibc.applications.transfer.v1.Query/DenomTrace"],
  ["GET", "/ibc/apps/transfer/v1/denom_hashes/{trace}", "/ibc.applications.transfer.v1.Query/DenomHash"],
  ["GET", "/ibc/apps/transfer/v1/params", "/ibc.applications.transfer.v1.Query/Params"],
  [
    "GET",
    "/ibc/apps/transfer/v1/channels/{channel_id}/ports/{port_id}/escrow_address",
    "/ibc.applications.transfer.v1.Query/EscrowAddress",
  ],
  [
    "GET",
    "/ibc/apps/transfer/v1/denoms/{denom}/total_escrow",
    "/ibc.applications.transfer.v1.Query/TotalEscrowForDenom",
  ],
];

function parseTemplate(template: string): Segment[] {
  return template
    .split("/")
    .filter((s) => s !== "")
    .map((s) => (s.startsWith("{") && s.endsWith("}") ? { field: s.slice(1, -1) } : { literal: s }));
}

/** The scalar and enum fields of a request in field-number order (what trailing path segments fill). */
function pathableFields(message: DescMessage): DescField[] {
  return [...message.fields]
    .filter((f) => f.fieldKind === "scalar" || f.fieldKind === "enum")
    .sort((a, b) => a.number - b.number);
}

/** Builds the route table: the Cosmos routes, then one generic route per perpx Query method. */
export function buildRoutes(dispatcher: Dispatcher): Route[] {
  const routes: Route[] = [];
  for (const [httpMethod, template, path] of COSMOS_ROUTES) {
    const method = dispatcher.method(path);
    if (method === undefined) continue;
    routes.push({ httpMethod, segments: parseTemplate(template), method, body: httpMethod === "POST" });
  }
  for (const service of dispatcher.services) {
    const parts = service.typeName.split(".");
    if (parts[0] !== "perpx" || service.name !== "Query" || parts.length !== 4) continue;
    const [, module, version] = parts as [string, string, string, string];
    for (const method of service.methods) {
      const snake = snakeCase(method.name);
      const names = new Set([snake, snake.replaceAll("_", "-")]);
      for (const name of names) {
        routes.push({
          httpMethod: "GET",
          segments: [{ literal: "perpx" }, { literal: module }, { literal: version }, { literal: name }],
          method,
          body: false,
          trailing: pathableFields(method.input),
        });
      }
    }
  }
  return routes;
}

interface Match {
  route: Route;
  pathFields: Array<[string, string]>;
}

function matchRoute(routes: readonly Route[], segments: string[]): Match[] {
  const found: Match[] = [];
  for (const route of routes) {
    if (route.trailing !== undefined) {
      if (segments.length < route.segments.length) continue;
      if (segments.length - route.segments.length > route.trailing.length) continue;
    } else if (segments.length !== route.segments.length) continue;
    const pathFields: Array<[string, string]> = [];
    let ok = true;
    for (let i = 0; i < route.segments.length; i++) {
      const want = route.segments[i]!;
      const got = segments[i]!;
      if ("literal" in want) {
        if (want.literal !== got) {
          ok = false;
          break;
        }
      } else pathFields.push([want.field, got]);
    }
    if (!ok) continue;
    if (route.trailing !== undefined) {
      segments.slice(route.segments.length).forEach((value, i) => {
        pathFields.push([route.trailing![i]!.name, value]);
      });
    }
    found.push({ route, pathFields });
  }
  return found;
}

function findField(message: DescMessage, name: string): DescField | undefined {
  return message.fields.find((f) => f.name === name || f.jsonName === name || f.localName === name);
}

/** Converts a text parameter into the JSON value `fromJson` takes for `field`. */
function paramValue(field: DescField, text: string, param: string): JsonValue {
  const scalar =
    field.fieldKind === "scalar" ? field.scalar : field.fieldKind === "list" ? field.scalar : undefined;
  const isEnum = field.fieldKind === "enum" || (field.fieldKind === "list" && field.listKind === "enum");
  if (isEnum) return /^-?\d+$/.test(text) ? Number(text) : text;
  switch (scalar) {
    case ScalarType.BOOL:
      if (text === "true" || text === "false") return text === "true";
      throw new BadRequest(param, `must be true or false, got "${text}"`);
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      if (!/^-?\d+$/.test(text)) throw new BadRequest(param, `must be an integer, got "${text}"`);
      return text;
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      if (!/^\d+$/.test(text)) throw new BadRequest(param, `must be a non-negative integer, got "${text}"`);
      return text;
    case ScalarType.BYTES:
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw new BadRequest(param, "must be base64");
      return text.replaceAll("-", "+").replaceAll("_", "/");
    case undefined:
      throw new BadRequest(param, `cannot be set from a query parameter (a ${field.fieldKind} field)`);
    default:
      return text;
  }
}

/** Sets `path` (dotted field names) of the JSON request object from a text parameter. */
function setParam(schema: DescMessage, target: JsonObject, path: string, text: string): void {
  const names = path.split(".");
  let message = schema;
  let object = target;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const field = findField(message, name);
    if (field === undefined) {
      throw new BadRequest(path, `unknown field "${name}" of ${message.typeName}`);
    }
    const last = i === names.length - 1;
    if (!last) {
      if (field.fieldKind !== "message") throw new BadRequest(path, `"${name}" is not a message field`);
      if (object[field.name] === undefined) object[field.name] = {};
      object = object[field.name] as JsonObject;
      message = field.message;
      continue;
    }
    const value = paramValue(field, text, path);
    if (field.fieldKind === "list") {
      if (object[field.name] === undefined) object[field.name] = [];
      (object[field.name] as JsonValue[]).push(value);
    } else {
      object[field.name] = value;
    }
  }
}

/** Options of {@link startRestServer}. */
export interface RestServerOptions {
  dispatcher: Dispatcher;
  /** Interface to bind. @default "127.0.0.1" */
  host?: string;
  /** Port; 0 picks a free port. @default 1317 */
  port?: number;
  /** Header, request and idle timeouts. @default `DEFAULT_SERVER_TIMEOUTS` */
  timeouts?: Partial<ServerTimeouts>;
}

/** A running REST server. */
export interface RestServer {
  readonly url: string;
  readonly port: number;
  /** Every route as `METHOD /path/{field}` (generic perpx routes end in `[/<field>...]`). */
  readonly routes: readonly string[];
  close(): Promise<void>;
}

/**
 * Starts the Cosmos REST server.
 *
 * @param options - dispatcher, interface and port.
 * @returns the running server.
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const { app } = devnet;
 * const rest = await startRestServer({ dispatcher: createDispatcher(app), port: 0 });
 * const res = await fetch(`${rest.url}/cosmos/base/node/v1beta1/config`);
 * res.status; // 200
 * await rest.close();
 * await devnet.stop();
 * ```
 */
export async function startRestServer(options: RestServerOptions): Promise<RestServer> {
  const { dispatcher } = options;
  let table: Route[] | undefined;
  // on first use: the perpx routes come from the services' descriptors (see `createDispatcher`)
  const routes = (): Route[] => {
    table ??= buildRoutes(dispatcher);
    return table;
  };
  const _jsonWrite = {
    registry: dispatcher.registry,
    useProtoFieldName: true,
    alwaysEmitImplicit: true,
  } as const;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // gRPC-web shares the API port, as on a Cosmos SDK node (`grpc-web.enable`).
    if (isGrpcWebCall(req)) return serveGrpcWeb(dispatcher, req, res);
    if (isGrpcWebPreflight(req, dispatcher)) return answerGrpcWebPreflight(res);
    if (req.method === "OPTIONS") {
      sendCorsPreflight(res);
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    let segments: string[];
    try {
      segments = url.pathname
        .split("/")
        .filter((s) => s !== "")
        .map((s) => decodeURIComponent(s));
    } catch {
      sendJson(res, 400, errorBody(Code.InvalidArgument, "malformed path encoding"));
      return;
    }
    const matches = matchRoute(routes(), segments);
    if (matches.length === 0) {
      sendJson(res, 404, errorBody(Code.NotFound, "Not Implemented"));
      return;
    }
    const match = matches.find((m) => m.route.httpMethod === req.method);
    if (match === undefined) {
      const allowed = [...new Set(matches.map((m) => m.route.httpMethod))].join(", ");
      sendJson(res, 405, errorBody(Code.Unimplemented, `Method Not Allowed (use ${allowed})`), {
        allow: allowed,
      });
      return;
    }
    const { route } = match;
    const input = route.method.input;
    let request: Message;
    try {
      let json: JsonObject = {};
      if (route.body) {
        const text = (await readBody(req)).toString("utf8");
        try {
          const parsed: unknown = text.trim() === "" ? {} : JSON.parse(text);
          if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
            throw new BadRequest("body", "must be a JSON object");
          }
          json = parsed as JsonObject;
        } catch (error) {
          if (error instanceof BadRequest) throw error;
          throw new BadRequest("body", `is not valid JSON (${(error as Error).message})`);
        }
      }
      for (const [name, value] of match.pathFields) {
        // A repeated field in the path takes comma-separated values, as grpc-gateway reads it.
        const list = findField(input, name)?.fieldKind === "list";
        for (const part of list ? value.split(",") : [value]) setParam(input, json, name, part);
      }
      for (const [name, value] of url.searchParams) setParam(input, json, name, value);
      try {
        request = fromCosmosJson(input, json);
      } catch (error) {
        throw new BadRequest(route.body ? "body" : "query", (error as Error).message);
      }
    } catch (error) {
      if (error instanceof BadRequest) {
        sendJson(
          res,
          400,
          errorBody(Code.InvalidArgument, error.message, [
            { field: error.field, description: error.description },
          ]),
        );
        return;
      }
      throw error;
    }
    const heightHeader = req.headers[HEIGHT_HEADER];
    let height: bigint | undefined;
    if (typeof heightHeader === "string" && heightHeader !== "") {
      if (!/^\d{1,19}$/.test(heightHeader)) {
        sendJson(
          res,
          400,
          errorBody(Code.InvalidArgument, `invalid ${HEIGHT_HEADER} header "${heightHeader}"`),
        );
        return;
      }
      height = BigInt(heightHeader);
    }
    try {
      const result = await dispatcher.call(route.method, request, height === undefined ? {} : { height });
      const body = toCosmosJson(route.method.output, result.response);
      sendJson(res, 200, body, { [HEIGHT_HEADER]: result.height.toString() });
    } catch (error) {
      const e = ConnectError.from(error);
      sendJson(res, httpStatusOf(e.code), errorBody(e.code, e.rawMessage));
    }
  };

  const server = createHttpServer(options.timeouts, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof BodyError) {
        sendJson(res, error.status, errorBody(Code.ResourceExhausted, error.message));
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      sendJson(res, 500, errorBody(Code.Internal, message));
    });
  });
  const port = await listen(server, options.port ?? 1317, options.host ?? "127.0.0.1");
  let listed: string[] | undefined;
  return {
    url: urlOf("http", options.host ?? "127.0.0.1", port),
    port,
    get routes() {
      listed ??= routes().map((r) => {
        const path = r.segments.map((s) => ("literal" in s ? s.literal : `{${s.field}}`)).join("/");
        return `${r.httpMethod} /${path}${r.trailing !== undefined && r.trailing.length > 0 ? `[/${r.trailing.map((f) => `{${f.name}}`).join("/")}]` : ""}`;
      });
      return listed;
    },
    close: () => closeServer(server),
  };
}
