/**
 * The floor of the RPC row: a bare JSON-RPC server over `node:http` that, per `broadcast_tx_sync`,
 * decodes the tx bytes (TxRaw, then its AuthInfo for the signer's key), rebuilds the sign doc,
 * verifies one secp256k1 signature with the devnet's own check, hashes the tx and answers as
 * CometBFT does. Nothing else: no state, no matching, no blocks.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { cosmosTx } from "@perpx/proto";
import { verifySignature } from "../../packages/devnet/src/app/lib/crypto.js";

/** A running floor server. */
export interface FloorRpc {
  url: string;
  close(): Promise<void>;
}

/** Starts the floor server on a free port; `accountNumbers` maps a hex public key to its account number. */
export async function startFloorRpc(
  chainId: string,
  accountNumbers: ReadonlyMap<string, bigint>,
): Promise<FloorRpc> {
  function check(txBytes: Uint8Array): { code: number; log: string } {
    const raw = fromBinary(cosmosTx.TxRawSchema, txBytes);
    const authInfo = fromBinary(cosmosTx.AuthInfoSchema, raw.authInfoBytes);
    const any = authInfo.signerInfos[0]?.publicKey;
    const signature = raw.signatures[0];
    if (any === undefined || signature === undefined) return { code: 4, log: "no signer" };
    // cosmos.crypto.secp256k1.PubKey { bytes key = 1 }: a 2-byte header before the 33 key bytes.
    const key = any.value.subarray(2);
    const accountNumber = accountNumbers.get(Buffer.from(key).toString("hex"));
    if (accountNumber === undefined) return { code: 9, log: "unknown account" };
    const signDoc = toBinary(cosmosTx.SignDocSchema, {
      $typeName: "cosmos.tx.v1beta1.SignDoc",
      bodyBytes: raw.bodyBytes,
      authInfoBytes: raw.authInfoBytes,
      chainId,
      accountNumber,
    });
    return verifySignature("secp256k1", key, signDoc, signature)
      ? { code: 0, log: "" }
      : { code: 4, log: "signature verification failed" };
  }

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const call = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        id: unknown;
        params: { tx: string };
      };
      const tx = Buffer.from(call.params.tx, "base64");
      const result = check(tx);
      const hash = createHash("sha256").update(tx).digest("hex").toUpperCase();
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: call.id,
        result: { code: result.code, data: "", log: result.log, codespace: "", hash },
      });
      response.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
      });
      response.end(body);
    });
  });
  // Keep-alive as long as a round of the other lane lasts: the client reuses its sockets.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
