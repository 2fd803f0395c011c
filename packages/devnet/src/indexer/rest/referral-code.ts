/**
 * `POST /v4/affiliates/referralCode`: an address renames its referral code, as the reference's
 * comlink does it. The body's `address`, `newCode` (3 to 32 letters and digits), `signedMessage`,
 * `pubKey` and `timestamp` are checked with the reference's messages (400 `{errors}`); then the
 * signature: the address must have the `perpx` prefix and be the key's (RIPEMD-160 of SHA-256 of
 * it), the timestamp within 30 seconds of the server's clock, and `signedMessage` (base64 of 65
 * bytes: r, s, recovery) a secp256k1 signature of SHA-256 of `<newCode>:UPDATE_CODE":<timestamp>`
 * (the reference's text, its stray quote included) by `pubKey` (base64). A code in use answers
 * 400 "Referral code already exists", an address without a subaccount 0 "Referral code update not
 * available yet"; else the code changes and the answer is `{referralCode}`. The new code lives in
 * the indexer's memory: a rebuild from the blocks (a restart) gives back the generated one.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { ripemd160 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { addressBytesToBech32, DEFAULT_PREFIX } from "@perpx/address";
import type { Indexer } from "../indexer.js";
import { internalError, invalidParam, ok, type Route, type RouteAnswer } from "./routes.js";
import { isValidAddress } from "./utility-routes.js";
import type { RequestChecks } from "./validation.js";

/** How far a request's timestamp may be from the server's clock (the reference's 30 seconds). */
const WRITE_REQUEST_TTL_SECONDS = 30;

const isReferralCode = (code: string) => code.length >= 3 && code.length <= 32 && /^[a-zA-Z0-9]*$/.test(code);

/** The reference's signature checks: an error answer, or undefined when the request is signed. */
function signatureError(
  address: string,
  timestamp: number,
  code: string,
  signedMessage: string,
  pubKey: string,
  nowSeconds: number,
): RouteAnswer | undefined {
  if (!address.startsWith(DEFAULT_PREFIX)) {
    return invalidParam(`Address ${address} is not a valid dYdX V4 address`);
  }
  const key = new Uint8Array(Buffer.from(pubKey, "base64"));
  if (address !== addressBytesToBech32(ripemd160(sha256(key)), DEFAULT_PREFIX)) {
    return invalidParam(`Address ${address} does not correspond to the pubkey provided ${pubKey}`);
  }
  if (Math.abs(nowSeconds - timestamp) > WRITE_REQUEST_TTL_SECONDS) {
    return invalidParam(`Timestamp is not within the valid range of ${WRITE_REQUEST_TTL_SECONDS} seconds`);
  }
  const signature = new Uint8Array(Buffer.from(signedMessage, "base64"));
  // cosmjs's ExtendedSecp256k1Signature.fromFixedLength throws on anything but 65 bytes (a 500).
  if (signature.length !== 65 || (signature[64] as number) > 4) return internalError;
  const digest = sha256(new TextEncoder().encode(`${code}:UPDATE_CODE":${timestamp}`));
  let valid: boolean;
  try {
    valid = secp256k1.verify(signature.subarray(0, 64), digest, key, { prehash: false, lowS: false });
  } catch {
    valid = false;
  }
  return valid ? undefined : invalidParam("Signature verification failed");
}

function updateCode(checks: RequestChecks, indexer: Indexer): RouteAnswer {
  const address = checks.bodyString("address", "address must be a valid dydx address", isValidAddress);
  const newCode = checks.bodyString("newCode", "newCode must be a valid string", isReferralCode);
  const signedMessage = checks.bodyString("signedMessage", "signedMessage must be a valid string");
  const pubKey = checks.bodyString("pubKey", "pubKey must be a valid string");
  const timestamp = checks.bodyInt("timestamp", "timestamp must be a valid integer");
  if (
    address === undefined ||
    newCode === undefined ||
    signedMessage === undefined ||
    pubKey === undefined ||
    timestamp === undefined
  ) {
    return ok({});
  }
  const refused = signatureError(address, timestamp, newCode, signedMessage, pubKey, Date.now() / 1000);
  if (refused !== undefined) return refused;
  if (indexer.affiliates.ownerOf(newCode) !== undefined) return invalidParam("Referral code already exists");
  if (indexer.affiliates.referralCode(address) === undefined) {
    return invalidParam("Referral code update not available yet - please try again later");
  }
  indexer.affiliates.setReferralCode(address, newCode);
  return ok({ referralCode: newCode });
}

/** The referral code route (POST, no caching). */
export const referralCodeRoute: Route = {
  path: "/v4/affiliates/referralCode",
  method: "POST",
  cache: "no-cache",
  handler: updateCode,
};
