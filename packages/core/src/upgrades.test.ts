import { isInvalidArgumentError } from "@perpx/errors";
import { describe, expect, it } from "vitest";
import { local, mainnet, testnet } from "./networks.js";
import {
  compareVersions,
  LATEST_VERSION,
  MAINNET_UPGRADES,
  parseVersion,
  TESTNET_UPGRADES,
  upgradeHeight,
  versionAtHeight,
} from "./upgrades.js";

const asRecord = (upgrades: readonly { version: string; height: bigint }[]) =>
  Object.fromEntries(upgrades.map((u) => [u.version, Number(u.height)]));

describe("upgrade histories", () => {
  it("are exactly the specification's mainnet list", () => {
    expect(asRecord(MAINNET_UPGRADES)).toEqual({
      "v26.9": 509260,
      "v26.13": 9160000,
      "v26.14": 12380000,
      "v27.0": 12395000,
      "v27.1": 12471130,
      "v27.2": 12471830,
      "v27.3": 12842226,
      "v27.4": 12933138,
      "v27.5": 12960191,
    });
  });

  it("are exactly the specification's testnet list", () => {
    expect(asRecord(TESTNET_UPGRADES)).toEqual({
      "v26.12": 776500,
      "v26.13": 876000,
      "v26.14": 2550000,
      "v27.0": 4403000,
      "v27.1": 4420500,
      "v27.2": 4497068,
      "v27.3": 4845637,
      "v27.4": 4942502,
      "v27.5": 5016944,
    });
  });

  it("are sorted by height and by version", () => {
    for (const list of [MAINNET_UPGRADES, TESTNET_UPGRADES]) {
      for (let i = 1; i < list.length; i++) {
        const [prev, next] = [list[i - 1]!, list[i]!];
        expect(next.height > prev.height).toBe(true);
        expect(compareVersions(next.version, prev.version)).toBeGreaterThan(0);
      }
    }
    expect(LATEST_VERSION).toBe(MAINNET_UPGRADES.at(-1)!.version);
    expect(LATEST_VERSION).toBe(TESTNET_UPGRADES.at(-1)!.version);
  });
});

describe("versionAtHeight", () => {
  it("returns the version applied at or below the height, switching at the upgrade height", () => {
    expect(versionAtHeight(mainnet, 509_260n)).toBe("v26.9");
    expect(versionAtHeight(mainnet, 9_159_999n)).toBe("v26.9");
    expect(versionAtHeight(mainnet, 9_160_000n)).toBe("v26.13");
    expect(versionAtHeight(mainnet, 12_471_129)).toBe("v27.0");
    expect(versionAtHeight(mainnet, 12_471_130)).toBe("v27.1");
    expect(versionAtHeight(mainnet, 12_960_191n)).toBe("v27.5");
    expect(versionAtHeight(mainnet, 99_999_999_999n)).toBe("v27.5");
    expect(versionAtHeight(testnet, 4_420_499)).toBe("v27.0");
    expect(versionAtHeight(testnet, 5_016_944)).toBe("v27.5");
  });

  it("returns undefined before the first upgrade when the starting version is unknown", () => {
    expect(versionAtHeight(mainnet, 509_259n)).toBeUndefined();
    expect(versionAtHeight(mainnet, 1)).toBeUndefined();
    expect(versionAtHeight(testnet, 776_499)).toBeUndefined();
  });

  it("returns the genesis version on the local devnet from height 1", () => {
    expect(versionAtHeight(local, 1)).toBe("v27.5");
    expect(versionAtHeight(local, 0)).toBeUndefined();
  });

  it("refuses negative and fractional heights", () => {
    for (const height of [-1, -1n, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      let caught: unknown;
      try {
        versionAtHeight(mainnet, height);
      } catch (error) {
        caught = error;
      }
      expect(isInvalidArgumentError(caught)).toBe(true);
    }
  });
});

describe("upgradeHeight", () => {
  it("returns the applied-plan height of a version", () => {
    expect(upgradeHeight(mainnet, "v27.0")).toBe(12_395_000n);
    expect(upgradeHeight(testnet, "v26.12")).toBe(776_500n);
    expect(upgradeHeight(mainnet, "v26.12")).toBeUndefined();
  });
});

describe("versions", () => {
  it("parse and compare numerically", () => {
    expect(parseVersion("v27.5")).toEqual({ major: 27, minor: 5 });
    expect(compareVersions("v27.10", "v27.9")).toBeGreaterThan(0);
    expect(compareVersions("v26.14", "v27.0")).toBeLessThan(0);
    expect(compareVersions("v27.0", "v27.0")).toBe(0);
  });

  it("refuse other forms", () => {
    for (const bad of ["27.5", "v27", "v27.5.1", "v027.5", "V27.5", ""]) {
      expect(() => parseVersion(bad)).toThrow(/v<major>\.<minor>/);
    }
  });
});
