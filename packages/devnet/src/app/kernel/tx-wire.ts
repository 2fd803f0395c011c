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
import { Cursor, EMPTY, LEN, tag, VARINT } from "./wire-cursor.js";

type TxRaw = cosmosTx.TxRaw;
type TxBody = cosmosTx.TxBody;
type AuthInfo = cosmosTx.AuthInfo;
type SignerInfo = cosmosTx.SignerInfo;
type Any = TxBody["messages"][number];
type Fee = NonNullable<AuthInfo["fee"]>;
type Tip = NonNullable<AuthInfo["tip"]>;
type Coin = Fee["amount"][number];
type ModeInfo = NonNullable<SignerInfo["modeInfo"]>;
type ModeInfoSingle = Extract<ModeInfo["sum"], { case: "single" }>["value"];

function readAny(c: Cursor, end: number): Any {
  const any: Any = { $typeName: "google.protobuf.Any", typeUrl: "", value: EMPTY };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN):
        seen = c.once(seen, 1);
        any.typeUrl = c.ascii(end);
        break;
      case tag(2, LEN):
        seen = c.once(seen, 2);
        any.value = c.bytes(end);
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return any;
}

function readCoin(c: Cursor, end: number): Coin {
  const coin: Coin = { $typeName: "cosmos.base.v1beta1.Coin", denom: "", amount: "" };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN):
        seen = c.once(seen, 1);
        coin.denom = c.ascii(end);
        break;
      case tag(2, LEN):
        seen = c.once(seen, 2);
        coin.amount = c.ascii(end);
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return coin;
}

function readModeSingle(c: Cursor, end: number): ModeInfoSingle {
  const single: ModeInfoSingle = { $typeName: "cosmos.tx.v1beta1.ModeInfo.Single", mode: 0 };
  let seen = 0;
  while (c.ok && c.pos < end) {
    if (c.small() !== tag(1, VARINT)) {
      c.ok = false;
      break;
    }
    seen = c.once(seen, 1);
    single.mode = c.small();
  }
  c.close(end);
  return single;
}

function readModeInfo(c: Cursor, end: number): ModeInfo {
  const info: ModeInfo = { $typeName: "cosmos.tx.v1beta1.ModeInfo", sum: { case: undefined } };
  let seen = 0;
  while (c.ok && c.pos < end) {
    // Only `single` (1), once: a multisig's mode info is protobuf-es's to read.
    if (c.small() !== tag(1, LEN)) {
      c.ok = false;
      break;
    }
    seen = c.once(seen, 1);
    const stop = c.span(end);
    if (stop >= 0) info.sum = { case: "single", value: readModeSingle(c, stop) };
  }
  c.close(end);
  return info;
}

function readSignerInfo(c: Cursor, end: number): SignerInfo {
  const info: SignerInfo = { $typeName: "cosmos.tx.v1beta1.SignerInfo", sequence: 0n };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN): {
        seen = c.once(seen, 1);
        const stop = c.span(end);
        if (stop >= 0) info.publicKey = readAny(c, stop);
        break;
      }
      case tag(2, LEN): {
        seen = c.once(seen, 2);
        const stop = c.span(end);
        if (stop >= 0) info.modeInfo = readModeInfo(c, stop);
        break;
      }
      case tag(3, VARINT):
        seen = c.once(seen, 4);
        info.sequence = c.uint64();
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return info;
}

/** Reads one `Coin` field's message into `into`. */
function readCoinInto(c: Cursor, end: number, into: Coin[]): void {
  const stop = c.span(end);
  if (stop >= 0) into.push(readCoin(c, stop));
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
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN):
        readCoinInto(c, end, fee.amount);
        break;
      case tag(2, VARINT):
        seen = c.once(seen, 2);
        fee.gasLimit = c.uint64();
        break;
      case tag(3, LEN):
        seen = c.once(seen, 4);
        fee.payer = c.ascii(end);
        break;
      case tag(4, LEN):
        seen = c.once(seen, 8);
        fee.granter = c.ascii(end);
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return fee;
}

function readTip(c: Cursor, end: number): Tip {
  const tip: Tip = { $typeName: "cosmos.tx.v1beta1.Tip", amount: [], tipper: "" };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN):
        readCoinInto(c, end, tip.amount);
        break;
      case tag(2, LEN):
        seen = c.once(seen, 2);
        tip.tipper = c.ascii(end);
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
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
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN):
        seen = c.once(seen, 1);
        raw.bodyBytes = c.bytes(end);
        break;
      case tag(2, LEN):
        seen = c.once(seen, 2);
        raw.authInfoBytes = c.bytes(end);
        break;
      case tag(3, LEN):
        raw.signatures.push(c.bytes(end));
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
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
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN): {
        const stop = c.span(end);
        if (stop >= 0) body.messages.push(readAny(c, stop));
        break;
      }
      case tag(2, LEN):
        seen = c.once(seen, 2);
        body.memo = c.ascii(end);
        break;
      case tag(3, VARINT):
        seen = c.once(seen, 4);
        body.timeoutHeight = c.uint64();
        break;
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return c.ok ? body : undefined;
}

/** `AuthInfo` from its bytes, or undefined when the shape is not one this decoder takes. */
export function readAuthInfo(bytes: Uint8Array): AuthInfo | undefined {
  const c = new Cursor(bytes, 0);
  const end = bytes.length;
  const info: AuthInfo = { $typeName: "cosmos.tx.v1beta1.AuthInfo", signerInfos: [] };
  let seen = 0;
  while (c.ok && c.pos < end) {
    switch (c.small()) {
      case tag(1, LEN): {
        const stop = c.span(end);
        if (stop >= 0) info.signerInfos.push(readSignerInfo(c, stop));
        break;
      }
      case tag(2, LEN): {
        seen = c.once(seen, 2);
        const stop = c.span(end);
        if (stop >= 0) info.fee = readFee(c, stop);
        break;
      }
      case tag(3, LEN): {
        seen = c.once(seen, 4);
        const stop = c.span(end);
        if (stop >= 0) info.tip = readTip(c, stop);
        break;
      }
      default:
        c.ok = false;
    }
  }
  c.close(end);
  return c.ok ? info : undefined;
}
