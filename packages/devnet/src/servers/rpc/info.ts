/**
 * Node and chain information methods: `health`, `status`, `net_info`, `genesis`, `validators`,
 * `consensus_params`, `num_unconfirmed_txs`.
 */
import type { ChainApp } from "../../app/contract.js";
import { consensusParamsJson, type Json, peerJson, statusJson, validatorPubKeyJson } from "../comet-json.js";
import { toHexUpper } from "../encoding.js";
import { heightOrLatest } from "./blocks.js";
import { internal } from "./errors.js";
import type { MethodTable } from "./params.js";

function validatorsJson(app: ChainApp, height: bigint): Json {
  return {
    block_height: height.toString(),
    validators: [
      {
        address: toHexUpper(app.info.validator.address),
        pub_key: validatorPubKeyJson(app.info),
        voting_power: app.info.validator.votingPower.toString(),
        proposer_priority: "0",
      },
    ],
    count: "1",
    total: "1",
  };
}

/** The information methods over `app`; `rpcAddress` is the listen address `status` reports. */
export function infoMethods(app: ChainApp, rpcAddress: () => string): MethodTable {
  return {
    health: { params: [], run: () => ({}) },
    status: { params: [], run: () => statusJson(app, { rpcAddress: rpcAddress() }) },
    net_info: {
      params: [],
      run: () => ({
        listening: true,
        listeners: ["Listener(@tcp://0.0.0.0:26656)"],
        n_peers: "1",
        peers: [peerJson(app.info)],
      }),
    },
    genesis: { params: [], run: () => ({ genesis: app.genesisJson() as Json }) },
    validators: {
      params: [
        ["height", "int"],
        ["page", "int"],
        ["per_page", "int"],
      ],
      run: (p) => {
        const height = heightOrLatest(app, p.height);
        const page = (p.page as bigint | undefined) ?? 1n;
        if (page !== 1n) throw internal(`page should be within [1, 1] range, given ${page}`);
        return validatorsJson(app, height);
      },
    },
    consensus_params: {
      params: [["height", "int"]],
      run: (p) => ({
        block_height: heightOrLatest(app, p.height).toString(),
        consensus_params: consensusParamsJson(),
      }),
    },
    num_unconfirmed_txs: {
      params: [["limit", "int"]],
      run: () => {
        const n = app.pendingTxCount().toString();
        return { n_txs: n, total: n, total_bytes: "0", txs: null };
      },
    },
  };
}
