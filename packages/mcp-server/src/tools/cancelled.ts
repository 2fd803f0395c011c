import type { BroadcastProgress } from "@perpx/node-client/tx";
import { ToolFailure } from "./result.js";

/**
 * What a write tool checks its cancellation with: the MCP client's `notifications/cancelled`, which
 * the SDK hands the tool as `extra.signal`. While nothing of the write was sent, a cancelled
 * request stops (`CANCELLED`, nothing sent); once one of its transactions went out, a cancel
 * cannot unsend it, so the write runs to its end and its outcome is recorded (the store by client
 * id, the audit log) as if nobody had cancelled: a retry with the same client id finds it.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const gate = cancelGate(controller.signal, "the order");
 * gate.check(); // not cancelled: goes on
 * controller.abort();
 * (() => { try { gate.check(); } catch (e) { return (e as ToolFailure).toolCode; } })(); // "CANCELLED"
 * ```
 */
export interface CancelGate {
  /**
   * Throws a `CANCELLED` {@link ToolFailure} when the request was cancelled and nothing of the write
   * was sent yet; does nothing once a transaction went out.
   */
  check(): void;
  /**
   * For `sendClob`'s `onBroadcast`: at `sending`, right before the signed bytes go out, the last
   * check (what it throws stops the send); from then on the write is sent.
   */
  onBroadcast(step: BroadcastProgress): void;
  /** True once a transaction of the write may have gone out. */
  readonly sent: boolean;
}

/**
 * The {@link CancelGate} of one write tool call.
 *
 * @param signal - the SDK's `extra.signal` of the call (undefined: never cancelled).
 * @param what - what the write sends, for the message (`"the order"`).
 * @returns the gate.
 * @example
 * ```ts
 * const gate = cancelGate(AbortSignal.abort(), "the order");
 * gate.sent; // false
 * ```
 */
export function cancelGate(signal: AbortSignal | undefined, what: string): CancelGate {
  let sent = false;
  const check = () => {
    if (sent || !signal?.aborted) return;
    throw new ToolFailure("CANCELLED", `the request was cancelled before ${what} was sent: nothing was sent`);
  };
  return {
    check,
    onBroadcast(step) {
      if (step.stage !== "sending") return;
      check();
      sent = true;
    },
    get sent() {
      return sent;
    },
  };
}
