/**
 * x/assets: the assets the chain knows (USDC, id 0, `uusdc`, atomic resolution -6; the native
 * token, id 1), read from the genesis records (`asset/<id:10>`: `perpx.assets.v1.Asset`).
 */
import { create } from "@bufbuild/protobuf";
import { assets } from "@perpx/proto";
import { genesisJson, type Module, notFound, queryHandler } from "../../kernel/module.js";
import { utf8 } from "../../lib/codec.js";
import { paginate } from "../../lib/pagination.js";
import { wireDecode, wireEncode } from "../../lib/wire-codec.js";
import * as wire from "../../lib/wire-tables.js";
import type { StoreAccess } from "../auth/auth.js";
import { padKey } from "../records.js";

/** The module's name and store prefix. */
export const ASSETS = "assets";

/** The assets keeper. */
export class AssetsKeeper {
  /** An asset, or undefined. */
  asset(ctx: StoreAccess, id: number): assets.Asset | undefined {
    const bytes = ctx.store(ASSETS).get(`asset/${padKey(id, 10)}`);
    return bytes === undefined ? undefined : wireDecode(wire.perpx_assets_v1_Asset, bytes);
  }

  /** Every asset, by id. */
  allAssets(ctx: StoreAccess): assets.Asset[] {
    return [...ctx.store(ASSETS).entries("asset/")].map(([, bytes]) =>
      wireDecode(wire.perpx_assets_v1_Asset, bytes),
    );
  }

  /** Stores an asset. */
  setAsset(ctx: StoreAccess, asset: assets.Asset): void {
    ctx.store(ASSETS).set(`asset/${padKey(asset.id, 10)}`, wireEncode(wire.perpx_assets_v1_Asset, asset));
  }
}

/** The assets module: genesis assets and the `Asset` / `AllAssets` queries. */
export function createAssetsModule(
  keeper: AssetsKeeper,
  genesis: { assets: readonly assets.Asset[] },
): Module {
  return {
    name: ASSETS,
    initGenesis(ctx) {
      for (const asset of genesis.assets) keeper.setAsset(ctx, asset);
    },
    exportGenesis(ctx) {
      return {
        assets: keeper.allAssets(ctx).map((a) => genesisJson(assets.AssetSchema, a)),
      };
    },
    queries: {
      "/perpx.assets.v1.Query/Asset": queryHandler(
        () => assets.QueryAssetRequestSchema,
        () => assets.QueryAssetResponseSchema,
        (ctx, req) => {
          const found = keeper.asset(ctx, req.id);
          if (found === undefined) throw notFound(`asset ${req.id}`);
          return create(assets.QueryAssetResponseSchema, { asset: found });
        },
      ),
      "/perpx.assets.v1.Query/AllAssets": queryHandler(
        () => assets.QueryAllAssetsRequestSchema,
        () => assets.QueryAllAssetsResponseSchema,
        (ctx, req) => {
          const items = keeper.allAssets(ctx).map((a) => ({ key: utf8(padKey(a.id, 10)), value: a }));
          const { page, pagination } = paginate(items, req.pagination);
          return create(assets.QueryAllAssetsResponseSchema, { asset: page, pagination });
        },
      ),
    },
  };
}
