/**
 * The affiliates read model: referrals (`affiliate_registered` events: who referred whom, at which
 * height) and each address's referral code. The reference's roundtable gives every address with a
 * subaccount 0 a generated username (an adjective, a noun and three characters, drawn from a
 * generator seeded by `address/0/nonce`, the nonce bumped on a collision), and that username is
 * the address's referral code; ours does the same with its own words and a SHA-256 seed, at the
 * block where subaccount 0 first appears. A code renamed over REST stays until the indexer is
 * rebuilt from the blocks.
 */
import { createHash } from "node:crypto";
import type { LocatedIndexerEvent } from "../../app/indexer-output/indexer-events.js";

/** A referral. */
export interface Referral {
  readonly referee: string;
  readonly affiliate: string;
  readonly height: bigint;
}

const ADJECTIVES = [
  "amber",
  "brisk",
  "calm",
  "daring",
  "eager",
  "fleet",
  "gentle",
  "hardy",
  "ivory",
  "jolly",
  "keen",
  "lucid",
  "mellow",
  "nimble",
  "opal",
  "plucky",
];
const NOUNS = [
  "badger",
  "comet",
  "delta",
  "falcon",
  "glacier",
  "harbor",
  "lantern",
  "meadow",
  "nebula",
  "otter",
  "pebble",
  "quartz",
  "raven",
  "summit",
  "tundra",
  "willow",
];
const SUFFIX = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

const capital = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

/** The username a seed gives (`CalmOtterX7Q`). */
export function usernameOf(address: string, nonce: number): string {
  const bytes = createHash("sha256").update(`${address}/0/${nonce}`).digest();
  const pick = (list: readonly string[], i: number) => list[(bytes[i] as number) % list.length] as string;
  const suffix = [2, 3, 4].map((i) => SUFFIX.charAt((bytes[i] as number) % SUFFIX.length)).join("");
  return `${capital(pick(ADJECTIVES, 0))}${capital(pick(NOUNS, 1))}${suffix}`;
}

/** The affiliates model (see the module comment). */
export class AffiliatesModel {
  private readonly referrals = new Map<string, Referral>();
  private readonly referred = new Map<string, Referral[]>();
  private readonly codes = new Map<string, string>();
  private readonly owners = new Map<string, string>();

  /** Applies one event. */
  apply(located: LocatedIndexerEvent): void {
    const e = located.event;
    if (e.kind === "affiliate_registered") {
      const referral = { referee: e.referee, affiliate: e.affiliate, height: located.height };
      this.referrals.set(e.referee, referral);
      const list = this.referred.get(e.affiliate);
      if (list === undefined) this.referred.set(e.affiliate, [referral]);
      else list.push(referral);
    } else if (e.kind === "subaccount_update" && e.number === 0 && !this.codes.has(e.owner)) {
      let nonce = 0;
      let code = usernameOf(e.owner, nonce);
      while (this.owners.has(code)) code = usernameOf(e.owner, ++nonce);
      this.codes.set(e.owner, code);
      this.owners.set(code, e.owner);
    }
  }

  /** An address's referral code (its subaccount 0's username), if it has one. */
  referralCode(address: string): string | undefined {
    return this.codes.get(address);
  }

  /** Renames an address's referral code (`POST /v4/affiliates/referralCode`); the old one is free again. */
  setReferralCode(address: string, code: string): void {
    const old = this.codes.get(address);
    if (old !== undefined) this.owners.delete(old);
    this.codes.set(address, code);
    this.owners.set(code, address);
  }

  /** The address whose referral code this is. */
  ownerOf(code: string): string | undefined {
    return this.owners.get(code);
  }

  /** The users an affiliate referred, in registration order. */
  referredBy(affiliate: string): readonly Referral[] {
    return this.referred.get(affiliate) ?? [];
  }

  /** Every affiliate (an address that referred someone), in first-referral order. */
  affiliates(): string[] {
    return [...this.referred.keys()];
  }
}
