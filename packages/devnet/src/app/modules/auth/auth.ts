/**
 * x/auth: accounts (number, sequence, public key), module accounts, params, and their queries.
 *
 * Store slice `auth/`:
 * - `acc/<hex20>`: a fixed 50-byte record (account number u64, sequence u64, key type u8, key 33
 *   bytes; zeros when no key is set), so its write costs the same gas whatever it holds;
 * - `mod/<name>`: the hex address of a module account, and `modinfo/<hex20>` its JSON
 *   `{name, permissions}`;
 * - `next_account_number`: u64.
 */
import { create } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { cosmosAuth, cosmosSecp256k1, ethSecp256k1 } from "@perpx/proto";
import { type Module, notFound, packAny, type QueryContext, queryHandler } from "../../kernel/module.js";
import type { KvStore } from "../../kernel/store.js";
import { accAddressBytes, addressFromKey, addressKey, bech32Of, moduleAddress } from "../../lib/addresses.js";
import { decodeU64, encodeU64, fromUtf8, utf8 } from "../../lib/codec.js";
import { ETH_SECP256K1_PUBKEY_TYPE_URL, type KeyAlgo, SECP256K1_PUBKEY_TYPE_URL } from "../../lib/crypto.js";
import { abciError, sdkErrors } from "../../lib/errors.js";
import { paginate } from "../../lib/pagination.js";

/** The module's name and store prefix. */
export const AUTH = "auth";

/** Anything that can hand out store slices: a {@link Context} or a {@link QueryContext}. */
export interface StoreAccess {
  store(name: string): KvStore;
}

/** An account's public key. */
export interface AccountPubKey {
  readonly algo: KeyAlgo;
  /** 33-byte compressed key. */
  readonly key: Uint8Array;
}

/** An account as the auth module keeps it. */
export interface Account {
  /** 20 address bytes. */
  readonly address: Uint8Array;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  readonly pubKey: AccountPubKey | undefined;
}

/** A module account the chain creates at genesis. */
export interface ModuleAccountSpec {
  readonly name: string;
  /** SDK permissions: "minter", "burner", "staking". */
  readonly permissions: readonly string[];
}

/**
 * The module accounts of the chain: the SDK's, and those perpx modules use (subaccount collateral,
 * insurance fund, bridge escrow, wrap collateral, delayed messages, rewards and community pools).
 */
export const MODULE_ACCOUNTS: readonly ModuleAccountSpec[] = Object.freeze([
  { name: "fee_collector", permissions: [] },
  { name: "distribution", permissions: [] },
  { name: "bonded_tokens_pool", permissions: ["burner", "staking"] },
  { name: "not_bonded_tokens_pool", permissions: ["burner", "staking"] },
  { name: "gov", permissions: ["burner"] },
  { name: "transfer", permissions: ["minter", "burner"] },
  { name: "subaccounts", permissions: [] },
  { name: "insurance_fund", permissions: [] },
  { name: "bridge", permissions: ["minter"] },
  { name: "wrap", permissions: ["minter", "burner"] },
  { name: "delaymsg", permissions: [] },
  { name: "rewards_treasury", permissions: [] },
  { name: "rewards_vester", permissions: [] },
  { name: "community_treasury", permissions: [] },
  { name: "community_vester", permissions: [] },
  { name: "devnet_faucet", permissions: ["minter", "burner"] },
]);

/** Auth params (the SDK defaults; dYdX keeps them). */
export const AUTH_PARAMS = Object.freeze({
  maxMemoCharacters: 256n,
  txSigLimit: 7n,
  txSizeCostPerByte: 10n,
  sigVerifyCostEd25519: 590n,
  sigVerifyCostSecp256k1: 1000n,
});

const RECORD_LENGTH = 8 + 8 + 1 + 33;
const ALGO_CODES: Record<KeyAlgo, number> = { secp256k1: 1, eth_secp256k1: 2 };

function encodeAccount(account: Account): Uint8Array {
  const out = new Uint8Array(RECORD_LENGTH);
  out.set(encodeU64(account.accountNumber), 0);
  out.set(encodeU64(account.sequence), 8);
  if (account.pubKey !== undefined) {
    out[16] = ALGO_CODES[account.pubKey.algo];
    out.set(account.pubKey.key, 17);
  }
  return out;
}

function decodeAccount(address: Uint8Array, bytes: Uint8Array): Account {
  const code = bytes[16];
  const algo: KeyAlgo | undefined = code === 1 ? "secp256k1" : code === 2 ? "eth_secp256k1" : undefined;
  return {
    address,
    accountNumber: decodeU64(bytes, 0),
    sequence: decodeU64(bytes, 8),
    pubKey: algo === undefined ? undefined : { algo, key: bytes.slice(17, 50) },
  };
}

/** The `Any` of a public key, with the type URL the chain reports for its algorithm. */
export function pubKeyAny(pubKey: AccountPubKey): Any {
  return pubKey.algo === "secp256k1"
    ? packAny(cosmosSecp256k1.PubKeySchema, create(cosmosSecp256k1.PubKeySchema, { key: pubKey.key }))
    : packAny(ethSecp256k1.PubKeySchema, create(ethSecp256k1.PubKeySchema, { key: pubKey.key }));
}

/** Reads and writes accounts. Every method takes the context whose store it should use. */
export class AuthKeeper {
  /** Module account names by hex address (fixed at construction). */
  private readonly moduleNames = new Map<string, ModuleAccountSpec>();
  /** The module account names (fixed at construction). */
  private readonly moduleAccountNames: ReadonlySet<string>;

  constructor(readonly moduleAccounts: readonly ModuleAccountSpec[] = MODULE_ACCOUNTS) {
    for (const spec of moduleAccounts) this.moduleNames.set(addressKey(moduleAddress(spec.name)), spec);
    this.moduleAccountNames = new Set(moduleAccounts.map((spec) => spec.name));
  }

  /** The account at `address`, or undefined. */
  getAccount(ctx: StoreAccess, address: Uint8Array): Account | undefined {
    const bytes = ctx.store(AUTH).get(`acc/${addressKey(address)}`);
    return bytes === undefined ? undefined : decodeAccount(address, bytes);
  }

  /** True when an account exists at `address`. */
  hasAccount(ctx: StoreAccess, address: Uint8Array): boolean {
    return ctx.store(AUTH).has(`acc/${addressKey(address)}`);
  }

  /** Writes an account. */
  setAccount(ctx: StoreAccess, account: Account): void {
    ctx.store(AUTH).set(`acc/${addressKey(account.address)}`, encodeAccount(account));
  }

  /** Creates an account with the next account number (the SDK's `NewAccountWithAddress` + `SetAccount`). */
  createAccount(ctx: StoreAccess, address: Uint8Array): Account {
    const store = ctx.store(AUTH);
    const next = store.get("next_account_number");
    const accountNumber = next === undefined ? 0n : decodeU64(next);
    store.set("next_account_number", encodeU64(accountNumber + 1n));
    const account: Account = { address, accountNumber, sequence: 0n, pubKey: undefined };
    this.setAccount(ctx, account);
    return account;
  }

  /** The module account spec of an address, when it is one. */
  moduleAccountAt(address: Uint8Array): ModuleAccountSpec | undefined {
    return this.moduleNames.get(addressKey(address));
  }

  /** The address of a module account by name; throws for an unknown module account. */
  moduleAddress(name: string): Uint8Array {
    if (!this.moduleAccountNames.has(name)) {
      throw abciError(sdkErrors.unknownAddress, `module account ${name} does not exist`);
    }
    return moduleAddress(name);
  }

  /** Every account, ordered by address. */
  allAccounts(ctx: StoreAccess): Account[] {
    const accounts: Account[] = [];
    for (const [key, value] of ctx.store(AUTH).entries("acc/")) {
      accounts.push(decodeAccount(addressFromKey(key.slice(4)), value));
    }
    return accounts;
  }

  /** Creates the module accounts that do not exist yet (genesis). */
  initModuleAccounts(ctx: StoreAccess): void {
    for (const spec of this.moduleAccounts) {
      const address = moduleAddress(spec.name);
      const store = ctx.store(AUTH);
      store.set(`mod/${spec.name}`, utf8(addressKey(address)));
      store.set(
        `modinfo/${addressKey(address)}`,
        utf8(JSON.stringify({ name: spec.name, permissions: spec.permissions })),
      );
      if (!this.hasAccount(ctx, address)) this.createAccount(ctx, address);
    }
  }

  /** The `BaseAccount` proto of an account. */
  baseAccount(account: Account): cosmosAuth.BaseAccount {
    const base = create(cosmosAuth.BaseAccountSchema, {
      address: bech32Of(account.address),
      accountNumber: account.accountNumber,
      sequence: account.sequence,
    });
    if (account.pubKey !== undefined) base.pubKey = pubKeyAny(account.pubKey);
    return base;
  }

  /** The account as the Account query packs it: `BaseAccount`, or `ModuleAccount` for a module's. */
  accountAny(ctx: StoreAccess, account: Account): Any {
    const info = ctx.store(AUTH).get(`modinfo/${addressKey(account.address)}`);
    if (info === undefined) return packAny(cosmosAuth.BaseAccountSchema, this.baseAccount(account));
    const { name, permissions } = JSON.parse(fromUtf8(info)) as { name: string; permissions: string[] };
    return packAny(
      cosmosAuth.ModuleAccountSchema,
      create(cosmosAuth.ModuleAccountSchema, { baseAccount: this.baseAccount(account), name, permissions }),
    );
  }

  /** The account's JSON as `/genesis` and REST print it. */
  accountJson(ctx: StoreAccess, account: Account): Record<string, unknown> {
    const base = {
      address: bech32Of(account.address),
      pub_key:
        account.pubKey === undefined
          ? null
          : {
              "@type":
                account.pubKey.algo === "secp256k1"
                  ? SECP256K1_PUBKEY_TYPE_URL
                  : ETH_SECP256K1_PUBKEY_TYPE_URL,
              key: Buffer.from(account.pubKey.key).toString("base64"),
            },
      account_number: account.accountNumber.toString(),
      sequence: account.sequence.toString(),
    };
    const info = ctx.store(AUTH).get(`modinfo/${addressKey(account.address)}`);
    if (info === undefined) return { "@type": "/cosmos.auth.v1beta1.BaseAccount", ...base };
    const { name, permissions } = JSON.parse(fromUtf8(info)) as { name: string; permissions: string[] };
    return { "@type": "/cosmos.auth.v1beta1.ModuleAccount", base_account: base, name, permissions };
  }
}

/** The `Params` proto. */
function paramsProto(): cosmosAuth.Params {
  return create(cosmosAuth.ParamsSchema, AUTH_PARAMS);
}

function queryAddress(text: string): Uint8Array {
  if (text === "")
    throw abciError(
      sdkErrors.invalidRequest,
      "rpc error: code = InvalidArgument desc = Address cannot be empty",
    );
  try {
    return accAddressBytes(text, "decoding bech32 failed");
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/: invalid address$/, "") : String(error);
    throw abciError(sdkErrors.invalidRequest, `rpc error: code = InvalidArgument desc = ${reason}`);
  }
}

/** What the auth module needs at genesis: accounts to create, in this order (before module accounts). */
export interface AuthGenesis {
  readonly accounts: readonly Uint8Array[];
}

/** Builds the auth module around its keeper. */
export function createAuthModule(keeper: AuthKeeper, genesis: AuthGenesis): Module {
  const account = (ctx: QueryContext, text: string) => {
    const address = queryAddress(text);
    const found = keeper.getAccount(ctx, address);
    if (found === undefined) throw notFound(`account ${text} not found`);
    return found;
  };
  return {
    name: AUTH,
    initGenesis(ctx) {
      for (const address of genesis.accounts) {
        if (!keeper.hasAccount(ctx, address)) keeper.createAccount(ctx, address);
      }
      keeper.initModuleAccounts(ctx);
    },
    exportGenesis(ctx) {
      return {
        params: {
          max_memo_characters: AUTH_PARAMS.maxMemoCharacters.toString(),
          tx_sig_limit: AUTH_PARAMS.txSigLimit.toString(),
          tx_size_cost_per_byte: AUTH_PARAMS.txSizeCostPerByte.toString(),
          sig_verify_cost_ed25519: AUTH_PARAMS.sigVerifyCostEd25519.toString(),
          sig_verify_cost_secp256k1: AUTH_PARAMS.sigVerifyCostSecp256k1.toString(),
        },
        accounts: keeper.allAccounts(ctx).map((a) => keeper.accountJson(ctx, a)),
      };
    },
    queries: {
      "/cosmos.auth.v1beta1.Query/Account": queryHandler(
        () => cosmosAuth.QueryAccountRequestSchema,
        () => cosmosAuth.QueryAccountResponseSchema,
        (ctx, req) =>
          create(cosmosAuth.QueryAccountResponseSchema, {
            account: keeper.accountAny(ctx, account(ctx, req.address)),
          }),
      ),
      "/cosmos.auth.v1beta1.Query/AccountInfo": queryHandler(
        () => cosmosAuth.QueryAccountInfoRequestSchema,
        () => cosmosAuth.QueryAccountInfoResponseSchema,
        (ctx, req) =>
          create(cosmosAuth.QueryAccountInfoResponseSchema, {
            info: keeper.baseAccount(account(ctx, req.address)),
          }),
      ),
      "/cosmos.auth.v1beta1.Query/Accounts": queryHandler(
        () => cosmosAuth.QueryAccountsRequestSchema,
        () => cosmosAuth.QueryAccountsResponseSchema,
        (ctx, req) => {
          const items = keeper.allAccounts(ctx).map((a) => ({ key: a.address, value: a }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(cosmosAuth.QueryAccountsResponseSchema, {
            accounts: page.map((a) => keeper.accountAny(ctx, a)),
            pagination,
          });
        },
      ),
      "/cosmos.auth.v1beta1.Query/Params": queryHandler(
        () => cosmosAuth.QueryParamsRequestSchema,
        () => cosmosAuth.QueryParamsResponseSchema,
        () => create(cosmosAuth.QueryParamsResponseSchema, { params: paramsProto() }),
      ),
      "/cosmos.auth.v1beta1.Query/ModuleAccounts": queryHandler(
        () => cosmosAuth.QueryModuleAccountsRequestSchema,
        () => cosmosAuth.QueryModuleAccountsResponseSchema,
        (ctx) =>
          create(cosmosAuth.QueryModuleAccountsResponseSchema, {
            accounts: [...keeper.moduleAccounts]
              .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
              .flatMap((spec) => {
                const found = keeper.getAccount(ctx, moduleAddress(spec.name));
                return found === undefined ? [] : [keeper.accountAny(ctx, found)];
              }),
          }),
      ),
      "/cosmos.auth.v1beta1.Query/ModuleAccountByName": queryHandler(
        () => cosmosAuth.QueryModuleAccountByNameRequestSchema,
        () => cosmosAuth.QueryModuleAccountByNameResponseSchema,
        (ctx, req) => {
          if (req.name === "") {
            throw abciError(
              sdkErrors.invalidRequest,
              "rpc error: code = InvalidArgument desc = module name is empty",
            );
          }
          const spec = keeper.moduleAccounts.find((s) => s.name === req.name);
          const found = spec === undefined ? undefined : keeper.getAccount(ctx, moduleAddress(spec.name));
          if (found === undefined) throw notFound(`account ${req.name} not found`);
          return create(cosmosAuth.QueryModuleAccountByNameResponseSchema, {
            account: keeper.accountAny(ctx, found),
          });
        },
      ),
      "/cosmos.auth.v1beta1.Query/Bech32Prefix": queryHandler(
        () => cosmosAuth.Bech32PrefixRequestSchema,
        () => cosmosAuth.Bech32PrefixResponseSchema,
        () => create(cosmosAuth.Bech32PrefixResponseSchema, { bech32Prefix: "perpx" }),
      ),
    },
  };
}
