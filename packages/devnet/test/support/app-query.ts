/** Test support: typed ABCI queries against an in-process chain application. */
import {
  create,
  type DescMessage,
  fromBinary,
  type MessageInitShape,
  type MessageShape,
  toBinary,
} from "@bufbuild/protobuf";
import { cosmosAuth, cosmosBank } from "@perpx/proto";
import type { ChainApp } from "../../src/app/contract.js";

/** Runs the query `path` with `request`; throws with the log when the answer is not code 0. */
export function queryApp<Req extends DescMessage, Res extends DescMessage>(
  app: Pick<ChainApp, "query">,
  path: string,
  requestSchema: Req,
  request: MessageInitShape<Req>,
  responseSchema: Res,
): MessageShape<Res> {
  const answer = app.query(path, toBinary(requestSchema, create(requestSchema, request)));
  if (answer.code !== 0)
    throw new Error(`${path} answered ${answer.codespace} ${answer.code}: ${answer.log}`);
  return fromBinary(responseSchema, answer.value);
}

/** The bank balance of `address` in `denom` (uusdc by default). */
export function bankBalance(app: Pick<ChainApp, "query">, address: string, denom = "uusdc"): bigint {
  const response = queryApp(
    app,
    "/cosmos.bank.v1beta1.Query/Balance",
    cosmosBank.QueryBalanceRequestSchema,
    { address, denom },
    cosmosBank.QueryBalanceResponseSchema,
  );
  return BigInt(response.balance?.amount ?? "0");
}

/** The account of `address` (number, sequence, public key). */
export function accountInfo(app: Pick<ChainApp, "query">, address: string): cosmosAuth.BaseAccount {
  const response = queryApp(
    app,
    "/cosmos.auth.v1beta1.Query/AccountInfo",
    cosmosAuth.QueryAccountInfoRequestSchema,
    { address },
    cosmosAuth.QueryAccountInfoResponseSchema,
  );
  if (response.info === undefined) throw new Error(`no account ${address}`);
  return response.info;
}
