/**
 * Control routes that drive chain modules: moving the clock to an epoch's next tick (funding),
 * governance proposals (generic, and the wrap rules),
 * simulated IBC (an incoming ICS-20 transfer, a recreated channel) and simulated bridge deposits.
 * Each turns a JSON body into a `ChainControl` call; module refusals answer 400 with the module's
 * codespace as `code` and its log as `message`.
 */
import { create, type JsonValue, toBinary } from "@bufbuild/protobuf";
import { AnySchema } from "@bufbuild/protobuf/wkt";
import { fromCosmosJson, wrap } from "@perpx/proto";
import type { PersistentChainApp, ProposalResult } from "../app/contract.js";
import { GOV_AUTHORITY } from "../app/kernel/governance.js";
import { uintField } from "../app/lib/request-fields.js";
import { ControlError, type ControlRouter } from "./control-router.js";
import type { BlockProducer } from "./producer.js";

/** Runs a chain call, turning an `AbciError` into a 400 answer named by its codespace. */
function chainCall<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof Error && error.name === "AbciError") {
      const codespace = (error as Error & { codespace?: string }).codespace ?? "chain";
      throw new ControlError(400, codespace, error.message);
    }
    throw error;
  }
}

function wrapRule(raw: unknown, where: string): wrap.WrapRule {
  const r = raw as Record<string, unknown> | null;
  if (typeof r !== "object" || r === null) {
    throw new ControlError(
      400,
      "invalid_request",
      `${where} must be {port, channel, sourceDenom, localDenom}`,
    );
  }
  const text = (name: string, ...aliases: string[]) => {
    for (const key of [name, ...aliases]) if (typeof r[key] === "string") return r[key] as string;
    return name === "portId" ? "transfer" : "";
  };
  return create(wrap.WrapRuleSchema, {
    portId: text("portId", "port", "port_id"),
    channelId: text("channelId", "channel", "channel_id"),
    sourceDenom: text("sourceDenom", "source_denom"),
    localDenom: text("localDenom", "local_denom"),
  });
}

/**
 * Moves the clock to an epoch timer's next tick (`epoch`, default `funding-tick`) and mines the
 * block that starts the epoch (unless `mine` is false). A timer not initialized yet (before
 * height 2) is initialized first by mining blocks.
 */
function advanceEpoch(
  app: PersistentChainApp,
  producer: BlockProducer,
  body: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const epoch = body.epoch === undefined ? "funding-tick" : body.epoch;
  if (typeof epoch !== "string" || epoch === "")
    throw new ControlError(400, "invalid_request", 'the field "epoch" must be an epoch name');
  const next = () =>
    chainCall(() => app.control.moduleControl("epochs", "next-tick", { name: epoch })) as {
      nextTick: number;
      initialized: boolean;
    };
  let upcoming = next();
  for (let i = 0; i < 3 && !upcoming.initialized; i++) {
    producer.mine(1);
    upcoming = next();
  }
  const advancedMs = app.control.advanceTimeTo(upcoming.nextTick * 1000, new Date(producer.now()));
  const answer: Record<string, unknown> = { epoch, tick: upcoming.nextTick, advancedMs };
  if (body.mine === false) return answer;
  const block = producer.mine(1)[0];
  return { ...answer, height: block?.height.toString(), blockTime: block?.time.toISOString() };
}

/** Submits a proposal, mines its block (unless `mine` is false) and answers with its outcome. */
function propose(
  app: PersistentChainApp,
  producer: BlockProducer,
  messages: Array<{ typeUrl: string; value: Uint8Array }>,
  mine: boolean,
): { proposalId: string; result?: ProposalResult; height?: string } {
  const id = chainCall(() => app.control.submitProposal(messages));
  if (!mine) return { proposalId: id.toString() };
  const block = producer.mine(1)[0];
  const result = app.control.proposal(id);
  return {
    proposalId: id.toString(),
    ...(result === undefined ? {} : { result }),
    ...(block === undefined ? {} : { height: block.height.toString() }),
  };
}

/**
 * Adds `POST /devnet/gov/proposals`, `GET /devnet/gov/proposals`, `POST /devnet/gov/wrap-rules`,
 * `POST /devnet/ibc/receive`, `POST /devnet/ibc/recreate-channel` and `POST /devnet/bridge/deposit`.
 *
 * @param router - the control server's route table.
 * @param app - the chain application.
 * @param producer - mines the block a proposal runs in.
 */
export function addChainControlRoutes(
  router: ControlRouter,
  app: PersistentChainApp,
  producer: BlockProducer,
): void {
  router.add("POST", "/advance-epoch", ({ body }) => advanceEpoch(app, producer, body));
  router.add("GET", "/gov/authority", () => ({ authority: GOV_AUTHORITY }));
  router.add("POST", "/gov/proposals", ({ body }) => {
    const raw = body.messages;
    if (!Array.isArray(raw) || raw.length === 0) {
      throw new ControlError(
        400,
        "invalid_request",
        'the field "messages" must be a non-empty array of proto JSON messages with "@type"',
      );
    }
    const messages = raw.map((m: unknown, i) => {
      try {
        // Cosmos JSON: `/x.y.Z` type URLs kept, SerializableInts as decimal strings.
        const any = fromCosmosJson(AnySchema, m as JsonValue);
        return { typeUrl: any.typeUrl, value: any.value };
      } catch (error) {
        throw new ControlError(400, "invalid_request", `messages[${i}]: ${(error as Error).message}`);
      }
    });
    return propose(app, producer, messages, body.mine !== false);
  });
  router.add("GET", "/gov/proposals", ({ query }) => {
    const id = uintField(Object.fromEntries(query), "id");
    const result = app.control.proposal(id);
    if (result === undefined)
      throw new ControlError(404, "not_found", `proposal ${id} has not run (or does not exist)`);
    return result;
  });
  router.add("POST", "/gov/wrap-rules", ({ body }) => {
    const action = body.action ?? (Array.isArray(body.rules) ? "set-all" : "set");
    let message: { typeUrl: string; value: Uint8Array };
    if (action === "set-all") {
      if (!Array.isArray(body.rules))
        throw new ControlError(400, "invalid_request", 'the field "rules" must be an array');
      const rules = body.rules.map((r: unknown, i) => wrapRule(r, `rules[${i}]`));
      message = {
        typeUrl: `/${wrap.MsgSetWrapRulesSchema.typeName}`,
        value: toBinary(
          wrap.MsgSetWrapRulesSchema,
          create(wrap.MsgSetWrapRulesSchema, { authority: GOV_AUTHORITY, rules }),
        ),
      };
    } else if (action === "set") {
      const rule = wrapRule(body.rule, "rule");
      message = {
        typeUrl: `/${wrap.MsgSetWrapRuleSchema.typeName}`,
        value: toBinary(
          wrap.MsgSetWrapRuleSchema,
          create(wrap.MsgSetWrapRuleSchema, { authority: GOV_AUTHORITY, rule }),
        ),
      };
    } else if (action === "delete") {
      const key = wrapRule(body.rule, "rule");
      message = {
        typeUrl: `/${wrap.MsgDeleteWrapRuleSchema.typeName}`,
        value: toBinary(
          wrap.MsgDeleteWrapRuleSchema,
          create(wrap.MsgDeleteWrapRuleSchema, {
            authority: GOV_AUTHORITY,
            portId: key.portId,
            channelId: key.channelId,
            sourceDenom: key.sourceDenom,
          }),
        ),
      };
    } else {
      throw new ControlError(
        400,
        "invalid_request",
        'the field "action" must be "set-all", "set" or "delete"',
      );
    }
    return propose(app, producer, [message], body.mine !== false);
  });
  router.add("POST", "/ibc/receive", ({ body }) =>
    chainCall(() => app.control.moduleControl("ibc", "receive", body)),
  );
  router.add("POST", "/ibc/recreate-channel", ({ body }) =>
    chainCall(() => app.control.moduleControl("ibc", "recreate-channel", body)),
  );
  router.add("POST", "/bridge/deposit", ({ body }) =>
    chainCall(() => app.control.moduleControl("bridge", "deposit", body)),
  );
}
