/**
 * A chain refusal found by the gas simulation, read back into the same {@link BroadcastTxError}
 * CheckTx or DeliverTx would give. A simulation failure reaches the client as text only, over every
 * transport: gRPC answers a status whose message is `<log> With gas wanted: 'W' and gas used: 'U' `,
 * and CometBFT `abci_query` wraps that again as sdk 6 (`rpc error: code = Unknown desc = <...> :
 * unknown request`), so the module's code is in neither. The inner log ends with the root
 * description of a registered error (`"<context>: <description>"`), which names its codespace and
 * code ({@link chainErrorOfLog}); the failing message's module breaks ties between codespaces.
 */
import { type ChainError, chainErrorOfLog } from "../chainErrors.js";
import { type BroadcastTxError, broadcastTxError, type QueryError } from "../errors.js";
import type { TxMessage } from "./encode.js";

/**
 * A simulation log without its transport envelopes, and the gas the simulation reported.
 *
 * @example
 * ```ts
 * const text = "rpc error: code = Unknown desc = x: insufficient funds With gas wanted: '0' and gas used: '9' : unknown request";
 * const { log, gasUsed }: SimulationLog = unwrapSimulationLog(text);
 * [log, gasUsed]; // ["x: insufficient funds", 9n]
 * ```
 */
export interface SimulationLog {
  /** The log as CheckTx or DeliverTx would carry it. */
  log: string;
  /** True when the text had the simulation envelope (the node ran the transaction and it failed). */
  enveloped: boolean;
  /** Gas wanted and used, when reported. */
  gasWanted: bigint | undefined;
  gasUsed: bigint | undefined;
}

const GRPC_PREFIX = /^rpc error: code = \w+ desc = /;
const GAS_SUFFIX = / With gas wanted: '(\d+)' and gas used: '(\d+)'\s*(?::.*)?$/s;

/**
 * Strips what gRPC and `abci_query` wrap around a failed simulation's log.
 *
 * @example
 * ```ts
 * unwrapSimulationLog("rpc error: code = Unknown desc = x: insufficient funds With gas wanted: '0' and gas used: '9' : unknown request").log; // "x: insufficient funds"
 * ```
 */
export function unwrapSimulationLog(text: string): SimulationLog {
  const gas = GAS_SUFFIX.exec(text);
  if (!gas) return { log: text, enveloped: false, gasWanted: undefined, gasUsed: undefined };
  return {
    log: text.slice(0, gas.index).replace(GRPC_PREFIX, ""),
    enveloped: true,
    gasWanted: BigInt(gas[1]!),
    gasUsed: BigInt(gas[2]!),
  };
}

/**
 * The codespaces a message's failure can come from: its module's (and the modules it calls).
 *
 * @example
 * ```ts
 * messageCodespaces("/perpx.sending.v1.MsgCreateTransfer"); // ["sending", "subaccounts"]
 * ```
 */
export function messageCodespaces(typeUrl: string): string[] {
  const parts = typeUrl.replace(/^\//, "").split(".");
  const module = parts[0] === "ibc" ? parts[parts.length - 3] : parts[1];
  switch (module) {
    case undefined:
      return [];
    case "accountplus":
      return ["dydxaccountplus"];
    case "sending":
      return ["sending", "subaccounts"];
    case "transfer":
      return ["transfer", "channel", "ratelimit"];
    case "wrap":
      return ["wrap", "channel", "ratelimit"];
    default:
      return [module];
  }
}

/** The codespaces to prefer for a log: the failing message's modules, or the ante handler's. */
function preferredCodespaces(log: string, messages: readonly TxMessage[]): string[] {
  const index = /message index: (\d+)/.exec(log);
  const message = index ? messages[Number(index[1])] : undefined;
  return message ? messageCodespaces(message.typeUrl) : ["dydxaccountplus"];
}

/**
 * Parameters of {@link simulationRefusal}.
 *
 * @example
 * ```ts
 * const messages = [bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })];
 * const params: SimulationRefusalParams = { txHash: "AB12", messages };
 * ```
 */
export interface SimulationRefusalParams {
  /** The hash of the simulated bytes. */
  txHash: string;
  /** The simulated messages (the failing one's module breaks ties). */
  messages: readonly TxMessage[];
}

/**
 * The {@link BroadcastTxError} (phase `simulate`) a failed simulation stands for: the registered
 * error its log ends with, whatever transport carried it; a code the node reported directly (not
 * in the simulation envelope) is kept. `undefined` when the answer is no verdict on the transaction
 * (the node could not run it).
 *
 * @example
 * ```ts
 * // What a node answers when the simulation of a bank send fails (over gRPC, sdk 6 wraps the real error).
 * const log = "failed to execute message; message index: 0: spendable balance 0uusdc is smaller than 1uusdc: insufficient funds";
 * const error = new QueryError({ path: "/cosmos.tx.v1beta1.Service/Simulate", transport: "grpc", grpcCode: 2, log });
 * const messages = [bankSendMsg({ from: wallet.address, to: wallet.address, amount: [{ denom: "uusdc", amount: 1n }] })];
 * const refusal = simulationRefusal(error, { txHash: "AB12", messages });
 * [refusal?.phase, refusal?.abciCode, refusal?.reason]; // ["simulate", 5, "insufficient-funds"]
 * ```
 */
export function simulationRefusal(
  error: QueryError,
  params: SimulationRefusalParams,
): BroadcastTxError | undefined {
  const unwrapped = unwrapSimulationLog(error.log);
  const known: ChainError | undefined = chainErrorOfLog(
    unwrapped.log,
    preferredCodespaces(unwrapped.log, params.messages),
  );
  const direct = !unwrapped.enveloped && error.transport === "rpc" && error.abciCode !== undefined;
  let abciCode: number;
  let codespace: string;
  if (known && !direct) {
    abciCode = known.code;
    codespace = known.codespace;
  } else if (direct || unwrapped.enveloped) {
    abciCode = error.abciCode ?? 6;
    codespace = direct ? (error.codespace ?? "sdk") : "sdk";
  } else {
    return undefined;
  }
  return broadcastTxError(
    {
      abciCode,
      codespace,
      log: unwrapped.log,
      txHash: params.txHash,
      phase: "simulate",
      gasWanted: unwrapped.gasWanted,
      gasUsed: unwrapped.gasUsed,
    },
    { cause: error },
  );
}
