import { encodeCredential } from "@perpx/core";
import { isPerpxError } from "@perpx/errors";
import type { NodeClient, TxSigner } from "@perpx/node-client";
import type { DirectSignature, SignDocFields } from "@perpx/node-client/tx";
import { LocalWallet } from "@perpx/node-client/wallets";
import { ConsentError, pendingRequest, redirectOf, text } from "./approval.js";
import type { Sealer } from "./secrets.js";
import type { ConsentRequest, OAuthStore } from "./store.js";

/**
 * What the Cosmos-wallet consent needs: the store, the sealer, the node (which builds, simulates
 * and broadcasts the wallet's `AddAuthenticator`), how long a prepared transaction waits for its
 * signature, and how to issue a code.
 */
export interface CosmosConsentDeps {
  /** The OAuth store. */
  store: OAuthStore;
  /** Opens the sealed trading key; seals the credential. */
  sealer: Sealer;
  /** The node. */
  node: NodeClient;
  /** How long a prepared transaction waits for the wallet's signature, ms. */
  signTimeoutMs: number;
  /** Creates the grant and its code. */
  issueCode(request: ConsentRequest, grant: { account: string; credentialSealed: string }): Promise<string>;
}

/** A prepared registration waiting for the wallet's signature (held by the instance that prepared it). */
interface Signing {
  address: string;
  doc: SignDocFields;
  sign(signature: DirectSignature): void;
  abandon(error: Error): void;
  registration: Promise<bigint>;
  timer: NodeJS.Timeout;
}

const BECH32 = /^[a-z][a-z0-9]*1[02-9ac-hj-np-z]{38,90}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const bytesOf = (body: Record<string, unknown>, name: string, form: string) =>
  new Uint8Array(Buffer.from(text(body, name, BASE64, form), "base64"));
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/**
 * The consent page's Cosmos-wallet steps (`window.keplr`-style `signDirect`): `prepare` (the
 * wallet's address and public key in; the node builds the `AddAuthenticator` of the fresh trading
 * key with that account as signer and answers its SIGN_MODE_DIRECT sign doc) and `approve` (the
 * wallet's signature in; the transaction is broadcast, the authenticator confirmed, the code's
 * redirect out). The prepared transaction is held by this instance until signed or timed out.
 */
export function cosmosConsentSteps(deps: CosmosConsentDeps) {
  const signings = new Map<string, Signing>();

  return {
    async prepare(body: Record<string, unknown>) {
      const request = await pendingRequest(deps.store, body);
      const address = text(body, "address", BECH32, "the wallet's bech32 address");
      const publicKey = bytesOf(body, "publicKey", "the wallet's 33-byte public key, base64");
      if (publicKey.length !== 33) {
        throw new ConsentError(
          400,
          "invalid_request",
          "publicKey must be a 33-byte compressed secp256k1 key",
        );
      }
      // Preparing again (the wallet refused to sign, the page retries) abandons the previous transaction.
      const previous = signings.get(request.id);
      if (previous) {
        signings.delete(request.id);
        clearTimeout(previous.timer);
        previous.abandon(new ConsentError(409, "invalid_request", "superseded by a newer transaction"));
      }
      const key = LocalWallet.fromPrivateKey(deps.sealer.open(request.tradingKeySealed));
      let docReady!: (doc: SignDocFields) => void;
      let signed!: (signature: DirectSignature) => void;
      let abandoned!: (error: Error) => void;
      const doc = new Promise<SignDocFields>((resolve) => {
        docReady = resolve;
      });
      const signature = new Promise<DirectSignature>((resolve, reject) => {
        signed = resolve;
        abandoned = reject;
      });
      // The wallet as a signer whose signature arrives with the page's next step.
      const owner: TxSigner = {
        address,
        publicKey,
        keyType: "secp256k1",
        signDirect(fields) {
          docReady(fields);
          return signature;
        },
      };
      const registration = deps.node
        .registerTradingKey({ owner, publicKey: key.publicKey })
        .then((result) => result.authenticatorId);
      registration.catch(() => {
        if (signings.get(request.id)?.registration === registration) signings.delete(request.id);
      });
      const refused = registration.then(
        () => {
          throw new ConsentError(500, "server_error", "the transaction was sent before it was signed");
        },
        (error: unknown) => {
          throw new ConsentError(
            400,
            "invalid_request",
            `the chain cannot take this account's transaction: ${isPerpxError(error) ? error.shortMessage : "unknown error"}`,
          );
        },
      );
      const fields = await Promise.race([doc, refused]);
      const timer = setTimeout(() => {
        if (signings.get(request.id)?.registration === registration) signings.delete(request.id);
        abandoned(new ConsentError(408, "invalid_request", "the wallet did not sign in time"));
      }, deps.signTimeoutMs);
      timer.unref();
      signings.set(request.id, {
        address,
        doc: fields,
        sign: signed,
        abandon: abandoned,
        registration,
        timer,
      });
      return {
        signDoc: {
          bodyBytes: b64(fields.bodyBytes),
          authInfoBytes: b64(fields.authInfoBytes),
          chainId: fields.chainId,
          accountNumber: fields.accountNumber.toString(),
        },
      };
    },

    async approve(body: Record<string, unknown>) {
      const request = await pendingRequest(deps.store, body);
      const signing = signings.get(request.id);
      if (!signing) {
        throw new ConsentError(
          400,
          "invalid_request",
          "prepare the transaction first (or again: it timed out)",
        );
      }
      const signature = bytesOf(body, "signature", "the wallet's 64-byte signature, base64");
      const bodyBytes =
        body.bodyBytes === undefined ? signing.doc.bodyBytes : bytesOf(body, "bodyBytes", "base64");
      const authInfoBytes =
        body.authInfoBytes === undefined
          ? signing.doc.authInfoBytes
          : bytesOf(body, "authInfoBytes", "base64");
      if (!sameBytes(bodyBytes, signing.doc.bodyBytes)) {
        throw new ConsentError(400, "invalid_request", "the wallet changed the transaction's messages");
      }
      signings.delete(request.id);
      clearTimeout(signing.timer);
      signing.sign({ bodyBytes, authInfoBytes, signature });
      try {
        await signing.registration;
      } catch (error) {
        throw new ConsentError(
          400,
          "invalid_request",
          `the chain refused the signed transaction: ${isPerpxError(error) ? error.shortMessage : "unknown error"}`,
        );
      }
      if (!(await deps.store.takeRequest(request.id))) {
        throw new ConsentError(400, "invalid_request", "this consent request was already answered");
      }
      const key = LocalWallet.fromPrivateKey(deps.sealer.open(request.tradingKeySealed));
      const credential = encodeCredential({
        masterAddress: signing.address,
        tradingPrivateKey: key.exportPrivateKeyHex(),
      });
      const code = await deps.issueCode(request, {
        account: signing.address,
        credentialSealed: deps.sealer.seal(credential),
      });
      return redirectOf(request, { code });
    },
  };
}
