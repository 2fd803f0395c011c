/**
 * The indexer's affiliate routes over REST after a signed `MsgRegisterAffiliate` and a trade of
 * the referred user: referral codes (generated usernames), metadata, the code's address, the
 * affiliates' snapshot and a wallet's total volume, with the reference's validation and 404s; and
 * a referral code renamed by a request signed as the reference checks it (cosmjs signs).
 */
import { makeCosmoshubPath } from "@cosmjs/amino";
import { Bip39, EnglishMnemonic, Secp256k1, Slip10, Slip10Curve, sha256 } from "@cosmjs/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENESIS_ACCOUNTS } from "../src/app/genesis/genesis-accounts.js";
import { usernameOf } from "../src/indexer/models/affiliates.js";
import {
  BTC_PRICE_SUBTICKS,
  deliver,
  getIndexer,
  type IndexedChain,
  placeShortTerm,
  registerAffiliateMsg,
  signerAddresses,
  startFundedChain,
} from "./support/indexer-chain.js";

let chain: IndexedChain;
let alice: string;
let bob: string;
let carol: string;

type Body = Record<string, unknown>;

beforeAll(async () => {
  chain = await startFundedChain([10_000_000_000n, 10_000_000_000n, 10_000_000_000n]);
  [alice, bob, carol] = signerAddresses(chain);
  await deliver(chain, 1, [registerAffiliateMsg(bob, alice)]);
  // Bob (referred) rests 0.01 BTC at $65,000; Carol takes it.
  await placeShortTerm(chain, 1, {
    clientId: 1,
    side: "sell",
    quantums: 100_000_000n,
    subticks: BTC_PRICE_SUBTICKS,
  });
  await placeShortTerm(chain, 2, {
    clientId: 2,
    side: "buy",
    quantums: 100_000_000n,
    subticks: BTC_PRICE_SUBTICKS,
  });
  chain.devnet.mine(1);
});

afterAll(async () => {
  await chain?.devnet.stop();
});

async function body(path: string): Promise<Body> {
  const answer = await getIndexer(chain, path);
  expect(answer.status, path).toBe(200);
  return answer.body as Body;
}

describe("indexer REST: affiliates", () => {
  it("gives every address with a subaccount 0 a referral code, and finds the address of a code", async () => {
    const meta = await body(`/v4/affiliates/metadata?address=${alice}`);
    expect(meta).toEqual({ referralCode: usernameOf(alice, 0), isVolumeEligible: false, isAffiliate: true });
    expect(meta.referralCode).toMatch(/^[A-Z][a-z]+[A-Z][a-z]+[A-Z0-9]{3}$/);
    expect(await body(`/v4/affiliates/metadata?address=${carol}`)).toEqual({
      referralCode: usernameOf(carol, 0),
      isVolumeEligible: false,
      isAffiliate: false,
    });
    expect(await body(`/v4/affiliates/address?referralCode=${meta.referralCode}`)).toEqual({
      address: alice,
    });
    expect(await getIndexer(chain, "/v4/affiliates/address?referralCode=NoSuchCode")).toMatchObject({
      status: 404,
      body: { errors: [{ msg: "Referral code NoSuchCode does not exist" }] },
    });
    const stranger = "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a";
    expect(await getIndexer(chain, `/v4/affiliates/metadata?address=${stranger}`)).toMatchObject({
      status: 404,
      body: { errors: [{ msg: `Wallet with address ${stranger} not found` }] },
    });
    expect((await getIndexer(chain, "/v4/affiliates/metadata")).body).toEqual({
      errors: [{ msg: "address must be a valid string", param: "address", location: "query" }],
    });
  });

  it("sums the referred user's trades since the referral in the affiliate's snapshot", async () => {
    const fills = (await body(`/v4/fills?address=${bob}&subaccountNumber=0`)).fills as Body[];
    expect(fills).toHaveLength(1);
    const fee = Number(fills[0]?.fee);
    const { affiliateList, total, currentOffset } = await body("/v4/affiliates/snapshot");
    expect({ total, currentOffset }).toEqual({ total: 1, currentOffset: 0 });
    expect(affiliateList).toEqual([
      {
        affiliateAddress: alice,
        affiliateReferralCode: usernameOf(alice, 0),
        affiliateEarnings: 0,
        affiliateReferredTrades: 1,
        affiliateTotalReferredFees: fee,
        affiliateReferredUsers: 1,
        affiliateReferredNetProtocolEarnings: fee,
        affiliateReferredTotalVolume: 650,
        affiliateReferredMakerFees: Math.max(fee, 0),
        affiliateReferredTakerFees: 0,
        affiliateReferredMakerRebates: Math.min(fee, 0),
      },
    ]);
    expect(await body(`/v4/affiliates/snapshot?addressFilter=${bob},${carol}`)).toEqual({
      affiliateList: [],
      currentOffset: 0,
      total: 0,
    });
    expect(await body("/v4/affiliates/snapshot?offset=1&sortByAffiliateEarning=true")).toEqual({
      affiliateList: [],
      currentOffset: 1,
      total: 0,
    });
    expect(
      (await getIndexer(chain, "/v4/affiliates/snapshot?offset=-1&limit=0&sortByAffiliateEarning=no")).body,
    ).toEqual({
      errors: [
        { value: "-1", msg: "offset must be a valid integer", param: "offset", location: "query" },
        { value: "0", msg: "limit must be a valid integer", param: "limit", location: "query" },
        {
          value: "no",
          msg: "sortByAffiliateEarning must be a boolean",
          param: "sortByAffiliateEarning",
          location: "query",
        },
      ],
    });
  });

  it("gives a wallet's total volume as a number", async () => {
    expect(await body(`/v4/affiliates/total_volume?address=${bob}`)).toEqual({ totalVolume: 650 });
    expect(await body(`/v4/affiliates/total_volume?address=${alice}`)).toEqual({ totalVolume: 0 });
    expect(await getIndexer(chain, "/v4/affiliates/total_volume")).toMatchObject({
      status: 404,
      body: { errors: [{ msg: "Wallet with address undefined not found" }] },
    });
  });
});

/** A `POST /v4/affiliates/referralCode` body signed as the reference checks it (cosmjs signs). */
async function referralBody(
  signerIndex: number,
  newCode: string,
  options: { address?: string; timestamp?: number; text?: string } = {},
): Promise<Body> {
  const mnemonic = GENESIS_ACCOUNTS[signerIndex]?.mnemonic as string;
  const seed = await Bip39.mnemonicToSeed(new EnglishMnemonic(mnemonic));
  const { privkey } = Slip10.derivePath(Slip10Curve.Secp256k1, seed, makeCosmoshubPath(0));
  const pubkey = Secp256k1.compressPubkey(Secp256k1.makeKeypair(privkey).pubkey);
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const text = options.text ?? `${newCode}:UPDATE_CODE":${timestamp}`;
  const signature = Secp256k1.createSignature(sha256(new TextEncoder().encode(text)), privkey);
  return {
    address: options.address ?? chain.signers[signerIndex]?.address,
    newCode,
    signedMessage: Buffer.from(signature.toFixedLength()).toString("base64"),
    pubKey: Buffer.from(pubkey).toString("base64"),
    timestamp,
  };
}

async function post(body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${chain.devnet.endpoints.indexer}/v4/affiliates/referralCode`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe("indexer REST: POST /v4/affiliates/referralCode", () => {
  it("renames a signed address's referral code; the old code is gone", async () => {
    const old = usernameOf(bob, 0);
    expect(await post(await referralBody(1, "BobsCode42"))).toEqual({
      status: 200,
      body: { referralCode: "BobsCode42" },
    });
    expect((await body(`/v4/affiliates/metadata?address=${bob}`)).referralCode).toBe("BobsCode42");
    expect(await body("/v4/affiliates/address?referralCode=BobsCode42")).toEqual({ address: bob });
    expect((await getIndexer(chain, `/v4/affiliates/address?referralCode=${old}`)).status).toBe(404);
  });

  it("refuses a code in use, another key, a stale timestamp and a bad signature", async () => {
    const refusal = (msg: string) => ({ status: 400, body: { errors: [{ msg }] } });
    expect(await post(await referralBody(2, "BobsCode42"))).toEqual(refusal("Referral code already exists"));
    const foreign = await referralBody(2, "CarolsCode", { address: bob });
    expect(await post(foreign)).toEqual(
      refusal(`Address ${bob} does not correspond to the pubkey provided ${foreign.pubKey}`),
    );
    const stale = await referralBody(2, "CarolsCode", { timestamp: Math.floor(Date.now() / 1000) - 3_600 });
    expect(await post(stale)).toEqual(refusal("Timestamp is not within the valid range of 30 seconds"));
    const unsigned = await referralBody(2, "CarolsCode", { text: "something else" });
    expect(await post(unsigned)).toEqual(refusal("Signature verification failed"));
    expect((await body(`/v4/affiliates/metadata?address=${carol}`)).referralCode).toBe(usernameOf(carol, 0));
  });

  it("answers the reference's validation messages for a bad body", async () => {
    expect(await post({ address: carol, newCode: "no!", timestamp: "soon" })).toEqual({
      status: 400,
      body: {
        errors: [
          { value: "no!", msg: "newCode must be a valid string", param: "newCode", location: "body" },
          { msg: "signedMessage must be a valid string", param: "signedMessage", location: "body" },
          { msg: "pubKey must be a valid string", param: "pubKey", location: "body" },
          { value: "soon", msg: "timestamp must be a valid integer", param: "timestamp", location: "body" },
        ],
      },
    });
  });
});
