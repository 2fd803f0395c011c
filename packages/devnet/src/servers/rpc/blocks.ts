/** Block methods: `block`, `block_by_hash`, `header`, `block_results`, `blockchain`, `commit`. */
import type { BlockRecord, ChainApp } from "../../app/contract.js";
import {
  blockMetaJson,
  blockResponseJson,
  blockResultsJson,
  commitJson,
  headerJson,
  type Json,
} from "../comet-json.js";
import { toHexUpper } from "../encoding.js";
import { internal } from "./errors.js";
import { type MethodTable, requireBytes, type Value } from "./params.js";

/** The height asked for (0 or none: the latest), checked against the stored range. */
export function heightOrLatest(app: ChainApp, height: Value | undefined): bigint {
  const latest = app.latestBlock().height;
  if (height === undefined || height === 0n) return latest;
  const h = height as bigint;
  if (h > latest) {
    throw internal(`height ${h} must be less than or equal to the current blockchain height ${latest}`);
  }
  const base = app.baseHeight();
  if (h < base) throw internal(`height ${h} is not available, lowest height is ${base}`);
  return h;
}

/** The block at the height asked for (see {@link heightOrLatest}). */
export function blockAt(app: ChainApp, height: Value | undefined): BlockRecord {
  const h = heightOrLatest(app, height);
  const block = app.block(h);
  if (block === undefined) throw internal(`block at height ${h} not found`);
  return block;
}

/** The block methods over `app`. */
export function blockMethods(app: ChainApp): MethodTable {
  return {
    block: { params: [["height", "int"]], run: (p) => blockResponseJson(app, blockAt(app, p.height)) },
    block_by_hash: {
      params: [["hash", "bytes"]],
      run: (p) => {
        const wanted = toHexUpper(requireBytes(p, "hash"));
        for (let h = app.latestBlock().height; h >= app.baseHeight(); h--) {
          const block = app.block(h);
          if (block !== undefined && toHexUpper(block.hash) === wanted) return blockResponseJson(app, block);
        }
        return { block_id: { hash: "", parts: { total: 0, hash: "" } }, block: null };
      },
    },
    header: {
      params: [["height", "int"]],
      run: (p) => ({ header: headerJson(blockAt(app, p.height), app.info) }),
    },
    block_results: { params: [["height", "int"]], run: (p) => blockResultsJson(app, blockAt(app, p.height)) },
    blockchain: {
      params: [
        ["minHeight", "int"],
        ["maxHeight", "int"],
      ],
      run: (p) => {
        const latest = app.latestBlock().height;
        const base = app.baseHeight();
        let max = (p.maxHeight as bigint | undefined) ?? 0n;
        let min = (p.minHeight as bigint | undefined) ?? 0n;
        if (max === 0n || max > latest) max = latest;
        if (min === 0n) min = base;
        if (min < base) min = base;
        if (max - min >= 20n) min = max - 19n;
        if (min > max) throw internal(`min height ${min} can't be greater than max height ${max}`);
        const metas: Json[] = [];
        for (let h = max; h >= min; h--) {
          const block = app.block(h);
          if (block !== undefined) metas.push(blockMetaJson(app, block));
        }
        return { last_height: latest.toString(), block_metas: metas };
      },
    },
    commit: {
      params: [["height", "int"]],
      run: (p) => {
        const block = blockAt(app, p.height);
        return {
          signed_header: { header: headerJson(block, app.info), commit: commitJson(block, app.info) },
          canonical: block.height < app.latestBlock().height,
        };
      },
    },
  };
}
