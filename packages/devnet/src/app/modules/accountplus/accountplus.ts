/**
 * accountplus: timestamp nonces (chain-protocol.md 4.5) and permissioned keys (4.1-4.4):
 * `MsgAddAuthenticator`, `MsgRemoveAuthenticator`, `MsgSetActiveState`, the `TxExtension` route of
 * the ante step ({@link Module.authenticateSigner}), the queries, and the devnet's
 * `ServiceTransaction:ApproveAgent` registration ({@link approveAgent}).
 *
 * Store slice `accountplus/`:
 * - `nonce/<hex20>`: fixed-width {@link TimestampNonceDetails} (see `encodeNonceDetails`).
 * - `next_id`: the global authenticator id counter (8 bytes, big-endian).
 * - `auth/<hex20>/<id, 20 decimal digits>`: an `AccountAuthenticator` (protobuf).
 * - `inactive`: present when smart accounts are switched off (`MsgSetActiveState`).
 * - `approve/<hex20>`: the latest `ApproveAgent` nonce registered for the account (8 bytes).
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  type ApproveAgentParams,
  addressBytes,
  approveAgentTypedData,
  isInvalidArgumentError,
} from "@perpx/core";
import { accountplus, cosmosTx } from "@perpx/proto";
import { type TypedData, typedDataSignedBy } from "../../../lib/evm/eip712.js";
import { GOV_AUTHORITY } from "../../kernel/governance.js";
import {
  type Context,
  invalidArgument,
  type Module,
  msgHandler,
  notFound,
  packAny,
  queryHandler,
  type SignerCheck,
} from "../../kernel/module.js";
import { accAddressBytes, addressKey, bech32Of } from "../../lib/addresses.js";
import { bytesEqual, decodeU64, encodeU64, fromHex } from "../../lib/codec.js";
import { abciError, sdkErrors } from "../../lib/errors.js";
import { decodeNonceDetails, encodeNonceDetails, type TimestampNonceDetails } from "../../lib/nonce.js";
import type { StoreAccess } from "../auth/auth.js";
import { TX_EXTENSION_URL } from "../msg-type-urls.js";
import {
  type Authenticator,
  accountPlusErrors,
  authenticate,
  checkNewAuthenticator,
  encodeAuthenticator,
  MAX_AUTHENTICATOR_DATA_LENGTH,
  parseAuthenticator,
  tradingKeyAuthenticator,
} from "./authenticators.js";

/** The module's name and store prefix. */
export const ACCOUNTPLUS = "accountplus";

/** Type URL of the `TxExtension` a permissioned-key tx carries in its non-critical extension options. */
export { TX_EXTENSION_URL };

function authKey(address: Uint8Array, id: bigint): string {
  return `auth/${addressKey(address)}/${id.toString().padStart(20, "0")}`;
}

/** Reads and writes timestamp nonce details and authenticators. */
export class AccountPlusKeeper {
  /** The account's timestamp nonce details, or undefined when it never used one. */
  nonceDetails(ctx: StoreAccess, address: Uint8Array): TimestampNonceDetails | undefined {
    const bytes = ctx.store(ACCOUNTPLUS).get(`nonce/${addressKey(address)}`);
    return bytes === undefined ? undefined : decodeNonceDetails(bytes);
  }

  /** Stores the account's timestamp nonce details. */
  setNonceDetails(ctx: StoreAccess, address: Uint8Array, details: TimestampNonceDetails): void {
    ctx.store(ACCOUNTPLUS).set(`nonce/${addressKey(address)}`, encodeNonceDetails(details));
  }

  /** Whether smart accounts (authenticators) are active. */
  isActive(ctx: StoreAccess): boolean {
    return !ctx.store(ACCOUNTPLUS).has("inactive");
  }

  /** Switches smart accounts on or off. */
  setActive(ctx: StoreAccess, active: boolean): void {
    if (active) ctx.store(ACCOUNTPLUS).delete("inactive");
    else ctx.store(ACCOUNTPLUS).set("inactive", new Uint8Array([1]));
  }

  /** The next authenticator id (shared by all accounts). */
  nextId(ctx: StoreAccess): bigint {
    const bytes = ctx.store(ACCOUNTPLUS).get("next_id");
    return bytes === undefined ? 0n : decodeU64(bytes);
  }

  /** Stores an authenticator under the next id and returns the id. */
  addAuthenticator(ctx: StoreAccess, address: Uint8Array, type: string, config: Uint8Array): bigint {
    const id = this.nextId(ctx);
    const record = create(accountplus.AccountAuthenticatorSchema, { id, type, config });
    ctx
      .store(ACCOUNTPLUS)
      .set(authKey(address, id), toBinary(accountplus.AccountAuthenticatorSchema, record));
    ctx.store(ACCOUNTPLUS).set("next_id", encodeU64(id + 1n));
    return id;
  }

  /**
   * Stores an authenticator under its own id (a fork's start, keeping the ids of the chain it
   * copies) and moves the next id past it.
   */
  restoreAuthenticator(
    ctx: StoreAccess,
    address: Uint8Array,
    record: accountplus.AccountAuthenticator,
  ): void {
    ctx
      .store(ACCOUNTPLUS)
      .set(authKey(address, record.id), toBinary(accountplus.AccountAuthenticatorSchema, record));
    if (this.nextId(ctx) <= record.id) ctx.store(ACCOUNTPLUS).set("next_id", encodeU64(record.id + 1n));
  }

  /** An account's authenticator by id, or undefined. */
  getAuthenticator(
    ctx: StoreAccess,
    address: Uint8Array,
    id: bigint,
  ): accountplus.AccountAuthenticator | undefined {
    const bytes = ctx.store(ACCOUNTPLUS).get(authKey(address, id));
    return bytes === undefined ? undefined : fromBinary(accountplus.AccountAuthenticatorSchema, bytes);
  }

  /** Removes an authenticator; false when the account has none with that id. */
  removeAuthenticator(ctx: StoreAccess, address: Uint8Array, id: bigint): boolean {
    const key = authKey(address, id);
    if (!ctx.store(ACCOUNTPLUS).has(key)) return false;
    ctx.store(ACCOUNTPLUS).delete(key);
    return true;
  }

  /** An account's authenticators in id order. */
  authenticators(ctx: StoreAccess, address: Uint8Array): accountplus.AccountAuthenticator[] {
    const out: accountplus.AccountAuthenticator[] = [];
    for (const [, bytes] of ctx.store(ACCOUNTPLUS).entries(`auth/${addressKey(address)}/`)) {
      out.push(fromBinary(accountplus.AccountAuthenticatorSchema, bytes));
    }
    return out;
  }

  /** The latest ApproveAgent nonce registered for an account (0 when none). */
  approveNonce(ctx: StoreAccess, address: Uint8Array): bigint {
    const bytes = ctx.store(ACCOUNTPLUS).get(`approve/${addressKey(address)}`);
    return bytes === undefined ? 0n : decodeU64(bytes);
  }

  /** Records the latest ApproveAgent nonce of an account. */
  setApproveNonce(ctx: StoreAccess, address: Uint8Array, nonce: bigint): void {
    ctx.store(ACCOUNTPLUS).set(`approve/${addressKey(address)}`, encodeU64(nonce));
  }
}

/** The selected authenticator ids of a tx's `TxExtension`, or undefined (absent or empty: the classic path). */
export function selectedAuthenticators(body: cosmosTx.TxBody): bigint[] | undefined {
  for (const option of body.nonCriticalExtensionOptions) {
    if (option.typeUrl !== TX_EXTENSION_URL) continue;
    let extension: accountplus.TxExtension;
    try {
      extension = fromBinary(accountplus.TxExtensionSchema, option.value);
    } catch (error) {
      throw abciError(
        sdkErrors.txDecode,
        `invalid TxExtension: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return extension.selectedAuthenticators.length === 0 ? undefined : extension.selectedAuthenticators;
  }
  return undefined;
}

/**
 * The authenticator flow of the ante step for one signer (chain-protocol.md 4.3): with a non-empty
 * `TxExtension`, each message of this signer is checked by the authenticator its position selects,
 * over the SignDoc with the signer's (owner's) account number. Returns false without a TxExtension.
 */
function authenticateSigner(keeper: AccountPlusKeeper, ctx: Context, check: SignerCheck): boolean {
  const { tx, index, account, simulate } = check;
  const selected = selectedAuthenticators(tx.body);
  if (selected === undefined) return false;
  if (!keeper.isActive(ctx)) throw abciError(accountPlusErrors.notActive);
  if (selected.length !== tx.msgs.length) {
    throw abciError(
      sdkErrors.invalidRequest,
      `Mismatch between the number of selected authenticators (${selected.length}) and messages (${tx.msgs.length})`,
    );
  }
  for (const msg of tx.msgs) {
    if (msg.signers.length !== 1) {
      throw abciError(
        sdkErrors.unauthorized,
        `messages must have exactly one signer, ${msg.typeUrl} has ${msg.signers.length}`,
      );
    }
  }
  const feePayer = tx.authInfo.fee?.payer ?? "";
  const firstSigner = tx.msgs[0]?.signers[0] as string;
  if (feePayer !== "" && feePayer !== firstSigner) {
    throw abciError(
      sdkErrors.unauthorized,
      `fee payer ${feePayer} must be the first message's signer ${firstSigner}`,
    );
  }
  const signer = tx.signers[index] as string;
  const signBytes = toBinary(
    cosmosTx.SignDocSchema,
    create(cosmosTx.SignDocSchema, {
      bodyBytes: tx.raw.bodyBytes,
      authInfoBytes: tx.raw.authInfoBytes,
      chainId: ctx.block.chainId,
      accountNumber: account.accountNumber,
    }),
  );
  const signature = tx.raw.signatures[index] ?? new Uint8Array(0);
  tx.msgs.forEach((msg, i) => {
    if (msg.signers[0] !== signer) return;
    const id = selected[i] as bigint;
    const record = keeper.getAuthenticator(ctx, account.address, id);
    if (record === undefined) {
      throw abciError(
        accountPlusErrors.authenticatorNotFound,
        `authenticator id ${id} not found for account ${signer}`,
      );
    }
    let tree: Authenticator;
    try {
      tree = parseAuthenticator(record.type, record.config);
    } catch (error) {
      throw abciError(sdkErrors.logic, `stored authenticator ${id} does not parse: ${String(error)}`);
    }
    authenticate(tree, { typeUrl: msg.typeUrl, msg: msg.msg, signBytes, signature, simulate });
  });
  return true;
}

/** A sender's address bytes; a bad one is accountplus 2 (the real chain's `ValidateBasic`). */
function senderBytes(sender: string): Uint8Array {
  try {
    return accAddressBytes(sender, "invalid sender address");
  } catch {
    throw abciError(accountPlusErrors.invalidAccountAddress);
  }
}

/**
 * The real chain's add and remove refuse with sdk 4 while smart accounts are off (not with
 * accountplus 4, which its authentication flow uses).
 */
function requireActiveFor(keeper: AccountPlusKeeper, ctx: Context): void {
  if (!keeper.isActive(ctx)) {
    throw abciError(sdkErrors.unauthorized, "smart account authentication flow is not active");
  }
}

/** Options of {@link createAccountPlusModule}. */
export interface AccountPlusOptions {
  /** The chain's EVM chain id (the `chainId` of the ApproveAgent EIP-712 domain). @default 31337 */
  readonly evmChainId?: number;
}

/**
 * Builds the accountplus module. Its devnet control operation `approve-agent` (body
 * {@link ApproveAgentRequest}) runs {@link approveAgent}.
 */
export function createAccountPlusModule(keeper: AccountPlusKeeper, options: AccountPlusOptions = {}): Module {
  const evmChainId = options.evmChainId ?? 31337;
  const requireActive = (ctx: Context) => requireActiveFor(keeper, ctx);
  const account = (text: string, what: string): Uint8Array => {
    try {
      return accAddressBytes(text);
    } catch (error) {
      throw invalidArgument(`${what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return {
    name: ACCOUNTPLUS,
    msgs: [
      msgHandler({
        typeUrl: "/perpx.accountplus.v1.MsgAddAuthenticator",
        schema: () => accountplus.MsgAddAuthenticatorSchema,
        signers: (msg) => [msg.sender],
        // The real chain's ValidateBasic: the sender and the data length; the type, the config and
        // the safety rule are checked when the message runs (in the block).
        validate(msg) {
          senderBytes(msg.sender);
          if (msg.data.length > MAX_AUTHENTICATOR_DATA_LENGTH) throw abciError(accountPlusErrors.dataTooLong);
        },
        execute(ctx, msg) {
          requireActive(ctx);
          const parsed = checkNewAuthenticator(msg.authenticatorType, msg.data);
          const encoded = encodeAuthenticator(parsed);
          const id = keeper.addAuthenticator(ctx, senderBytes(msg.sender), encoded.type, msg.data);
          ctx.events.emitEvent("add_authenticator", [
            ["sender", msg.sender],
            ["authenticator_type", encoded.type],
            ["authenticator_id", id.toString()],
          ]);
          return packAny(
            accountplus.MsgAddAuthenticatorResponseSchema,
            create(accountplus.MsgAddAuthenticatorResponseSchema, { success: true }),
          );
        },
      }),
      msgHandler({
        typeUrl: "/perpx.accountplus.v1.MsgRemoveAuthenticator",
        schema: () => accountplus.MsgRemoveAuthenticatorSchema,
        signers: (msg) => [msg.sender],
        validate(msg) {
          senderBytes(msg.sender);
        },
        execute(ctx, msg) {
          requireActive(ctx);
          if (!keeper.removeAuthenticator(ctx, senderBytes(msg.sender), msg.id)) {
            throw abciError(
              accountPlusErrors.authenticatorNotFound,
              `RemoveAuthenticator: failed to get authenticator ${msg.id} for address ${msg.sender}`,
            );
          }
          ctx.events.emitEvent("remove_authenticator", [
            ["sender", msg.sender],
            ["authenticator_id", msg.id.toString()],
          ]);
          return packAny(
            accountplus.MsgRemoveAuthenticatorResponseSchema,
            create(accountplus.MsgRemoveAuthenticatorResponseSchema, { success: true }),
          );
        },
      }),
      msgHandler({
        typeUrl: "/perpx.accountplus.v1.MsgSetActiveState",
        schema: () => accountplus.MsgSetActiveStateSchema,
        signers: (msg) => [msg.authority],
        validate(msg) {
          accAddressBytes(msg.authority, "invalid authority address");
        },
        execute(ctx, msg) {
          if (msg.authority !== GOV_AUTHORITY) {
            throw abciError(
              sdkErrors.unauthorized,
              `invalid authority ${msg.authority}; expected ${GOV_AUTHORITY}`,
            );
          }
          keeper.setActive(ctx, msg.active);
          return packAny(
            accountplus.MsgSetActiveStateResponseSchema,
            create(accountplus.MsgSetActiveStateResponseSchema, {}),
          );
        },
      }),
    ],
    authenticateSigner: (ctx, check) => authenticateSigner(keeper, ctx, check),
    control: {
      "approve-agent": (ctx, request) =>
        approveAgent(ctx, keeper, request as unknown as ApproveAgentRequest, { evmChainId }),
    },
    exportGenesis: (ctx) => {
      const data = new Map<string, Array<{ id: string; type: string; config: string }>>();
      for (const [key, bytes] of ctx.store(ACCOUNTPLUS).entries("auth/")) {
        const owner = bech32Of(fromHex(key.split("/")[1] as string));
        const record = fromBinary(accountplus.AccountAuthenticatorSchema, bytes);
        const list = data.get(owner) ?? [];
        list.push({
          id: record.id.toString(),
          type: record.type,
          config: Buffer.from(record.config).toString("base64"),
        });
        data.set(owner, list);
      }
      return {
        accounts: [],
        params: { is_smart_account_active: keeper.isActive(ctx) },
        next_authenticator_id: keeper.nextId(ctx).toString(),
        authenticator_data: [...data].map(([address, authenticators]) => ({ address, authenticators })),
      };
    },
    queries: {
      "/perpx.accountplus.v1.Query/AccountState": queryHandler(
        () => accountplus.AccountStateRequestSchema,
        () => accountplus.AccountStateResponseSchema,
        (ctx, req) => {
          const address = account(req.address, "invalid address");
          const details = keeper.nonceDetails(ctx, address);
          if (details === undefined) throw notFound(`account state for ${req.address} not found`);
          return create(accountplus.AccountStateResponseSchema, {
            accountState: create(accountplus.AccountStateSchema, {
              address: req.address,
              timestampNonceDetails: create(accountplus.TimestampNonceDetailsSchema, {
                timestampNonces: [...details.timestampNonces],
                maxEjectedNonce: details.maxEjectedNonce,
              }),
            }),
          });
        },
      ),
      "/perpx.accountplus.v1.Query/GetAuthenticators": queryHandler(
        () => accountplus.GetAuthenticatorsRequestSchema,
        () => accountplus.GetAuthenticatorsResponseSchema,
        (ctx, req) =>
          create(accountplus.GetAuthenticatorsResponseSchema, {
            accountAuthenticators: keeper.authenticators(ctx, account(req.account, "invalid account")),
          }),
      ),
      "/perpx.accountplus.v1.Query/GetAuthenticator": queryHandler(
        () => accountplus.GetAuthenticatorRequestSchema,
        () => accountplus.GetAuthenticatorResponseSchema,
        (ctx, req) => {
          const record = keeper.getAuthenticator(
            ctx,
            account(req.account, "invalid account"),
            req.authenticatorId,
          );
          if (record === undefined) {
            throw notFound(`authenticator ${req.authenticatorId} for account ${req.account} not found`);
          }
          return create(accountplus.GetAuthenticatorResponseSchema, { accountAuthenticator: record });
        },
      ),
      "/perpx.accountplus.v1.Query/Params": queryHandler(
        () => accountplus.QueryParamsRequestSchema,
        () => accountplus.QueryParamsResponseSchema,
        (ctx) =>
          create(accountplus.QueryParamsResponseSchema, {
            params: create(accountplus.ParamsSchema, { isSmartAccountActive: keeper.isActive(ctx) }),
          }),
      ),
    },
  };
}

/** The body of `POST /devnet/approve-agent`: an EVM wallet's signed `ServiceTransaction:ApproveAgent`. */
export interface ApproveAgentRequest {
  /** 65 bytes `r‖s‖v`, 0x-hex. */
  readonly typedDataSignature: string;
  /** The signed message (`approveAgentTypedData(...).message`): addresses as text, numbers as decimal strings or numbers. */
  readonly message: {
    readonly masterAddress: string;
    readonly agentAddress?: string;
    readonly agentPublicKey: string;
    readonly nonce: string | number;
    readonly expiry?: string | number;
  };
}

/** What {@link approveAgent} registered. */
export interface ApproveAgentResult {
  /** The master account (bech32). */
  readonly address: string;
  /** The trading key's authenticator: AllOf[SignatureVerification, AnyOf[3 MessageFilters], SubaccountFilter(0)]. */
  readonly agentAuthenticatorId: bigint;
  /** The account's `EthAddressSignatureVerification` authenticator (registered on first approval). */
  readonly ethAuthenticatorId: bigint;
}

function rejected(context: string): never {
  throw abciError(sdkErrors.unauthorized, `approve agent: ${context}`);
}

/**
 * Verifies an EVM wallet's EIP-712 `ServiceTransaction:ApproveAgent` and registers the agent key.
 * The signature must recover to `message.masterAddress` (the account's own 20 bytes) under the
 * chain's EVM chain id; the nonce must exceed the account's previous approval nonce and the approval
 * must not have expired at block time. Then the account gets the trading key's authenticator and,
 * unless it already has one for its address, an `EthAddressSignatureVerification` authenticator
 * (so the EVM wallet can itself sign txs through a `TxExtension`).
 *
 * @throws {AbciError} sdk 4 for a bad or replayed approval, dydxaccountplus 4 when inactive.
 *
 * @example
 * ```ts
 * import { secp256k1 } from "@noble/curves/secp256k1.js";
 * import { keccak_256 } from "@noble/hashes/sha3.js";
 * import { approveAgentTypedData, toBech32 } from "@perpx/core";
 * import { hashTypedData } from "@perpx/core/evm";
 *
 * const wallet = new Uint8Array(32).fill(0x11); // the EVM wallet's secret key
 * const walletAddress = keccak_256(secp256k1.getPublicKey(wallet, false).subarray(1)).subarray(12);
 * const params = {
 *   evmChainId: 31337, // the local profile
 *   masterAddress: `0x${Buffer.from(walletAddress).toString("hex")}`,
 *   agentPublicKey: secp256k1.getPublicKey(new Uint8Array(32).fill(0x22)), // the trading key
 *   nonce: 1_767_225_600_000,
 * };
 * // eth_signTypedData_v4: r‖s‖v over the EIP-712 digest
 * const recovered = secp256k1.sign(hashTypedData(approveAgentTypedData(params)), wallet, { prehash: false, format: "recovered" });
 * const signature = new Uint8Array([...recovered.subarray(1), recovered[0]! + 27]);
 * const { message } = approveAgentTypedData(params);
 * const request: ApproveAgentRequest = {
 *   typedDataSignature: `0x${Buffer.from(signature).toString("hex")}`,
 *   message: {
 *     masterAddress: String(message.masterAddress),
 *     agentPublicKey: String(message.agentPublicKey),
 *     nonce: String(message.nonce),
 *   },
 * };
 * const results: ApproveAgentResult[] = [];
 * // The keeper runs inside a block's context: here a control operation of an extra module.
 * const app = ChainApplication.create(
 *   { profile: "local", genesisTime: new Date("2026-01-01T00:00:00Z") },
 *   {
 *     extraModules: (keepers) => [
 *       {
 *         name: "example",
 *         control: {
 *           approve: (ctx) => {
 *             results.push(approveAgent(ctx, keepers.accountPlus, request, { evmChainId: 31337 }));
 *             return {};
 *           },
 *         },
 *       },
 *     ],
 *   },
 * );
 * app.control.moduleControl("example", "approve", {});
 * results[0]?.address === toBech32(params.masterAddress); // true
 * app.control.moduleControl("example", "approve", {}); // throws AbciError: sdk 4, the nonce was used
 * ```
 */
export function approveAgent(
  ctx: Context,
  keeper: AccountPlusKeeper,
  request: ApproveAgentRequest,
  options: { evmChainId: number },
): ApproveAgentResult {
  if (!keeper.isActive(ctx)) throw abciError(accountPlusErrors.notActive);
  const message = request.message;
  if (typeof message !== "object" || message === null) rejected("message must be an object");
  let params: ApproveAgentParams;
  let typedData: TypedData;
  let master: Uint8Array;
  let agentKey: Uint8Array;
  try {
    const nonce = BigInt(message.nonce);
    const expiry = BigInt(message.expiry ?? 0);
    params = {
      evmChainId: options.evmChainId,
      masterAddress: message.masterAddress,
      agentPublicKey: message.agentPublicKey,
      nonce,
      expiry,
    };
    typedData = approveAgentTypedData(params);
    if (
      message.agentAddress !== undefined &&
      String(typedData.message.agentAddress).toLowerCase() !== message.agentAddress.toLowerCase()
    ) {
      rejected("agentAddress does not match agentPublicKey");
    }
    master = addressBytes(message.masterAddress);
    agentKey = fromHex(String(typedData.message.agentPublicKey).slice(2));
  } catch (error) {
    if (isInvalidArgumentError(error)) rejected(error.message);
    if (error instanceof SyntaxError || error instanceof TypeError || error instanceof RangeError) {
      rejected(`bad message field: ${error.message}`);
    }
    throw error;
  }
  const expiry = BigInt(params.expiry ?? 0);
  const expired = expiry !== 0n && ctx.block.timeMs / 1000n > expiry;
  if (expired || !typedDataSignedBy(typedData, request.typedDataSignature, master)) {
    rejected("the signature does not recover to masterAddress, or the approval expired");
  }
  const nonce = BigInt(params.nonce);
  const previous = keeper.approveNonce(ctx, master);
  if (nonce <= previous) rejected(`nonce ${nonce} is not above the last approval nonce ${previous}`);
  keeper.setApproveNonce(ctx, master, nonce);

  const agent = encodeAuthenticator(tradingKeyAuthenticator(agentKey));
  const agentAuthenticatorId = keeper.addAuthenticator(ctx, master, agent.type, agent.config);
  let ethAuthenticatorId = keeper
    .authenticators(ctx, master)
    .find((a) => a.type === "EthAddressSignatureVerification" && bytesEqual(a.config, master))?.id;
  if (ethAuthenticatorId === undefined) {
    ethAuthenticatorId = keeper.addAuthenticator(
      ctx,
      master,
      "EthAddressSignatureVerification",
      master.slice(),
    );
  }
  const address = bech32Of(master);
  ctx.events.emitEvent("approve_agent", [
    ["address", address],
    ["agent_public_key", Buffer.from(agentKey).toString("base64")],
    ["agent_authenticator_id", agentAuthenticatorId.toString()],
    ["eth_authenticator_id", ethAuthenticatorId.toString()],
  ]);
  return { address, agentAuthenticatorId, ethAuthenticatorId };
}
