/**
 * A direct decoder of the cosmos tx envelope (`TxRaw`, `TxBody`, `AuthInfo`) for the shapes clients
 * send: known fields of the right wire type, each singular field at most once, ASCII strings, a
 * single-signer mode info. For those it returns exactly what protobuf-es's `fromBinary` returns
 * (the same fields, values and key order) without its reflection; for anything else (unknown or
 * extension fields, multisig mode info, non-ASCII text, a field past its message's end, malformed
 * bytes) it returns undefined, and the caller decodes with protobuf-es, whose result or error
 * stands.
 */
import type { cosmosTx } from "@perpx/proto";
import { Cursor, EMPTY, fields, LEN, numberOf, VARINT } from "./wire-cursor.js";

type TxRaw = cosmosTx.TxRaw;
type TxBody = cosmosTx.TxBody;
type AuthInfo = cosmosTx.AuthInfo;
type SignerInfo = cosmosTx.SignerInfo;
type Any = TxBody["messages"][number];
type Fee = NonNullable<AuthInfo["fee"]>;
type Tip = NonNullable<AuthInfo["tip"]>;
type Coin = Fee["amount"][number];
type ModeInfo = NonNullable<SignerInfo["modeInfo"]>;

function readAny(c: Cursor, end: number): Any {
  const any: Any = { $typeName: "google.protobuf.Any", typeUrl: "", value: EMPTY };
  let seen = 0;
  fields(c, end, (tag) => {
    const no = numberOf(tag, LEN);
    if ((no !== 1 && no !== 2) || (seen & (1 << no)) !== 0) return false;
    seen |= 1 << no;
    if (no === 1) any.typeUrl = c.ascii(end);
    else any.value = c.bytes(end);
    return true;
  });
  return any;
}

function readCoin(c: Cursor, end: number): Coin {
  const coin: Coin = { $typeName: "cosmos.base.v1beta1.Coin", denom: "", amount: "" };
  let seen = 0;
  fields(c, end, (tag) => {
    const no = numberOf(tag, LEN);
    if ((no !== 1 && no !== 2) || (seen & (1 << no)) !== 0) return false;
    seen |= 1 << no;
    if (no === 1) coin.denom = c.ascii(end);
    else coin.amount = c.ascii(end);
    return true;
  });
  return coin;
}

function readModeInfo(c: Cursor, end: number): ModeInfo {
  const info: ModeInfo = { $typeName: "cosmos.tx.v1beta1.ModeInfo", sum: { case: undefined } };
  fields(c, end, (tag) => {
    // Only `single` (1), once: a multisig's mode info is protobuf-es's to read.
    if (numberOf(tag, LEN) !== 1 || info.sum.case !== undefined) return false;
    const stop = c.span(end);
    if (stop < 0) return false;
    const single: Extract<ModeInfo["sum"], { case: "single" }>["value"] = {
      $typeName: "cosmos.tx.v1beta1.ModeInfo.Single",
      mode: 0,
    };
    let seen = false;
    fields(c, stop, (inner) => {
      if (numberOf(inner, VARINT) !== 1 || seen) return false;
      seen = true;
      single.mode = c.small();
      return true;
    });
    info.sum = { case: "single", value: single };
    return true;
  });
  return info;
}

function readSignerInfo(c: Cursor, end: number): SignerInfo {
  const info: SignerInfo = { $typeName: "cosmos.tx.v1beta1.SignerInfo", sequence: 0n };
  let seen = 0;
  fields(c, end, (tag) => {
    const no = tag >>> 3;
    if (no < 1 || no > 3 || (seen & (1 << no)) !== 0 || (tag & 7) !== (no === 3 ? VARINT : LEN)) return false;
    seen |= 1 << no;
    if (no === 3) {
      info.sequence = c.uint64();
      return true;
    }
    const stop = c.span(end);
    if (stop < 0) return false;
    if (no === 1) info.publicKey = readAny(c, stop);
    else info.modeInfo = readModeInfo(c, stop);
    return true;
  });
  return info;
}

function readCoins(c: Cursor, end: number, into: Coin[]): boolean {
  const stop = c.span(end);
  if (stop < 0) return false;
  into.push(readCoin(c, stop));
  return true;
}

function readFee(c: Cursor, end: number): Fee {
  const fee: Fee = {
    $typeName: "cosmos.tx.v1beta1.Fee",
    amount: [],
    gasLimit: 0n,
    payer: "",
    granter: "",
  };
  let seen = 0;
  fields(c, end, (tag) => {
    const no = tag >>> 3;
    if (no === 1 && (tag & 7) === LEN) return readCoins(c, end, fee.amount);
    if (no < 2 || no > 4 || (seen & (1 << no)) !== 0 || (tag & 7) !== (no === 2 ? VARINT : LEN)) return false;
    seen |= 1 << no;
    if (no === 2) fee.gasLimit = c.uint64();
    else if (no === 3) fee.payer = c.ascii(end);
    else fee.granter = c.ascii(end);
    return true;
  });
  return fee;
}

function readTip(c: Cursor, end: number): Tip {
  const tip: Tip = { $typeName: "cosmos.tx.v1beta1.Tip", amount: [], tipper: "" };
  let seen = false;
  fields(c, end, (tag) => {
    const no = numberOf(tag, LEN);
    if (no === 1) return readCoins(c, end, tip.amount);
    if (no !== 2 || seen) return false;
    seen = true;
    tip.tipper = c.ascii(end);
    return true;
  });
  return tip;
}

/** `TxRaw` from its bytes, or undefined when the shape is not one this decoder takes. */
export function readTxRaw(bytes: Uint8Array): TxRaw | undefined {
  const c = new Cursor(bytes, 0);
  const end = bytes.length;
  const raw: TxRaw = {
    $typeName: "cosmos.tx.v1beta1.TxRaw",
    bodyBytes: EMPTY,
    authInfoBytes: EMPTY,
    signatures: [],
  };
  let seen = 0;
  fields(c, end, (tag) => {
    const no = numberOf(tag, LEN);
    if (no === 3) {
      raw.signatures.push(c.bytes(end));
      return true;
    }
    if ((no !== 1 && no !== 2) || (seen & (1 << no)) !== 0) return false;
    seen |= 1 << no;
    if (no === 1) raw.bodyBytes = c.bytes(end);
    else raw.authInfoBytes = c.bytes(end);
    return true;
  });
  return c.ok ? raw : undefined;
}

/** `TxBody` from its bytes (no extension options), or undefined when the shape is not taken. */
export function readTxBody(bytes: Uint8Array): TxBody | undefined {
  const c = new Cursor(bytes, 0);
  const end = bytes.length;
  const body: TxBody = {
    $typeName: "cosmos.tx.v1beta1.TxBody",
    messages: [],
    memo: "",
    timeoutHeight: 0n,
    extensionOptions: [],
    nonCriticalExtensionOptions: [],
  };
  let seen = 0;
  fields(c, end, (tag) => {
    const no = tag >>> 3;
    if (no === 1 && (tag & 7) === LEN) {
      const stop = c.span(end);
      if (stop < 0) return false;
      body.messages.push(readAny(c, stop));
      return true;
    }
    if (no < 2 || no > 3 || (seen & (1 << no)) !== 0 || (tag & 7) !== (no === 3 ? VARINT : LEN)) return false;
    seen |= 1 << no;
    if (no === 2) body.memo = c.ascii(end);
    else body.timeoutHeight = c.uint64();
    return true;
  });
  return c.ok ? body : undefined;
}

/** `AuthInfo` from its bytes, or undefined when the shape is not one this decoder takes. */
export function readAuthInfo(bytes: Uint8Array): AuthInfo | undefined {
  const c = new Cursor(bytes, 0);
  const end = bytes.length;
  const info: AuthInfo = { $typeName: "cosmos.tx.v1beta1.AuthInfo", signerInfos: [] };
  let seen = 0;
  fields(c, end, (tag) => {
    const no = numberOf(tag, LEN);
    if (no < 1 || no > 3) return false;
    if (no !== 1 && (seen & (1 << no)) !== 0) return false;
    seen |= 1 << no;
    const stop = c.span(end);
    if (stop < 0) return false;
    if (no === 1) info.signerInfos.push(readSignerInfo(c, stop));
    else if (no === 2) info.fee = readFee(c, stop);
    else info.tip = readTip(c, stop);
    return true;
  });
  return c.ok ? info : undefined;
}
