import { create, toBinary } from "@bufbuild/protobuf";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { DirectSecp256k1HdWallet, encodePubkey, makeAuthInfoBytes, makeSignDoc } from "@cosmjs/proto-signing";
import { cosmosBank, cosmosTx, cosmosTxSigning, packAny } from "@perpx/proto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createChainApp } from "../app.js";
import { GENESIS_ACCOUNTS } from "../genesis/genesis-accounts.js";
import { bech32Of } from "../lib/addresses.js";
import { createGasMeter, defaultGasConfig, OutOfGasError, perByte, perByteCosts, txSizeGas } from "./gas.js";

/** SIGN_MODE_UNSPECIFIED, as cosmjs's simulation sends it (cosmjs types its own enum). */
const UNSPECIFIED_MODE = cosmosTxSigning.SignMode.UNSPECIFIED as number as Parameters<
  typeof makeAuthInfoBytes
>[5];

describe("gas meter", () => {
  it("counts, and throws sdk code 11 past the limit", () => {
    const meter = createGasMeter(10n);
    meter.consume(10n, "a");
    expect(() => meter.consume(1n, "WriteFlat")).toThrow(OutOfGasError);
    expect(meter.consumed).toBe(11n);
    const infinite = createGasMeter(undefined);
    infinite.consume(10n ** 30n, "x");
    expect(infinite.consumed).toBe(10n ** 30n);
  });

  it("property: a per-byte cost is the config's cost times the byte count, asked once or again", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 1000n }),
        fc.bigInt({ min: 0n, max: 1000n }),
        fc.array(fc.nat(5000), { maxLength: 40 }),
        (readCostPerByte, writeCostPerByte, lengths) => {
          const costs = perByteCosts({ ...defaultGasConfig, readCostPerByte, writeCostPerByte });
          for (const length of [...lengths, ...lengths]) {
            expect(perByte(costs.read, length)).toBe(readCostPerByte * BigInt(length));
            expect(perByte(costs.write, length)).toBe(writeCostPerByte * BigInt(length));
          }
        },
      ),
    );
  });

  it("property: tx-size gas ignores signatures and any auth info within the allowance", () => {
    fc.assert(
      fc.property(fc.nat(5000), fc.nat(128 + 256), fc.nat(128 + 256), (body, simulated, signed) => {
        const a = txSizeGas(defaultGasConfig, { bodyBytes: body, authInfoBytes: simulated, signers: 1 });
        const b = txSizeGas(defaultGasConfig, { bodyBytes: body, authInfoBytes: signed, signers: 1 });
        expect(a).toBe(b);
        expect(a).toBe(BigInt(body) * 10n);
      }),
    );
    expect(txSizeGas(defaultGasConfig, { bodyBytes: 0, authInfoBytes: 1000, signers: 1 })).toBe(
      (1000n - 384n) * 10n,
    );
  });
});

describe("simulation and delivery", () => {
  const genesisTime = new Date("2026-01-01T00:00:00Z");
  let wallet: DirectSecp256k1HdWallet;
  let address: string;
  let pubkey: ReturnType<typeof encodePubkey>;

  beforeAll(async () => {
    wallet = await DirectSecp256k1HdWallet.fromMnemonic(
      (GENESIS_ACCOUNTS[0] as { mnemonic: string }).mnemonic,
      {
        prefix: "perpx",
      },
    );
    const [account] = await wallet.getAccounts();
    address = account?.address ?? "";
    pubkey = encodePubkey(encodeSecp256k1Pubkey(account?.pubkey ?? new Uint8Array()));
  });

  it("property: delivery uses exactly the simulated gas, whatever changed in between", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.bigInt({ min: 1n, max: 10n ** 20n - 1n }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 3 }),
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.boolean(),
        fc.string({ maxLength: 40 }),
        async (amounts, recipients, funding, fundRecipientFirst, memo) => {
          const app = createChainApp({ profile: "local", genesisTime });
          const to = recipients.map((r) =>
            r === 0
              ? bech32Of(new Uint8Array(20).fill(200))
              : (GENESIS_ACCOUNTS[r] as { address: string }).address,
          );
          const msgs = amounts.map((amount, i) =>
            packAny(
              cosmosBank.MsgSendSchema,
              create(cosmosBank.MsgSendSchema, {
                fromAddress: address,
                toAddress: to[i % to.length] as string,
                amount: [
                  {
                    $typeName: "cosmos.base.v1beta1.Coin",
                    denom: "aperpx",
                    amount: amount.toString(),
                  },
                ],
              }),
            ),
          );
          const bodyBytes = toBinary(
            cosmosTx.TxBodySchema,
            create(cosmosTx.TxBodySchema, { messages: msgs, memo }),
          );
          const simAuth = makeAuthInfoBytes(
            [{ pubkey, sequence: 0 }],
            [],
            0,
            undefined,
            undefined,
            UNSPECIFIED_MODE,
          );
          const sim = app.simulate(
            toBinary(
              cosmosTx.TxRawSchema,
              create(cosmosTx.TxRawSchema, {
                bodyBytes,
                authInfoBytes: simAuth,
                signatures: [new Uint8Array()],
              }),
            ),
          );
          if (!sim.ok) throw new Error(sim.result.log);
          // Unrelated state changes between simulation and delivery.
          if (fundRecipientFirst)
            app.control.fund(to[0] as string, [{ denom: "aperpx", amount: funding + 1n }]);
          app.control.fund(address, [{ denom: "uusdc", amount: funding + 1n }]);
          app.produceBlock(new Date(genesisTime.getTime() + 1000));
          const fee = (sim.gasUsed * 25n + 999n) / 1000n;
          const authInfoBytes = makeAuthInfoBytes(
            [{ pubkey, sequence: 0 }],
            [{ denom: "uusdc", amount: fee.toString() }],
            Number(sim.gasUsed),
            undefined,
            undefined,
          );
          const { signature } = await wallet.signDirect(
            address,
            makeSignDoc(bodyBytes, authInfoBytes, "perpx-local-1", 0),
          );
          const tx = toBinary(
            cosmosTx.TxRawSchema,
            create(cosmosTx.TxRawSchema, {
              bodyBytes,
              authInfoBytes,
              signatures: [Buffer.from(signature.signature, "base64")],
            }),
          );
          const check = app.checkTx(tx);
          expect(check.code, check.log).toBe(0);
          const result = app.produceBlock(new Date(genesisTime.getTime() + 2000)).txResults[1];
          expect(result?.code, result?.log).toBe(0);
          expect(result?.gasUsed).toBeLessThanOrEqual(sim.gasUsed);
          if (!fundRecipientFirst) expect(result?.gasUsed).toBe(sim.gasUsed);
        },
      ),
      { numRuns: 25 },
    );
  });
});
