/**
 * x/bank: balances, supply, denom metadata, MsgSend and MsgMultiSend, mint/burn for modules, and
 * the bank queries. Events follow the SDK: `coin_spent`, `coin_received`, `transfer`
 * (`recipient`, `sender`, `amount`), `message` (`sender`), `coinbase`, `burn`.
 *
 * Store slice `bank/`:
 * - `bal/<hex20>/<denom>`: 32-byte big-endian amount. Zero balances stay stored (as zero) so a
 *   write never turns into a cheaper delete; queries skip them.
 * - `supply/<denom>`: 32-byte amount.
 * - `meta/<denom>`: `Metadata` proto bytes.
 */
import { create } from "@bufbuild/protobuf";
import { cosmosBank, cosmosBase, type cosmosQuery } from "@perpx/proto";
import {
  type Context,
  emptyResponse,
  invalidArgument,
  type Module,
  msgHandler,
  notFound,
  type QueryContext,
  queryHandler,
} from "../../kernel/module.js";
import { accAddressBytes, addressKey, bech32Of } from "../../lib/addresses.js";
import { decodeUint, encodeU256 } from "../../lib/codec.js";
import {
  type Coin,
  coinsToString,
  isValidDenom,
  normalizeCoins,
  parseAmount,
  validateCoins,
} from "../../lib/coins.js";
import { abciError, registerError, sdkErrors } from "../../lib/errors.js";
import { paginate } from "../../lib/pagination.js";
import { wireDecode, wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { AuthKeeper, StoreAccess } from "../auth/auth.js";

/** The module's name and store prefix. */
export const BANK = "bank";

/** Errors of codespace `bank`. */
export const bankErrors = {
  noInputs: registerError(BANK, 2, "no inputs to send transaction"),
  noOutputs: registerError(BANK, 3, "no outputs to send transaction"),
  inputOutputMismatch: registerError(BANK, 4, "sum inputs != sum outputs"),
  sendDisabled: registerError(BANK, 5, "send transactions are disabled"),
  denomMetadataNotFound: registerError(BANK, 6, "client denom metadata not found"),
  invalidKey: registerError(BANK, 7, "invalid key"),
  duplicateEntry: registerError(BANK, 8, "duplicate entry"),
  multipleSenders: registerError(BANK, 9, "multiple senders not allowed"),
} as const;

/** Converts wire coins (`{denom, amount: string}`) to coins; throws sdk 10 on a malformed amount. */
export function coinsFromProto(coins: readonly cosmosBase.Coin[]): Coin[] {
  return coins.map((coin) => {
    const amount = parseAmount(coin.amount);
    if (amount === undefined)
      throw abciError(sdkErrors.invalidCoins, `invalid coin amount: ${coin.amount}${coin.denom}`);
    return { denom: coin.denom, amount };
  });
}

/** Wire coin of a coin. */
export function coinProto(coin: Coin): cosmosBase.Coin {
  return create(cosmosBase.CoinSchema, { denom: coin.denom, amount: coin.amount.toString() });
}

function balanceKey(address: Uint8Array, denom: string): string {
  return balanceKeyAt(addressKey(address), denom);
}

/** {@link balanceKey} of the address spelled `spelled` in store keys (`addressKey`). */
function balanceKeyAt(spelled: string, denom: string): string {
  return `bal/${spelled}/${denom}`;
}

/** An account that coins move from or to: its address and that address's store-key spelling. */
interface Holder {
  readonly address: Uint8Array;
  /** `addressKey(address)`. */
  readonly key: string;
}

const holderOf = (address: Uint8Array): Holder => ({ address, key: addressKey(address) });

/** The bank's state operations. Every method takes the context whose store and events it should use. */
export class BankKeeper {
  /** Each module account that moved coins, by module name (a few dozen at most). */
  private readonly moduleHolders = new Map<string, Holder>();

  constructor(private readonly auth: AuthKeeper) {}

  /** The balance of one denom (0 when none). */
  balance(ctx: StoreAccess, address: Uint8Array, denom: string): bigint {
    return this.balanceAt(ctx, balanceKey(address, denom));
  }

  /** The balance stored under `key` (a {@link balanceKey}; 0 when none). */
  private balanceAt(ctx: StoreAccess, key: string): bigint {
    const bytes = ctx.store(BANK).get(key);
    return bytes === undefined ? 0n : decodeUint(bytes);
  }

  /** Every non-zero balance of an account, sorted by denom. */
  allBalances(ctx: StoreAccess, address: Uint8Array): Coin[] {
    const prefix = `bal/${addressKey(address)}/`;
    const coins: Coin[] = [];
    for (const [key, value] of ctx.store(BANK).entries(prefix)) {
      const amount = decodeUint(value);
      if (amount > 0n) coins.push({ denom: key.slice(prefix.length), amount });
    }
    return coins;
  }

  /** The total supply of a denom. */
  supplyOf(ctx: StoreAccess, denom: string): bigint {
    const bytes = ctx.store(BANK).get(`supply/${denom}`);
    return bytes === undefined ? 0n : decodeUint(bytes);
  }

  /** Every non-zero supply, sorted by denom. */
  totalSupply(ctx: StoreAccess): Coin[] {
    const coins: Coin[] = [];
    for (const [key, value] of ctx.store(BANK).entries("supply/")) {
      const amount = decodeUint(value);
      if (amount > 0n) coins.push({ denom: key.slice("supply/".length), amount });
    }
    return coins;
  }

  private setBalance(ctx: StoreAccess, key: string, amount: bigint): void {
    ctx.store(BANK).set(key, encodeU256(amount));
  }

  private setSupply(ctx: StoreAccess, denom: string, amount: bigint): void {
    ctx.store(BANK).set(`supply/${denom}`, encodeU256(amount));
  }

  /**
   * Takes coins from an account; throws sdk 5 with the SDK's text when one is short. `text` is
   * `coinsToString(coins)` when the caller has it.
   */
  private subCoins(ctx: Context, holder: Holder, coins: readonly Coin[], text?: string): void {
    for (const coin of coins) {
      const key = balanceKeyAt(holder.key, coin.denom);
      const balance = this.balanceAt(ctx, key);
      if (balance < coin.amount) {
        throw abciError(
          sdkErrors.insufficientFunds,
          `spendable balance ${balance}${coin.denom} is smaller than ${coin.amount}${coin.denom}`,
        );
      }
      this.setBalance(ctx, key, balance - coin.amount);
    }
    if (!ctx.events.recording) return;
    ctx.events.emitEvent("coin_spent", [
      ["spender", bech32Of(holder.address)],
      ["amount", text ?? coinsToString(coins)],
    ]);
  }

  /**
   * Adds coins to an account (creating the account when it is new). `text` is
   * `coinsToString(coins)` when the caller has it.
   */
  private addCoins(ctx: Context, holder: Holder, coins: readonly Coin[], text?: string): void {
    for (const coin of coins) {
      const key = balanceKeyAt(holder.key, coin.denom);
      this.setBalance(ctx, key, this.balanceAt(ctx, key) + coin.amount);
    }
    if (!ctx.events.recording) return;
    ctx.events.emitEvent("coin_received", [
      ["receiver", bech32Of(holder.address)],
      ["amount", text ?? coinsToString(coins)],
    ]);
  }

  /**
   * Moves coins between accounts with the SDK's events; creates the recipient account if needed.
   * The events' texts are spelled once, and not at all when the events are discarded (CheckTx).
   */
  sendCoins(ctx: Context, from: Uint8Array, to: Uint8Array, coins: readonly Coin[]): void {
    this.move(ctx, holderOf(from), holderOf(to), coins);
  }

  /** {@link sendCoins} between holders. */
  private move(ctx: Context, from: Holder, to: Holder, coins: readonly Coin[]): void {
    const amount = normalizeCoins(coins);
    const recording = ctx.events.recording;
    const text = recording ? coinsToString(amount) : undefined;
    this.subCoins(ctx, from, amount, text);
    this.addCoins(ctx, to, amount, text);
    // The new account gets its own copy of the address (a module holder's is kept).
    if (!this.auth.hasAccount(ctx, to.address)) this.auth.createAccount(ctx, to.address.slice());
    if (!recording) return;
    const sender = bech32Of(from.address);
    ctx.events.emitEvent("transfer", [
      ["recipient", bech32Of(to.address)],
      ["sender", sender],
      ["amount", text as string],
    ]);
    ctx.events.emitEvent("message", [["sender", sender]]);
  }

  /**
   * One debit of `from` and one credit per output, with a `transfer` event per output (the SDK's
   * `InputOutputCoins`, behind MsgMultiSend).
   */
  inputOutputCoins(
    ctx: Context,
    from: Uint8Array,
    outputs: ReadonlyArray<{ to: Uint8Array; coins: readonly Coin[] }>,
  ): void {
    const total = new Map<string, bigint>();
    for (const output of outputs) {
      for (const c of output.coins) total.set(c.denom, (total.get(c.denom) ?? 0n) + c.amount);
    }
    const sender = bech32Of(from);
    this.subCoins(
      ctx,
      holderOf(from),
      normalizeCoins([...total].map(([denom, amount]) => ({ denom, amount }))),
    );
    ctx.events.emitEvent("message", [["sender", sender]]);
    for (const output of outputs) {
      const amount = normalizeCoins(output.coins);
      this.addCoins(ctx, holderOf(output.to), amount);
      if (!this.auth.hasAccount(ctx, output.to)) this.auth.createAccount(ctx, output.to);
      ctx.events.emitEvent("transfer", [
        ["recipient", bech32Of(output.to)],
        ["sender", sender],
        ["amount", coinsToString(amount)],
      ]);
    }
  }

  /** Sends from an account to a module account. */
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: readonly Coin[]): void {
    this.move(ctx, holderOf(from), this.moduleHolder(module), coins);
  }

  /** Sends from a module account to an account. */
  sendCoinsFromModuleToAccount(ctx: Context, module: string, to: Uint8Array, coins: readonly Coin[]): void {
    this.move(ctx, this.moduleHolder(module), holderOf(to), coins);
  }

  /** Sends between module accounts. */
  sendCoinsFromModuleToModule(ctx: Context, from: string, to: string, coins: readonly Coin[]): void {
    this.move(ctx, this.moduleHolder(from), this.moduleHolder(to), coins);
  }

  /**
   * A module account as a holder (kept by name: the module accounts are fixed when the auth keeper
   * is made, and a holder's address is only read).
   *
   * @throws AbciError for an unknown module account, as the auth keeper's `moduleAddress`.
   */
  private moduleHolder(module: string): Holder {
    let holder = this.moduleHolders.get(module);
    if (holder === undefined) {
      holder = holderOf(this.auth.moduleAddress(module));
      this.moduleHolders.set(module, holder);
    }
    return holder;
  }

  /** Mints coins into a module account (supply grows); emits `coin_received` and `coinbase`. */
  mintCoins(ctx: Context, module: string, coins: readonly Coin[]): void {
    const holder = this.moduleHolder(module);
    const address = holder.address;
    const amount = normalizeCoins(coins);
    this.addCoins(ctx, holder, amount);
    for (const coin of amount) this.setSupply(ctx, coin.denom, this.supplyOf(ctx, coin.denom) + coin.amount);
    ctx.events.emitEvent("coinbase", [
      ["minter", bech32Of(address)],
      ["amount", coinsToString(amount)],
    ]);
  }

  /** Burns coins held by a module account (supply shrinks); emits `coin_spent` and `burn`. */
  burnCoins(ctx: Context, module: string, coins: readonly Coin[]): void {
    const holder = this.moduleHolder(module);
    const address = holder.address;
    const amount = normalizeCoins(coins);
    this.subCoins(ctx, holder, amount);
    for (const coin of amount) this.setSupply(ctx, coin.denom, this.supplyOf(ctx, coin.denom) - coin.amount);
    ctx.events.emitEvent("burn", [
      ["burner", bech32Of(address)],
      ["amount", coinsToString(amount)],
    ]);
  }

  /** Sets a genesis balance and grows the supply (no events). */
  initBalance(ctx: Context, address: Uint8Array, coins: readonly Coin[]): void {
    for (const coin of coins) {
      const key = balanceKey(address, coin.denom);
      this.setBalance(ctx, key, this.balanceAt(ctx, key) + coin.amount);
      this.setSupply(ctx, coin.denom, this.supplyOf(ctx, coin.denom) + coin.amount);
    }
    if (!this.auth.hasAccount(ctx, address)) this.auth.createAccount(ctx, address);
  }

  /** Stores denom metadata. */
  setDenomMetadata(ctx: StoreAccess, metadata: cosmosBank.Metadata): void {
    ctx.store(BANK).set(`meta/${metadata.base}`, wireEncode(wire.cosmos_bank_v1beta1_Metadata, metadata));
  }

  /** Denom metadata, or undefined. */
  denomMetadata(ctx: StoreAccess, denom: string): cosmosBank.Metadata | undefined {
    const bytes = ctx.store(BANK).get(`meta/${denom}`);
    return bytes === undefined ? undefined : wireDecode(wire.cosmos_bank_v1beta1_Metadata, bytes);
  }

  /** Every denom metadata, sorted by base denom. */
  allDenomMetadata(ctx: StoreAccess): cosmosBank.Metadata[] {
    return [...ctx.store(BANK).entries("meta/")].map(([, bytes]) =>
      wireDecode(wire.cosmos_bank_v1beta1_Metadata, bytes),
    );
  }
}

/** Validates coins of a message: sdk 10 with the coins' text when invalid or not all positive. */
function validMsgCoins(coins: readonly cosmosBase.Coin[]): Coin[] {
  const parsed = coinsFromProto(coins);
  const reason = validateCoins(parsed);
  if (reason !== undefined || parsed.length === 0) {
    throw abciError(sdkErrors.invalidCoins, coinsToString(parsed));
  }
  return parsed;
}

/** Genesis input of the bank module. */
export interface BankGenesis {
  readonly balances: ReadonlyArray<{ address: Uint8Array; coins: readonly Coin[] }>;
  readonly denomMetadata: readonly cosmosBank.Metadata[];
}

/** Builds the bank module. Sends to module accounts are refused (the SDK's blocked addresses). */
export function createBankModule(auth: AuthKeeper, keeper: BankKeeper, genesis: BankGenesis): Module {
  const checkRecipient = (address: Uint8Array, text: string) => {
    if (auth.moduleAccountAt(address) !== undefined) {
      throw abciError(sdkErrors.unauthorized, `${text} is not allowed to receive funds`);
    }
  };
  /** One page of an account's balances, ordered by denom (AllBalances and SpendableBalances). */
  const pagedBalances = (
    ctx: StoreAccess,
    address: Uint8Array,
    request: cosmosQuery.PageRequest | undefined,
  ): { page: Coin[]; pagination: cosmosQuery.PageResponse } =>
    paginate(
      keeper
        .allBalances(ctx, address)
        .map((coin) => ({ key: new TextEncoder().encode(coin.denom), value: coin })),
      request,
    );
  const queryAddress = (text: string): Uint8Array => {
    if (text === "") throw invalidArgument("empty address string is not allowed");
    try {
      return accAddressBytes(text, "invalid address");
    } catch (error) {
      throw invalidArgument(
        error instanceof Error ? error.message.replace(/: invalid address$/, "") : String(error),
      );
    }
  };
  const queryDenom = (denom: string) => {
    if (!isValidDenom(denom)) throw invalidArgument(`invalid denom: ${denom}`);
  };
  return {
    name: BANK,
    initGenesis(ctx) {
      for (const { address, coins } of genesis.balances) keeper.initBalance(ctx, address, coins);
      for (const metadata of genesis.denomMetadata) keeper.setDenomMetadata(ctx, metadata);
    },
    exportGenesis(ctx) {
      const balances: { address: string; coins: { denom: string; amount: string }[] }[] = [];
      for (const account of auth.allAccounts(ctx)) {
        const coins = keeper.allBalances(ctx, account.address);
        if (coins.length > 0) {
          balances.push({
            address: bech32Of(account.address),
            coins: coins.map((c) => ({ denom: c.denom, amount: c.amount.toString() })),
          });
        }
      }
      return {
        params: { send_enabled: [], default_send_enabled: true },
        balances,
        supply: keeper.totalSupply(ctx).map((c) => ({ denom: c.denom, amount: c.amount.toString() })),
        denom_metadata: keeper.allDenomMetadata(ctx).map((m) => ({
          description: m.description,
          denom_units: m.denomUnits.map((u) => ({
            denom: u.denom,
            exponent: u.exponent,
            aliases: u.aliases,
          })),
          base: m.base,
          display: m.display,
          name: m.name,
          symbol: m.symbol,
          uri: m.uri,
          uri_hash: m.uriHash,
        })),
        send_enabled: [],
      };
    },
    msgs: [
      msgHandler({
        typeUrl: "/cosmos.bank.v1beta1.MsgSend",
        schema: () => cosmosBank.MsgSendSchema,
        signers: (msg) => [msg.fromAddress],
        validate(msg) {
          accAddressBytes(msg.fromAddress, "invalid from address");
          accAddressBytes(msg.toAddress, "invalid to address");
          validMsgCoins(msg.amount);
        },
        execute(ctx, msg) {
          const from = accAddressBytes(msg.fromAddress, "invalid from address");
          const to = accAddressBytes(msg.toAddress, "invalid to address");
          const amount = validMsgCoins(msg.amount);
          checkRecipient(to, msg.toAddress);
          keeper.sendCoins(ctx, from, to, amount);
          return emptyResponse(cosmosBank.MsgSendResponseSchema);
        },
      }),
      msgHandler({
        typeUrl: "/cosmos.bank.v1beta1.MsgMultiSend",
        schema: () => cosmosBank.MsgMultiSendSchema,
        signers: (msg) => msg.inputs.slice(0, 1).map((input) => input.address),
        validate(msg) {
          if (msg.inputs.length === 0) throw abciError(bankErrors.noInputs);
          if (msg.inputs.length !== 1) throw abciError(bankErrors.multipleSenders);
          if (msg.outputs.length === 0) throw abciError(bankErrors.noOutputs);
          const totals = new Map<string, bigint>();
          for (const input of msg.inputs) {
            accAddressBytes(input.address, "invalid input address");
            for (const c of validMsgCoins(input.coins))
              totals.set(c.denom, (totals.get(c.denom) ?? 0n) + c.amount);
          }
          for (const output of msg.outputs) {
            accAddressBytes(output.address, "invalid output address");
            for (const c of validMsgCoins(output.coins))
              totals.set(c.denom, (totals.get(c.denom) ?? 0n) - c.amount);
          }
          for (const [, rest] of totals) if (rest !== 0n) throw abciError(bankErrors.inputOutputMismatch);
        },
        execute(ctx, msg) {
          const input = msg.inputs[0];
          if (input === undefined) throw abciError(bankErrors.noInputs);
          const from = accAddressBytes(input.address, "invalid input address");
          const outputs = msg.outputs.map((output) => {
            const to = accAddressBytes(output.address, "invalid output address");
            checkRecipient(to, output.address);
            return { to, coins: validMsgCoins(output.coins) };
          });
          keeper.inputOutputCoins(ctx, from, outputs);
          return emptyResponse(cosmosBank.MsgMultiSendResponseSchema);
        },
      }),
    ],
    queries: {
      "/cosmos.bank.v1beta1.Query/Balance": queryHandler(
        () => cosmosBank.QueryBalanceRequestSchema,
        () => cosmosBank.QueryBalanceResponseSchema,
        (ctx, req) => {
          const address = queryAddress(req.address);
          queryDenom(req.denom);
          return create(cosmosBank.QueryBalanceResponseSchema, {
            balance: coinProto({ denom: req.denom, amount: keeper.balance(ctx, address, req.denom) }),
          });
        },
      ),
      "/cosmos.bank.v1beta1.Query/AllBalances": queryHandler(
        () => cosmosBank.QueryAllBalancesRequestSchema,
        () => cosmosBank.QueryAllBalancesResponseSchema,
        (ctx, req) => {
          const { page, pagination } = pagedBalances(ctx, queryAddress(req.address), req.pagination);
          return create(cosmosBank.QueryAllBalancesResponseSchema, {
            balances: page.map(coinProto),
            pagination,
          });
        },
      ),
      "/cosmos.bank.v1beta1.Query/SpendableBalances": queryHandler(
        () => cosmosBank.QuerySpendableBalancesRequestSchema,
        () => cosmosBank.QuerySpendableBalancesResponseSchema,
        (ctx, req) => {
          const { page, pagination } = pagedBalances(ctx, queryAddress(req.address), req.pagination);
          return create(cosmosBank.QuerySpendableBalancesResponseSchema, {
            balances: page.map(coinProto),
            pagination,
          });
        },
      ),
      "/cosmos.bank.v1beta1.Query/SpendableBalanceByDenom": queryHandler(
        () => cosmosBank.QuerySpendableBalanceByDenomRequestSchema,
        () => cosmosBank.QuerySpendableBalanceByDenomResponseSchema,
        (ctx, req) => {
          const address = queryAddress(req.address);
          queryDenom(req.denom);
          return create(cosmosBank.QuerySpendableBalanceByDenomResponseSchema, {
            balance: coinProto({ denom: req.denom, amount: keeper.balance(ctx, address, req.denom) }),
          });
        },
      ),
      "/cosmos.bank.v1beta1.Query/TotalSupply": queryHandler(
        () => cosmosBank.QueryTotalSupplyRequestSchema,
        () => cosmosBank.QueryTotalSupplyResponseSchema,
        (ctx, req) => {
          const items = keeper
            .totalSupply(ctx)
            .map((coin) => ({ key: new TextEncoder().encode(coin.denom), value: coin }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(cosmosBank.QueryTotalSupplyResponseSchema, {
            supply: page.map(coinProto),
            pagination,
          });
        },
      ),
      "/cosmos.bank.v1beta1.Query/SupplyOf": queryHandler(
        () => cosmosBank.QuerySupplyOfRequestSchema,
        () => cosmosBank.QuerySupplyOfResponseSchema,
        (ctx, req) => {
          queryDenom(req.denom);
          return create(cosmosBank.QuerySupplyOfResponseSchema, {
            amount: coinProto({ denom: req.denom, amount: keeper.supplyOf(ctx, req.denom) }),
          });
        },
      ),
      "/cosmos.bank.v1beta1.Query/Params": queryHandler(
        () => cosmosBank.QueryParamsRequestSchema,
        () => cosmosBank.QueryParamsResponseSchema,
        () =>
          create(cosmosBank.QueryParamsResponseSchema, {
            params: create(cosmosBank.ParamsSchema, { defaultSendEnabled: true }),
          }),
      ),
      "/cosmos.bank.v1beta1.Query/DenomMetadata": queryHandler(
        () => cosmosBank.QueryDenomMetadataRequestSchema,
        () => cosmosBank.QueryDenomMetadataResponseSchema,
        (ctx: QueryContext, req) => {
          queryDenom(req.denom);
          const metadata = keeper.denomMetadata(ctx, req.denom);
          if (metadata === undefined) throw notFound(`client metadata for denom ${req.denom}`);
          return create(cosmosBank.QueryDenomMetadataResponseSchema, { metadata });
        },
      ),
      "/cosmos.bank.v1beta1.Query/DenomsMetadata": queryHandler(
        () => cosmosBank.QueryDenomsMetadataRequestSchema,
        () => cosmosBank.QueryDenomsMetadataResponseSchema,
        (ctx, req) => {
          const items = keeper
            .allDenomMetadata(ctx)
            .map((m) => ({ key: new TextEncoder().encode(m.base), value: m }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(cosmosBank.QueryDenomsMetadataResponseSchema, { metadatas: page, pagination });
        },
      ),
    },
  };
}
