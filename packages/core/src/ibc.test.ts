import { sha256 } from "@noble/hashes/sha2.js";
import { isInvalidArgumentError } from "@perpx/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatDenomTrace,
  ibcDenom,
  ibcDenomFromTrace,
  isChannelId,
  isClientId,
  isConnectionId,
  isIbcDenom,
  isPortId,
  parseDenomTrace,
} from "./ibc.js";

const USDC_CHANNEL_0 = "ibc/8E27BA2D5493AF5636760E354E46004562C46AB7EC0CC4C1CA14E9E20E2545B5";
const USDC_CHANNEL_1 = "ibc/65D0BEC6DAD96C7F5043D1E54E54B6BB5D5B3AEC3FF6CEBB75B9E059F3580EA3";

describe("ibcDenom", () => {
  it("matches the verified vectors of chain-protocol.md section 7", () => {
    expect(ibcDenom("transfer", "channel-0", "uusdc")).toBe(USDC_CHANNEL_0);
    expect(ibcDenom("transfer", "channel-1", "uusdc")).toBe(USDC_CHANNEL_1);
    expect(ibcDenomFromTrace("transfer/channel-0/uusdc")).toBe(USDC_CHANNEL_0);
    expect(ibcDenomFromTrace("transfer/channel-1/uusdc")).toBe(USDC_CHANNEL_1);
  });

  it("hashes the whole path of a multi-hop trace", () => {
    const path = "transfer/channel-5/transfer/channel-0/uusdc";
    const expected = `ibc/${Buffer.from(sha256(new TextEncoder().encode(path)))
      .toString("hex")
      .toUpperCase()}`;
    expect(ibcDenomFromTrace(path)).toBe(expected);
    expect(ibcDenom("transfer", "channel-5", "transfer/channel-0/uusdc")).toBe(expected);
    expect(
      ibcDenomFromTrace({
        hops: [
          { portId: "transfer", channelId: "channel-5" },
          { portId: "transfer", channelId: "channel-0" },
        ],
        baseDenom: "uusdc",
      }),
    ).toBe(expected);
  });

  it("returns the base denom of a trace without hops, as ibc-go does", () => {
    expect(ibcDenomFromTrace("uusdc")).toBe("uusdc");
  });

  it("refuses malformed ports, channels and denoms, naming the argument", () => {
    for (const [port, channel, denom, argument] of [
      ["transfer", "channel-01", "uusdc", "hop.channelId"],
      ["transfer", "chan-0", "uusdc", "hop.channelId"],
      ["transfer", "channel-", "uusdc", "hop.channelId"],
      ["transfer", "channel-18446744073709551616", "uusdc", "hop.channelId"],
      ["t", "channel-0", "uusdc", "hop.portId"],
      ["trans/fer", "channel-0", "uusdc", "hop.portId"],
      ["transfer", "channel-0", "u", "baseDenom"],
      ["transfer", "channel-0", "1usdc", "baseDenom"],
      ["transfer", "channel-0", "", "baseDenom"],
    ] as const) {
      let caught: unknown;
      try {
        ibcDenom(port, channel, denom);
      } catch (error) {
        caught = error;
      }
      expect(isInvalidArgumentError(caught), `${port}/${channel}/${denom}`).toBe(true);
      expect((caught as { argument: string }).argument).toBe(argument);
    }
  });
});

describe("denom traces", () => {
  it("parse leading port/channel pairs as hops and the rest as the base denom", () => {
    expect(parseDenomTrace("transfer/channel-1/transfer/channel-0/gamm/pool/1")).toEqual({
      hops: [
        { portId: "transfer", channelId: "channel-1" },
        { portId: "transfer", channelId: "channel-0" },
      ],
      baseDenom: "gamm/pool/1",
    });
    expect(parseDenomTrace("uusdc")).toEqual({ hops: [], baseDenom: "uusdc" });
  });

  it("round-trip through formatDenomTrace", () => {
    const hop = fc.record({
      portId: fc.constantFrom("transfer", "wasm.contract", "icahost"),
      channelId: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((n) => `channel-${n}`),
    });
    const base = fc.constantFrom("uusdc", "aperpx", "gamm/pool/1", "erc20/0xabc", "uatom");
    fc.assert(
      fc.property(fc.array(hop, { maxLength: 4 }), base, (hops, baseDenom) => {
        const path = formatDenomTrace({ hops, baseDenom });
        expect(parseDenomTrace(path)).toEqual({ hops, baseDenom });
        const denom = ibcDenomFromTrace(path);
        expect(hops.length === 0 ? denom === baseDenom : isIbcDenom(denom)).toBe(true);
      }),
    );
  });
});

describe("identifier forms", () => {
  it("recognize channel, connection, client and port identifiers", () => {
    expect(isChannelId("channel-0")).toBe(true);
    expect(isChannelId("channel-18446744073709551615")).toBe(true);
    expect(isChannelId("channel-18446744073709551616")).toBe(false);
    expect(isChannelId("channel-00")).toBe(false);
    expect(isChannelId("connection-0")).toBe(false);
    expect(isConnectionId("connection-12")).toBe(true);
    expect(isConnectionId("connection-x")).toBe(false);
    expect(isClientId("07-tendermint-0")).toBe(true);
    expect(isClientId("07-tendermint-")).toBe(false);
    expect(isClientId("channel")).toBe(false);
    expect(isPortId("transfer")).toBe(true);
    expect(isPortId("x")).toBe(false);
    expect(isPortId(42)).toBe(false);
  });

  it("recognize voucher denoms in canonical (uppercase) form only", () => {
    expect(isIbcDenom(USDC_CHANNEL_0)).toBe(true);
    expect(isIbcDenom(USDC_CHANNEL_0.toLowerCase())).toBe(false);
    expect(isIbcDenom("ibc/ABC")).toBe(false);
    expect(isIbcDenom("uusdc")).toBe(false);
  });
});
