export {
  type AddressOptions,
  addressBytes,
  addressToHex,
  fromValoperAddress,
  isValidAddress,
  type ParsedAddress,
  parseAddress,
  toBech32,
  toValoperAddress,
} from "./address.js";
export { addressBytesToBech32 } from "./bech32.js";
export {
  InvalidAddressError,
  type InvalidAddressErrorOptions,
  type InvalidAddressReason,
  InvalidSubaccountError,
  type InvalidSubaccountErrorOptions,
  type InvalidSubaccountReason,
  isInvalidAddressError,
  isInvalidSubaccountError,
} from "./errors.js";
export { addressBytesToHex } from "./hex.js";
export {
  ADDRESS_LENGTH,
  DEFAULT_PREFIX,
  isValidPrefix,
  MAX_PREFIX_LENGTH,
  VALOPER_PREFIX,
} from "./prefix.js";
export {
  CHILD_SUBACCOUNT_STRIDE,
  childSubaccountIndex,
  childSubaccountNumber,
  formatSubaccountId,
  isParentSubaccountNumber,
  MAX_PARENT_SUBACCOUNT_NUMBER,
  MAX_SUBACCOUNT_NUMBER,
  parentSubaccountNumber,
  parseSubaccountId,
  type SubaccountRef,
  validateSubaccountNumber,
} from "./subaccount.js";
