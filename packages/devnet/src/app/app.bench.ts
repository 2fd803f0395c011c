/**
 * Throughput of the chain application: signed bank sends verified (CheckTx) and executed
 * (produceBlock) per second. Each iteration starts a fresh chain and runs TXS pre-signed txs
 * (from the five genesis accounts, consecutive sequences) through checkTx, then one block.
 * tx/s = hz × TXS.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet, encodePubkey, makeAuthInfoBytes, makeSignDoc } from "@cosmjs/proto-signing";
import { cosmosBank, cosmosTx, packAny } from "@perpx/proto";
import { bench, describe } from "vitest";
import { createChainApp } from "./app.js";
import { GENESIS_ACCOUNTS } from "./genesis/genesis-accounts.js";

const TXS = 500;
const genesisTime = new Date("2026-01-01T00:00:00Z");

async function presign(): Promise<Uint8Array[]> {
  const signers = await Promise.all(
    GENESIS_ACCOUNTS.map(async (account, accountNumber) => {
      const wallet = await DirectSecp256k1HdWallet.fromMnemonic(account.mnemonic, { prefix: "perpx" });
      const [info] = await wallet.getAccounts();
      if (info === undefined) throw new Error("no account");
      return { wallet, info, accountNumber };
    }),
  );
  const txs: Uint8Array[] = [];
  for (let i = 0; i < TXS; i++) {
    const { wallet, info, accountNumber } = signers[i % signers.length] as (typeof signers)[number];
    const sequence = Math.floor(i / signers.length);
    const to = (GENESIS_ACCOUNTS[(i + 1) % GENESIS_ACCOUNTS.length] as { address: string }).address;
    const bodyBytes = toBinary(
      cosmosTx.TxBodySchema,
      create(cosmosTx.TxBodySchema, {
        messages: [
          packAny(
            cosmosBank.MsgSendSchema,
            create(cosmosBank.MsgSendSchema, {
              fromAddress: info.address,
              toAddress: to,
              amount: [{ $typeName: "cosmos.base.v1beta1.Coin", denom: "uusdc", amount: "1" }],
            }),
          ),
        ],
      }),
    );
    const authInfoBytes = makeAuthInfoBytes(
      [{ pubkey: encodePubkey(encodeSecp256k1Pubkey(info.pubkey)), sequence }],
      [{ denom: "uusdc", amount: "5000" }],
      200_000,
      undefined,
      undefined,
    );
    const { signature } = await wallet.signDirect(
      info.address,
      makeSignDoc(bodyBytes, authInfoBytes, "perpx-local-1", accountNumber),
    );
    txs.push(
      toBinary(
        cosmosTx.TxRawSchema,
        create(cosmosTx.TxRawSchema, {
          bodyBytes,
          authInfoBytes,
          signatures: [Buffer.from(signature.signature, "base64")],
        }),
      ),
    );
  }
  return txs;
}

const txs = await presign();

describe(`signed bank sends (${TXS} per iteration; tx/s = hz × ${TXS})`, () => {
  bench(
    "checkTx + produceBlock",
    () => {
      const app = createChainApp({ profile: "local", genesisTime });
      for (const tx of txs) {
        const result = app.checkTx(tx);
        if (result.code !== 0) throw new Error(result.log);
      }
      const block = app.produceBlock(new Date(genesisTime.getTime() + 1000));
      if (block.txResults.some((r) => r.code !== 0)) throw new Error("a tx failed");
    },
    { iterations: 5, warmupIterations: 1 },
  );

  bench(
    "createChainApp alone (subtract from the above)",
    () => {
      createChainApp({ profile: "local", genesisTime });
    },
    { iterations: 20 },
  );
});
