/**
 * Devnet control routes of the source chains: `POST /devnet/source/fund` credits ETH and USDC to an
 * address (a source-chain faucet), `POST /devnet/source/blocks` seals blocks now.
 */
import { ControlError, type ControlRouter } from "../servers/control-router.js";
import type { SourceChains } from "./index.js";

function chainOf(chains: Pick<SourceChains, "l1" | "l2">, value: unknown) {
  if (value !== "l1" && value !== "l2") {
    throw new ControlError(
      400,
      "invalid_request",
      `the field "chain" must be "l1" or "l2", got ${JSON.stringify(value)}`,
    );
  }
  return chains[value];
}

function amountOf(value: unknown, name: string): bigint {
  if (value === undefined) return 0n;
  if (typeof value !== "string" || !/^\d{1,78}$/.test(value)) {
    throw new ControlError(
      400,
      "invalid_request",
      `the field "${name}" must be a decimal string of base units`,
    );
  }
  return BigInt(value);
}

/** Adds the source chains' control routes. */
export function addSourceChainRoutes(router: ControlRouter, chains: Pick<SourceChains, "l1" | "l2">): void {
  router.add("POST", "/source/fund", ({ body }) => {
    const running = chainOf(chains, body.chain);
    const address = body.address;
    if (typeof address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
      throw new ControlError(400, "invalid_request", 'the field "address" must be a 0x address');
    }
    const eth = amountOf(body.eth, "eth");
    const usdc = amountOf(body.usdc, "usdc");
    if (eth === 0n && usdc === 0n)
      throw new ControlError(400, "invalid_request", 'give "eth" (wei) or "usdc" (base units)');
    running.fund(address, { eth, usdc });
    const ledger = running.chain.ledger;
    return {
      chain: body.chain,
      address,
      eth: ledger.ethBalance(address).toString(),
      usdc: ledger.usdcBalance(address).toString(),
    };
  });
  router.add("POST", "/source/blocks", ({ body }) => {
    const running = chainOf(chains, body.chain);
    const count = body.count ?? 1;
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > 1000) {
      throw new ControlError(400, "invalid_request", 'the field "count" must be an integer from 1 to 1000');
    }
    running.mine(count);
    return { chain: body.chain, height: running.chain.head().number.toString() };
  });
}
