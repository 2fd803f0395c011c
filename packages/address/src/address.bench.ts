import { bench, describe } from "vitest";
import { addressToHex, parseAddress, toBech32 } from "./address.js";
import { parseSubaccountId } from "./subaccount.js";

const HEX = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const BECH32 = "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c";

describe("address conversion", () => {
  bench("addressToHex(bech32)", () => {
    addressToHex(BECH32);
  });
  bench("toBech32(checksummed 0x)", () => {
    toBech32(HEX);
  });
  bench("parseAddress(bech32)", () => {
    parseAddress(BECH32);
  });
  bench("parseSubaccountId", () => {
    parseSubaccountId(`${BECH32}/128`);
  });
});
