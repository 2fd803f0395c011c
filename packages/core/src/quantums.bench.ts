import { bench, describe } from "vitest";
import { priceToSubticks, quantumsToSize, sizeToQuantums, subticksToPrice } from "./quantums.js";

const btc = {
  atomicResolution: -10,
  quantumConversionExponent: -9,
  stepBaseQuantums: 1_000_000n,
  subticksPerTick: 100_000,
};

describe("human -> chain", () => {
  bench("sizeToQuantums exact", () => {
    sizeToQuantums("0.0125", btc);
  });
  bench("priceToSubticks exact", () => {
    priceToSubticks("28688", btc);
  });
  bench("priceToSubticks nearest (off-tick)", () => {
    priceToSubticks("28688.4321", btc, { rounding: "nearest" });
  });
});

describe("chain -> human", () => {
  bench("quantumsToSize", () => {
    quantumsToSize(125_000_000n, btc);
  });
  bench("subticksToPrice", () => {
    subticksToPrice(2_868_800_000n, btc);
  });
});
