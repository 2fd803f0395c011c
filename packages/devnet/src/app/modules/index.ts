/**
 * The module list of the chain, in genesis and block-hook order. Part 2 adds its modules here
 * (subaccounts, clob, prices, ... replace the genesis-record modules of the same name).
 */
import type { ChainConfig } from "../genesis.js";
import { assetRecords, bridgeRecords, clobRecords, ratelimitRecords, wrapRecords } from "../genesis.js";
import { type Module, Router } from "../module.js";
import { AccountPlusKeeper, createAccountPlusModule } from "./accountplus.js";
import { AuthKeeper, createAuthModule } from "./auth.js";
import { BankKeeper, createBankModule } from "./bank.js";
import { createIbcModule, createRecordsModule, createUpgradeModule } from "./records.js";

/** The keepers other modules and the ante step use. */
export interface Keepers {
  readonly auth: AuthKeeper;
  readonly bank: BankKeeper;
  readonly accountPlus: AccountPlusKeeper;
}

/** The wired modules: their keepers, the list, and the router over it. */
export interface ModuleSet {
  readonly keepers: Keepers;
  readonly modules: readonly Module[];
  readonly router: Router;
}

/** Builds every module for a chain configuration, plus `extra` modules built from the keepers. */
export function buildModules(
  config: ChainConfig,
  extra?: (keepers: Keepers) => readonly Module[],
): ModuleSet {
  const auth = new AuthKeeper();
  const bank = new BankKeeper(auth);
  const accountPlus = new AccountPlusKeeper();
  const modules: Module[] = [
    createAuthModule(auth, { accounts: config.accounts }),
    createBankModule(auth, bank, { balances: config.balances, denomMetadata: config.denomMetadata }),
    createAccountPlusModule(accountPlus, { evmChainId: config.evmChainId }),
    createRecordsModule({ name: "assets", records: assetRecords() }),
    createIbcModule(config.ibc.channels, config.ibc.counterparty),
    createRecordsModule({ name: "wrap", records: wrapRecords(config) }),
    createRecordsModule({ name: "bridge", records: bridgeRecords(config) }),
    createRecordsModule({ name: "ratelimit", records: ratelimitRecords(config) }),
    createRecordsModule({ name: "clob", records: clobRecords() }),
    createUpgradeModule(config.upgrades),
  ];
  const keepers: Keepers = { auth, bank, accountPlus };
  if (extra !== undefined) modules.push(...extra(keepers));
  return { keepers, modules, router: new Router(modules) };
}
