/**
 * Order txs signed fast for benches: a raw secp256k1 key (a funded subaccount's,
 * `fundedSubaccountKey(i)`) and `@noble/curves` (the same deterministic RFC 6979 signature as
 * cosmjs's `signDirect`), fee-free as clob txs are.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { encodeSecp256k1Pubkey } from "@cosmjs/amino";
import { encodePubkey, makeAuthInfoBytes } from "@cosmjs/proto-signing";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { cosmosTx } from "@perpx/proto";
import { fundedSubaccountKey } from "../../src/index.js";
import { type OrderSpec, placeMsg } from "./clob-tx.js";

/** A signer of fee-free clob txs. */
export interface FastSigner {
  readonly address: string;
  readonly accountNumber: number;
  readonly privateKey: Uint8Array;
  readonly publicKey: Uint8Array;
}

/** The signer of funded subaccount `index` (its account number follows the `testAccounts` ones). */
export function fundedSigner(index: number, testAccounts: number): FastSigner {
  const key = fundedSubaccountKey(index);
  return {
    address: key.address,
    accountNumber: testAccounts + index,
    privateKey: key.privateKey,
    publicKey: key.publicKey,
  };
}

/** A SIGN_MODE_DIRECT tx of one `MsgPlaceOrder` (`sequence` matters for stateful orders only). */
export function signOrderTx(signer: FastSigner, chainId: string, spec: OrderSpec, sequence = 0): Uint8Array {
  const m = placeMsg(spec);
  const bodyBytes = toBinary(
    cosmosTx.TxBodySchema,
    create(cosmosTx.TxBodySchema, {
      messages: [
        {
          $typeName: "google.protobuf.Any" as const,
          typeUrl: `/${m.schema.typeName}`,
          value: toBinary(m.schema, m.value),
        },
      ],
    }),
  );
  const authInfoBytes = makeAuthInfoBytes(
    [{ pubkey: encodePubkey(encodeSecp256k1Pubkey(signer.publicKey)), sequence }],
    [],
    1_000_000,
    undefined,
    undefined,
  );
  const signDoc = toBinary(
    cosmosTx.SignDocSchema,
    create(cosmosTx.SignDocSchema, {
      bodyBytes,
      authInfoBytes,
      chainId,
      accountNumber: BigInt(signer.accountNumber),
    }),
  );
  const signature = secp256k1.sign(signDoc, signer.privateKey);
  return toBinary(
    cosmosTx.TxRawSchema,
    create(cosmosTx.TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] }),
  );
}
