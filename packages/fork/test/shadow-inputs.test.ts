/**
 * `startShadow` refuses a `maxReconnectDelayMs` that is no positive number of ms by its own name,
 * before opening anything (the live indexer's URL here refuses every connection): it used to reach
 * the indexer client, which named its own option (`reconnect.maxDelayMs`), and `NaN` or `Infinity`
 * in the refused-subscription retry made it resubscribe every millisecond.
 */
import { isInvalidArgumentError } from "@perpx/core";
import type { Devnet } from "@perpx/devnet";
import { expect, it } from "vitest";
import { startShadow } from "../src/shadow.js";

it("refuses a maxReconnectDelayMs that is NaN, negative, zero, infinite or no number, naming it", async () => {
  const devnet = {} as Devnet;
  for (const maxReconnectDelayMs of [Number.NaN, -1, 0, Number.POSITIVE_INFINITY, "5" as unknown as number]) {
    const error = await startShadow({
      devnet,
      indexerWs: "ws://127.0.0.1:9/v4/ws",
      markets: [],
      maxReconnectDelayMs,
    }).catch((e: unknown) => e);
    expect(isInvalidArgumentError(error) && error.argument, String(maxReconnectDelayMs)).toBe(
      "maxReconnectDelayMs",
    );
  }
});
