/** Decoding the raw transaction bytes a node returns. */
import { create, fromBinary } from "@bufbuild/protobuf";
import { cosmosTx } from "@perpx/proto";

/** A raw tx's body, auth info and signatures; `undefined` when the bytes are not a `TxRaw`. */
export function decodeTxRaw(bytes: Uint8Array): cosmosTx.Tx | undefined {
  try {
    const raw = fromBinary(cosmosTx.TxRawSchema, bytes);
    return create(cosmosTx.TxSchema, {
      body: fromBinary(cosmosTx.TxBodySchema, raw.bodyBytes),
      authInfo: fromBinary(cosmosTx.AuthInfoSchema, raw.authInfoBytes),
      signatures: raw.signatures,
    });
  } catch {
    return undefined;
  }
}
