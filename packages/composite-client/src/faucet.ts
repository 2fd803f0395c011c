import { parseAddress } from "@perpx/address";
import { assertKnownKeys, FAUCET_TOKENS_PATH, getEndpoint, optionKeys } from "@perpx/core";
import { InvalidArgumentError, PerpxError, type PerpxErrorCode } from "@perpx/errors";
import type { ClientContext } from "./client.js";
import { subaccountOf } from "./trader.js";

/**
 * The faucet's answer: what it credited.
 *
 * @example
 * ```ts
 * const { address, credited }: FaucetGrant = await requestFaucetTokens({ faucetUrl, address: wallet.address });
 * address === wallet.address; // true
 * credited.map((coin) => coin.denom); // ["uusdc", "aperpx"]
 * ```
 */
export interface FaucetGrant {
  /** The funded account (bech32). */
  address: string;
  /** The same account as 0x hex. */
  evmAddress: string;
  /** The coins credited to the account, in base units. */
  credited: readonly { denom: string; amount: string }[];
  /** The USDC credited to the subaccount, in quote quantums. */
  subaccount: { number: number; quantums: string };
}

/**
 * A faucet request the faucet refused (`reason` is its code: `invalid_address`, `rate_limited`,
 * ...) or could not be reached (`reason` is `unreachable`).
 *
 * @example
 * ```ts
 * const error = new FaucetError("rate_limited", "funded 2 s ago", 429);
 * error.reason; // "rate_limited"
 * ```
 */
export class FaucetError extends PerpxError {
  override name = "FaucetError";
  /** The faucet's error code, or `unreachable`. */
  readonly reason: string;
  /** The HTTP status, when the faucet answered. */
  readonly status: number | undefined;

  /**
   * @param reason - the faucet's code.
   * @param message - what it said.
   * @param status - the HTTP status.
   * @param cause - the network error.
   */
  constructor(reason: string, message: string, status?: number, cause?: unknown) {
    const code: PerpxErrorCode =
      reason === "invalid_address"
        ? "INVALID_ADDRESS"
        : reason === "invalid_subaccount"
          ? "INVALID_SUBACCOUNT"
          : "TRANSPORT";
    super(code, `The faucet refused the request: ${message}`, cause === undefined ? {} : { cause });
    this.reason = reason;
    this.status = status;
  }
}

/**
 * Asks a faucet (`POST /faucet/tokens`) to fund an account, given in either address form
 * (`perpx1...` or `0x...`), and its subaccount.
 *
 * @param params - the faucet's URL, the address (either form), its subaccount (0 by default) and an
 *   optional `fetch`.
 * @returns resolves with what the faucet granted (the address and the subaccount's USDC in
 *   quantums); rejects with `InvalidAddressError` for a bad address before any request, and
 *   `FaucetError` (its `reason` and HTTP `status`) when the faucet refuses.
 * @throws {InvalidAddressError} for an address in neither form, before anything is sent.
 * @throws {FaucetError} when the faucet refuses (rate limit, bad address) or cannot be reached.
 *
 * @example
 * ```ts
 * import { addressToHex } from "@perpx/core";
 *
 * const grant = await requestFaucetTokens({ faucetUrl, address: addressToHex(wallet.address) });
 * grant.subaccount; // { number: 0, quantums: "1000000000" }
 * await requestFaucetTokens({ faucetUrl, address: "perpx1typo" }); // throws InvalidAddressError
 * ```
 */
export async function requestFaucetTokens(params: {
  faucetUrl: string;
  address: string;
  subaccountNumber?: number;
  fetch?: typeof fetch;
}): Promise<FaucetGrant> {
  parseAddress(params.address);
  const body = {
    address: params.address,
    ...(params.subaccountNumber === undefined ? {} : { subaccountNumber: params.subaccountNumber }),
  };
  let response: Response;
  try {
    response = await (params.fetch ?? fetch)(`${params.faucetUrl}${FAUCET_TOKENS_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new FaucetError("unreachable", `${params.faucetUrl} did not answer`, undefined, error);
  }
  const answer = (await response.json().catch(() => ({}))) as Partial<FaucetGrant> & {
    code?: string;
    message?: string;
  };
  if (!response.ok) {
    throw new FaucetError(
      answer.code ?? "internal",
      answer.message ?? `HTTP ${response.status}`,
      response.status,
    );
  }
  return answer as FaucetGrant;
}

const FAUCET_KEYS = optionKeys<{ owner?: string; number?: number }>({ owner: true, number: true });

/**
 * Asks the client's network faucet to fund a subaccount `{ owner, number }` (the owner in either
 * address form; the client's account and subaccount 0 by default).
 *
 * @param context - the client's context (its network's faucet endpoint).
 * @param params - the owner and the subaccount number to credit.
 * @returns what the faucet credited.
 * @throws {InvalidArgumentError} for `address` or `subaccountNumber` (the shape is `{ owner, number }`), before anything is sent.
 * @throws {MissingEndpointError} when the network has no faucet.
 * @throws {FaucetError} when the faucet refuses.
 *
 * @example
 * ```ts
 * const grant = await faucetFor(context, {});
 * grant.address === context.trader?.owner; // true
 * ```
 */
export async function faucetFor(
  context: ClientContext,
  params: { owner?: string; number?: number },
): Promise<FaucetGrant> {
  for (const [old, use] of [
    ["address", "owner"],
    ["subaccountNumber", "number"],
  ] as const) {
    if (typeof params === "object" && params !== null && old in params) {
      throw new InvalidArgumentError(
        old,
        `is not a faucet option: a subaccount is { owner, number }, use ${use}`,
      );
    }
  }
  assertKnownKeys(params, FAUCET_KEYS, "faucet");
  return requestFaucetTokens({
    faucetUrl: getEndpoint(context.config, "faucet"),
    address: params.owner ?? subaccountOf(context).owner,
    ...(params.number === undefined ? {} : { subaccountNumber: params.number }),
  });
}
