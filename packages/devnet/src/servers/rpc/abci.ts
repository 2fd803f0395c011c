/** ABCI methods: `abci_info` and `abci_query`. */
import type { ChainApp, QueryResult } from "../../app/contract.js";
import { appHashAfter } from "../comet-json.js";
import { toBase64 } from "../encoding.js";
import { internal } from "./errors.js";
import { type MethodTable, requireString } from "./params.js";

/** The ABCI methods over `app`. */
export function abciMethods(app: ChainApp): MethodTable {
  return {
    abci_info: {
      params: [],
      run: () => {
        const latest = app.latestBlock();
        return {
          response: {
            data: "perpx",
            version: app.info.appVersion,
            app_version: "0",
            last_block_height: latest.height.toString(),
            last_block_app_hash: toBase64(appHashAfter(app, latest)),
          },
        };
      },
    },
    abci_query: {
      // `prove` is accepted; the devnet produces no proofs and answers the same without them.
      params: [
        ["path", "string"],
        ["data", "hexbytes"],
        ["height", "int"],
        ["prove", "bool"],
      ],
      run: (p) => {
        const path = requireString(p, "path");
        const data = (p.data as Uint8Array | undefined) ?? new Uint8Array();
        const height = p.height as bigint | undefined;
        let result: QueryResult;
        try {
          result =
            height === undefined || height === 0n ? app.query(path, data) : app.query(path, data, height);
        } catch (error) {
          throw internal(error instanceof Error ? error.message : String(error));
        }
        return {
          response: {
            code: result.code,
            log: result.log,
            info: "",
            index: "0",
            key: null,
            value: result.code === 0 ? toBase64(result.value) : null,
            proofOps: null,
            // As the application answered: 0 for a query refused before any handler ran.
            height: result.height.toString(),
            codespace: result.codespace,
          },
        };
      },
    },
  };
}
