/** The chain application's queries: genesis state, query paths and the genesis document. */
import { create, type DescMessage, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  cosmosAuth,
  cosmosBank,
  cosmosNode,
  cosmosTendermint,
  cosmosUpgrade,
  ibcChannel,
} from "@perpx/proto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ALICE,
  BOB,
  CARL,
  CHAIN_ID,
  FEE_COLLECTOR,
  genesisSigners,
  newApp,
  nextBlock,
  run,
  type Signer,
  send,
} from "../../../test/support/app-harness.js";
import { accountInfo, bankBalance } from "../../../test/support/app-query.js";
import { GENESIS_USDC_BALANCE } from "../genesis/genesis-accounts.js";
import { bech32Of } from "../lib/addresses.js";

let alice: Signer;

beforeAll(async () => {
  ({ alice } = await genesisSigners());
});

describe("genesis and queries", () => {
  it("starts at height 1 on the local profile with funded accounts and module accounts", () => {
    const app = newApp();
    expect(app.latestBlock().height).toBe(1n);
    expect(app.info.chainId).toBe(CHAIN_ID);
    expect(app.info.evmChainId).toBe(31337);
    expect(bankBalance(app, ALICE)).toBe(GENESIS_USDC_BALANCE);
    expect(accountInfo(app, ALICE).accountNumber).toBe(0n);
    expect(accountInfo(app, CARL).accountNumber).toBe(2n);
    const res = app.query(
      "/cosmos.auth.v1beta1.Query/ModuleAccountByName",
      toBinary(
        cosmosAuth.QueryModuleAccountByNameRequestSchema,
        create(cosmosAuth.QueryModuleAccountByNameRequestSchema, { name: "fee_collector" }),
      ),
    );
    expect(res.code).toBe(0);
    const any = fromBinary(cosmosAuth.QueryModuleAccountByNameResponseSchema, res.value).account;
    expect(any?.typeUrl).toBe("/cosmos.auth.v1beta1.ModuleAccount");
    expect(
      fromBinary(cosmosAuth.ModuleAccountSchema, any?.value ?? new Uint8Array()).baseAccount?.address,
    ).toBe(FEE_COLLECTOR);
  });

  it("answers an unknown account with code 22 and the log cosmjs turns into null", () => {
    const app = newApp();
    const stranger = bech32Of(new Uint8Array(20).fill(7));
    const res = app.query(
      "/cosmos.auth.v1beta1.Query/Account",
      toBinary(
        cosmosAuth.QueryAccountRequestSchema,
        create(cosmosAuth.QueryAccountRequestSchema, { address: stranger }),
      ),
    );
    expect(res.code).toBe(22);
    expect(res.codespace).toBe("sdk");
    expect(res.log).toBe(`rpc error: code = NotFound desc = account ${stranger} not found: key not found`);
    expect(res.height).toBe(1n);
  });

  it("answers an unknown path with code 6 and no height, as baseapp's QueryResult", () => {
    const app = newApp();
    nextBlock(app);
    const res = app.query("/cosmos.nothing.v1.Query/Nothing", new Uint8Array());
    expect(res.code).toBe(6);
    expect(res.height).toBe(0n);
  });

  it("serves node config, node info, the IBC channel and the upgrade history of testnet", () => {
    const app = newApp("testnet");
    expect(app.latestBlock().height).toBe(5_016_945n);
    expect(app.info.initialHeight).toBe(5_016_945n);
    expect(app.info.appVersion).toBe("v27.5");
    const applied = (name: string) =>
      fromBinary(
        cosmosUpgrade.QueryAppliedPlanResponseSchema,
        app.query(
          "/cosmos.upgrade.v1beta1.Query/AppliedPlan",
          toBinary(
            cosmosUpgrade.QueryAppliedPlanRequestSchema,
            create(cosmosUpgrade.QueryAppliedPlanRequestSchema, { name }),
          ),
        ).value,
      ).height;
    expect(applied("v27.0")).toBe(4_403_000n);
    expect(applied("v9.9")).toBe(0n);
    const info = fromBinary(
      cosmosTendermint.GetNodeInfoResponseSchema,
      app.query("/cosmos.base.tendermint.v1beta1.Service/GetNodeInfo", new Uint8Array()).value,
    );
    expect(info.applicationVersion?.version).toBe("v27.5");
    expect(info.defaultNodeInfo?.network).toBe("perpx-testnet-1");
    const config = fromBinary(
      cosmosNode.ConfigResponseSchema,
      app.query("/cosmos.base.node.v1beta1.Service/Config", new Uint8Array()).value,
    );
    expect(config.minimumGasPrice).toBe("25000000000.000000000000000000aperpx,0.025000000000000000uusdc");
    const channels = fromBinary(
      ibcChannel.QueryChannelsResponseSchema,
      app.query("/ibc.core.channel.v1.Query/Channels", new Uint8Array()).value,
    );
    expect(channels.channels).toHaveLength(1);
    expect(channels.channels[0]?.channelId).toBe("channel-0");
    expect(channels.channels[0]?.state).toBe(ibcChannel.State.OPEN);
    expect(channels.channels[0]?.counterparty?.channelId).toBe("channel-0");
  });
});

describe("query paths", () => {
  it("answers every path the servers route, with a decodable response", async () => {
    const app = newApp();
    const tx = await alice.sign({ msgs: [send(ALICE, BOB, 1n)], sequence: 0n, accountNumber: 0n });
    run(app, tx);
    const req = <D extends DescMessage>(schema: D, init: Parameters<typeof create<D>>[1]) =>
      toBinary(schema, create(schema, init));
    const cases: [string, Uint8Array, DescMessage][] = [
      [
        "/cosmos.auth.v1beta1.Query/Account",
        req(cosmosAuth.QueryAccountRequestSchema, { address: ALICE }),
        cosmosAuth.QueryAccountResponseSchema,
      ],
      ["/cosmos.auth.v1beta1.Query/Accounts", new Uint8Array(), cosmosAuth.QueryAccountsResponseSchema],
      ["/cosmos.auth.v1beta1.Query/Params", new Uint8Array(), cosmosAuth.QueryParamsResponseSchema],
      [
        "/cosmos.auth.v1beta1.Query/AccountInfo",
        req(cosmosAuth.QueryAccountInfoRequestSchema, { address: ALICE }),
        cosmosAuth.QueryAccountInfoResponseSchema,
      ],
      [
        "/cosmos.bank.v1beta1.Query/AllBalances",
        req(cosmosBank.QueryAllBalancesRequestSchema, { address: ALICE }),
        cosmosBank.QueryAllBalancesResponseSchema,
      ],
      [
        "/cosmos.bank.v1beta1.Query/SpendableBalances",
        req(cosmosBank.QuerySpendableBalancesRequestSchema, { address: ALICE }),
        cosmosBank.QuerySpendableBalancesResponseSchema,
      ],
      ["/cosmos.bank.v1beta1.Query/TotalSupply", new Uint8Array(), cosmosBank.QueryTotalSupplyResponseSchema],
      ["/cosmos.bank.v1beta1.Query/Params", new Uint8Array(), cosmosBank.QueryParamsResponseSchema],
      [
        "/cosmos.bank.v1beta1.Query/DenomMetadata",
        req(cosmosBank.QueryDenomMetadataRequestSchema, { denom: "uusdc" }),
        cosmosBank.QueryDenomMetadataResponseSchema,
      ],
      [
        "/cosmos.base.tendermint.v1beta1.Service/GetLatestBlock",
        new Uint8Array(),
        cosmosTendermint.GetLatestBlockResponseSchema,
      ],
      [
        "/cosmos.base.tendermint.v1beta1.Service/GetBlockByHeight",
        req(cosmosTendermint.GetBlockByHeightRequestSchema, { height: 2n }),
        cosmosTendermint.GetBlockByHeightResponseSchema,
      ],
      [
        "/cosmos.base.tendermint.v1beta1.Service/GetSyncing",
        new Uint8Array(),
        cosmosTendermint.GetSyncingResponseSchema,
      ],
      [
        "/cosmos.base.tendermint.v1beta1.Service/GetLatestValidatorSet",
        new Uint8Array(),
        cosmosTendermint.GetLatestValidatorSetResponseSchema,
      ],
      ["/cosmos.base.node.v1beta1.Service/Status", new Uint8Array(), cosmosNode.StatusResponseSchema],
      [
        "/cosmos.upgrade.v1beta1.Query/CurrentPlan",
        new Uint8Array(),
        cosmosUpgrade.QueryCurrentPlanResponseSchema,
      ],
      [
        "/ibc.core.channel.v1.Query/Channel",
        req(ibcChannel.QueryChannelRequestSchema, { portId: "transfer", channelId: "channel-0" }),
        ibcChannel.QueryChannelResponseSchema,
      ],
    ];
    for (const [path, data, schema] of cases) {
      const res = app.query(path, data);
      expect(res.code, `${path}: ${res.log}`).toBe(0);
      expect(res.height).toBe(2n);
      expect(() => fromBinary(schema, res.value)).not.toThrow();
    }
    const all = fromBinary(
      cosmosBank.QueryAllBalancesResponseSchema,
      app.query(cases[4]![0], cases[4]![1]).value,
    );
    expect(all.balances.map((c) => c.denom)).toEqual(["aperpx", "uusdc"]);
    const latest = fromBinary(
      cosmosTendermint.GetLatestBlockResponseSchema,
      app.query(cases[9]![0], cases[9]![1]).value,
    );
    expect(latest.sdkBlock?.header?.height).toBe(2n);
    expect(latest.sdkBlock?.header?.proposerAddress).toMatch(/^perpxvalcons1/);
    expect(latest.blockId?.hash).toEqual(app.latestBlock().hash);
    expect(latest.block?.data?.txs).toHaveLength(2); // the proposer's operations, then the tx
    const status = fromBinary(
      cosmosNode.StatusResponseSchema,
      app.query(cases[13]![0], new Uint8Array()).value,
    );
    expect(status.appHash).toEqual(app.latestBlock().resultAppHash);
    expect(
      app.query(
        "/cosmos.base.tendermint.v1beta1.Service/GetBlockByHeight",
        req(cosmosTendermint.GetBlockByHeightRequestSchema, { height: 9n }),
      ).code,
    ).toBe(18);
    expect(app.query("/cosmos.bank.v1beta1.Query/Balance", new Uint8Array(), 99n).code).toBe(26);
    expect(app.query("/cosmos.bank.v1beta1.Query/Balance", new Uint8Array(), 1n).code).toBe(18);
  });

  it("prints the genesis document with every module's state", () => {
    const genesis = newApp("mainnet").genesisJson() as {
      chain_id: string;
      initial_height: string;
      app_state: Record<string, unknown>;
    };
    expect(genesis.chain_id).toBe("perpx-mainnet-1");
    expect(genesis.initial_height).toBe("12960192");
    expect(Object.keys(genesis.app_state)).toEqual(
      expect.arrayContaining([
        "auth",
        "bank",
        "assets",
        "ibc",
        "wrap",
        "bridge",
        "ratelimit",
        "clob",
        "upgrade",
      ]),
    );
    const wrapState = JSON.stringify(genesis.app_state.wrap);
    expect(wrapState).toContain('"channel_id":"channel-0"');
    expect(wrapState).toContain('"local_denom":"uusdc"');
    expect(JSON.stringify(genesis.app_state.bridge)).toMatch(/"eth_address":"0x[0-9a-fA-F]{40}"/);
    expect(JSON.stringify(genesis.app_state.assets)).toContain('"denom":"uusdc"');
  });
});
