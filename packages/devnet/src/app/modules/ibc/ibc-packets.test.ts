import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromUtf8 } from "../../lib/codec.js";
import { ics20PacketBytes, packetCommitment } from "./ibc-packets.js";

const field = fc.string({ maxLength: 40 });

describe("ICS-20 packet bytes", () => {
  it("are JSON with sorted keys and no empty memo, reading back as the packet (property)", () => {
    fc.assert(
      fc.property(field, field, field, field, field, (denom, amount, sender, receiver, memo) => {
        const text = fromUtf8(ics20PacketBytes({ denom, amount, sender, receiver, memo }));
        const parsed = JSON.parse(text) as Record<string, string>;
        expect(Object.keys(parsed)).toEqual(
          memo === ""
            ? ["amount", "denom", "receiver", "sender"]
            : ["amount", "denom", "memo", "receiver", "sender"],
        );
        expect(parsed).toEqual({ denom, amount, sender, receiver, ...(memo === "" ? {} : { memo }) });
      }),
    );
  });
});

describe("packetCommitment", () => {
  it("hashes the timeout timestamp, the timeout height and the data's hash, big-endian", () => {
    const data = new TextEncoder().encode('{"amount":"1"}');
    const preimage = new Uint8Array(56);
    const view = new DataView(preimage.buffer);
    view.setBigUint64(0, 7n);
    view.setBigUint64(8, 1n);
    view.setBigUint64(16, 99n);
    preimage.set(sha256(data), 24);
    expect(
      packetCommitment({
        timeoutTimestamp: 7n,
        timeoutHeight: { revisionNumber: 1n, revisionHeight: 99n },
        data,
      }),
    ).toEqual(sha256(preimage));
  });
});
