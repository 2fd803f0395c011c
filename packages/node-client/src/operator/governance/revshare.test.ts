import { isInvalidAddressError, isInvalidArgumentError } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { moduleAccountAddress } from "./fields.js";
import {
  setMarketMapperRevenueShareMsg,
  setMarketMapperRevShareDetailsForMarketMsg,
  updateUnconditionalRevShareConfigMsg,
} from "./revshare.js";

const A = moduleAccountAddress("sample-a");

/** The argument an `InvalidArgumentError` names. */
function refusedArgument(build: () => unknown): string | undefined {
  try {
    build();
  } catch (error) {
    expect(isInvalidArgumentError(error), String(error)).toBe(true);
    return (error as { argument: string }).argument;
  }
  return undefined;
}

describe("revenue share governance builders", () => {
  it("build the market mapper's parameters and a market's expiry", () => {
    expect(
      setMarketMapperRevenueShareMsg({ address: A, revenueSharePpm: 999_999, validDays: 30 }).value.params,
    ).toMatchObject({
      address: A,
      revenueSharePpm: 999_999,
      validDays: 30,
    });
    const details = setMarketMapperRevShareDetailsForMarketMsg({
      marketId: 3,
      expiresAt: new Date(1_700_000_000_999),
    });
    expect(details.value).toMatchObject({ marketId: 3, params: { expirationTs: 1_700_000_000n } });
  });

  it("refuse a market mapper share of 100% or more, a bad expiry and a bad address, naming the field", () => {
    expect(
      refusedArgument(() =>
        setMarketMapperRevenueShareMsg({ address: A, revenueSharePpm: 1_000_000, validDays: 1 }),
      ),
    ).toBe("revenueSharePpm");
    expect(
      refusedArgument(() =>
        setMarketMapperRevenueShareMsg({ address: A, revenueSharePpm: 1, validDays: -1 }),
      ),
    ).toBe("validDays");
    expect(
      refusedArgument(() =>
        setMarketMapperRevShareDetailsForMarketMsg({ marketId: 0, expiresAt: new Date(-1_000) }),
      ),
    ).toBe("expiresAt");
    let error: unknown;
    try {
      setMarketMapperRevenueShareMsg({ address: "perpx1nope", revenueSharePpm: 1, validDays: 1 });
    } catch (e) {
      error = e;
    }
    expect(isInvalidAddressError(error)).toBe(true);
  });

  it("build the unconditional recipients and refuse shares adding up to 100%", () => {
    const msg = updateUnconditionalRevShareConfigMsg({ recipients: [{ address: A, sharePpm: 50_000 }] });
    expect(msg.value.config?.configs).toMatchObject([{ address: A, sharePpm: 50_000 }]);
    const half = { address: A, sharePpm: 500_000 };
    expect(refusedArgument(() => updateUnconditionalRevShareConfigMsg({ recipients: [half, half] }))).toBe(
      "recipients",
    );
    expect(
      refusedArgument(() =>
        updateUnconditionalRevShareConfigMsg({ recipients: [{ address: A, sharePpm: 1_000_001 }] }),
      ),
    ).toBe("recipients[0].sharePpm");
  });
});
