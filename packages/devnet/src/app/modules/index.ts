/**
 * The module list of the chain, in genesis and block-hook order. Full modules (subaccounts, clob,
 * prices, ...) take the place of the genesis-record modules of the same name.
 */
import { addressBytes } from "@perpx/address";
import type { ChainConfig } from "../genesis/genesis.js";
import { clobRecords } from "../genesis/genesis.js";
import {
  assetsGenesis,
  feeTiersGenesis,
  perpetualsGenesis,
  pricesGenesis,
} from "../genesis/genesis-exchange.js";
import { type Module, Router } from "../kernel/module.js";
import { AccountPlusKeeper, createAccountPlusModule } from "./accountplus/accountplus.js";
import { affiliatesGenesis, createAffiliatesModule, refereeFeeTierFloor } from "./affiliates/affiliates.js";
import { AssetsKeeper, createAssetsModule } from "./assets/assets.js";
import { AuthKeeper, createAuthModule } from "./auth/auth.js";
import { BankKeeper, createBankModule } from "./bank/bank.js";
import { BridgeKeeper } from "./bridge/keeper.js";
import { createBridgeModule } from "./bridge/module.js";
import { clobFundingBook } from "./clob/funding-book.js";
import { clobGenesisRecords } from "./clob/genesis.js";
import { leverageByPerpetual } from "./clob/leverage.js";
import { createClobModule } from "./clob/module.js";
import { createEpochsModule, defaultEpochs, EpochsKeeper } from "./epochs/epochs.js";
import { createFeeTiersModule, FeeTiersKeeper } from "./feetiers/feetiers.js";
import { fundingEndBlock } from "./funding/funding.js";
import { IbcKeeper } from "./ibc/ibc.js";
import { createIbcTransferModule } from "./ibc/ibc-module.js";
import { createPerpetualsModule, PerpetualsKeeper } from "./perpetuals/perpetuals.js";
import { createPricesModule, PricesKeeper } from "./prices/prices.js";
import { createRatelimitModule, RatelimitKeeper } from "./ratelimit/ratelimit.js";
import { createUpgradeModule } from "./records.js";
import { RevShareKeeper } from "./revshare/keeper.js";
import { createRevShareModule } from "./revshare/module.js";
import { RewardsKeeper } from "./rewards/keeper.js";
import { createRewardsModule, rewardsGenesis } from "./rewards/module.js";
import { createVestModule } from "./rewards/vest.js";
import { createSendingModule } from "./sending/sending.js";
import { SubaccountsKeeper } from "./subaccounts/keeper.js";
import { createSubaccountsModule } from "./subaccounts/module.js";
import { createWrapModule, WrapKeeper } from "./wrap/wrap.js";

/** The keepers other modules and the ante step use. */
export interface Keepers {
  readonly auth: AuthKeeper;
  readonly bank: BankKeeper;
  readonly accountPlus: AccountPlusKeeper;
  readonly assets: AssetsKeeper;
  readonly prices: PricesKeeper;
  readonly perpetuals: PerpetualsKeeper;
  readonly feeTiers: FeeTiersKeeper;
  readonly subaccounts: SubaccountsKeeper;
  readonly ratelimit: RatelimitKeeper;
  readonly ibc: IbcKeeper;
  readonly wrap: WrapKeeper;
  readonly bridge: BridgeKeeper;
  readonly epochs: EpochsKeeper;
  readonly revshare: RevShareKeeper;
  readonly rewards: RewardsKeeper;
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
  const assets = new AssetsKeeper();
  const prices = new PricesKeeper();
  const perpetuals = new PerpetualsKeeper();
  const feeTiers = new FeeTiersKeeper();
  feeTiers.setRefereeFloor(refereeFeeTierFloor);
  const subaccounts = new SubaccountsKeeper(bank, prices, perpetuals);
  subaccounts.setLeverageLookup(leverageByPerpetual);
  const ratelimit = new RatelimitKeeper(bank);
  const ibc = new IbcKeeper(auth, bank, ratelimit);
  const wrap = new WrapKeeper(auth, bank);
  const bridge = new BridgeKeeper(auth, bank, ratelimit);
  const epochs = new EpochsKeeper();
  const revshare = new RevShareKeeper(bank);
  prices.onMarketCreated((ctx, marketId) => revshare.createMarketDetails(ctx, marketId));
  const rewards = new RewardsKeeper({ bank, prices, feeTiers });
  const fundingBook = clobFundingBook({ perpetuals, prices });
  const modules: Module[] = [
    createAuthModule(auth, {
      accounts: [...config.accounts, ...config.fundedSubaccounts.map((owner) => addressBytes(owner))],
    }),
    createBankModule(auth, bank, { balances: config.balances, denomMetadata: config.denomMetadata }),
    createAccountPlusModule(accountPlus, { evmChainId: config.evmChainId }),
    createAssetsModule(assets, assetsGenesis()),
    createPricesModule(prices, pricesGenesis(config.profile, config.markets)),
    createEpochsModule(epochs, defaultEpochs()),
    createPerpetualsModule(
      perpetuals,
      perpetualsGenesis(config.markets),
      (ctx, id) => prices.marketParam(ctx, id) !== undefined,
      (ctx) => fundingEndBlock(ctx, { perpetuals, prices, epochs, book: fundingBook }),
    ),
    createFeeTiersModule(feeTiers, feeTiersGenesis(), epochs),
    createSubaccountsModule(subaccounts, { funded: config.fundedSubaccounts }),
    createSendingModule(subaccounts, bank),
    createIbcTransferModule(config, ibc),
    createWrapModule(config, wrap, auth, ibc),
    createBridgeModule(config, bridge, auth),
    createRatelimitModule(config, ratelimit),
    createAffiliatesModule(affiliatesGenesis(), epochs),
    createRevShareModule(revshare, feeTiers),
    createClobModule({ bank, subaccounts, prices, perpetuals, feeTiers, revshare, rewards }, [
      ...clobRecords(config.profile),
      ...clobGenesisRecords(config.markets),
    ]),
    createVestModule(bank),
    createRewardsModule(rewards, rewardsGenesis(config.rewardsFeeMultiplierPpm)),
    createUpgradeModule(config.upgrades),
  ];
  const keepers: Keepers = {
    auth,
    bank,
    accountPlus,
    assets,
    prices,
    perpetuals,
    feeTiers,
    subaccounts,
    ratelimit,
    ibc,
    wrap,
    bridge,
    epochs,
    revshare,
    rewards,
  };
  if (extra !== undefined) modules.push(...extra(keepers));
  return { keepers, modules, router: new Router(modules) };
}
