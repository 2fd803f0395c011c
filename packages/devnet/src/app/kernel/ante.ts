/**
 * The ante step, in the Cosmos SDK's decorator order (with dYdX's replay protection): extension
 * options, basic validity, timeout height, memo, tx-size gas, fee (minimum gas prices in CheckTx,
 * then deduction into `fee_collector`), public keys (+ `tx` events), signature count, signature
 * gas, sequence or timestamp nonce, signature verification (skipped in simulation), sequence bump.
 *
 * Store work here runs unmetered; gas is charged as fixed amounts (see {@link GasConfig}), so a
 * simulation and the delivery of the same body pay exactly the same.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { cosmosSecp256k1, type cosmosTx, cosmosTxSigning } from "@perpx/proto";
import { accAddressBytes, bech32Of } from "../lib/addresses.js";
import { bytesEqual, bytesKey, toBase64, utf8 } from "../lib/codec.js";
import { checkMinGasPrices, coinsToString, type DecCoin, validateCoins } from "../lib/coins.js";
import {
  addressOfKey,
  isValidCompressedKey,
  type KeyAlgo,
  keyAlgoOf,
  verifySignatureOrVerdict,
} from "../lib/crypto.js";
import { abciError, isAbciError, sdkErrors } from "../lib/errors.js";
import { isTimestampNonce, processTimestampNonce } from "../lib/nonce.js";
import type { AccountPlusKeeper } from "../modules/accountplus/accountplus.js";
import { type Account, AUTH_PARAMS, type AuthKeeper } from "../modules/auth/auth.js";
import type { BankKeeper } from "../modules/bank/bank.js";
import { txSizeGas } from "./gas.js";
import type { Context, SignerCheck, TxPolicy } from "./module.js";
import { SIGN_MODE_DIRECT, signDocBytes } from "./sign-doc.js";
import type { DecodedTx } from "./tx.js";

/** What the ante step needs besides the tx. */
export interface AnteDeps {
  readonly auth: AuthKeeper;
  readonly bank: BankKeeper;
  readonly accountPlus: AccountPlusKeeper;
  /** The node's minimum gas prices (checked in CheckTx only, as the SDK's mempool does). */
  readonly minGasPrices: readonly DecCoin[];
  /**
   * Signatures already verified (key: algorithm, key, chain id, account number, tx hash, signer
   * index: the hash fixes the body, auth info and signatures, so the key fixes the sign bytes and the
   * signature). A pure memo: CheckTx fills it, delivery of the same tx skips the second verification
   * without rebuilding the sign bytes.
   */
  readonly verified?: Set<string>;
  /** The modules' signer authentication hook (see {@link Module.authenticateSigner}). */
  readonly authenticateSigner?: (ctx: Context, signer: SignerCheck) => boolean;
}

/** The SDK's upper bound on a tx's gas limit. */
const MAX_GAS_WANTED = (1n << 63n) - 1n;

/** The longest memo, in UTF-8 bytes. */
const MAX_MEMO_BYTES = Number(AUTH_PARAMS.maxMemoCharacters);

/**
 * The key bytes of an encoded public key: both key types are `{ bytes key = 1 }`, which the
 * secp256k1 schema decodes. The usual encoding (field 1 holding 33 bytes, nothing else) is read
 * in place, giving what the decoder gives (a view of the same bytes) without building a message.
 *
 * @throws what the protobuf decoder throws for bytes that do not decode.
 */
export function pubKeyBytes(value: Uint8Array): Uint8Array {
  if (value.length === 35 && value[0] === 0x0a && value[1] === 33) return value.subarray(2);
  return fromBinary(cosmosSecp256k1.PubKeySchema, value).key;
}

function signerPubKey(info: cosmosTx.SignerInfo | undefined): { algo: KeyAlgo; key: Uint8Array } | undefined {
  const any = info?.publicKey;
  if (any === undefined) return undefined;
  const algo = keyAlgoOf(any.typeUrl);
  if (algo === undefined)
    throw abciError(sdkErrors.invalidPubKey, `can't handle public key type ${any.typeUrl}`);
  let key: Uint8Array;
  try {
    key = pubKeyBytes(any.value);
  } catch {
    throw abciError(sdkErrors.invalidPubKey, `invalid public key of type ${any.typeUrl}`);
  }
  if (!isValidCompressedKey(key)) {
    throw abciError(sdkErrors.invalidPubKey, `invalid ${algo} public key: expected 33 compressed bytes`);
  }
  return { algo, key };
}

/**
 * Runs the ante step of `tx` in `ctx` (whose store is the tx's branch). Throws {@link AbciError} on
 * any failure; the caller discards the branch then.
 */
export function runAnte(ctx: Context, tx: DecodedTx, policy: TxPolicy, deps: AnteDeps): void {
  const simulate = ctx.mode === "simulate";
  const { body, authInfo, raw } = tx;

  // Extension options: none is known (non-critical ones are ignored, as the SDK does).
  if (body.extensionOptions.length > 0) throw abciError(sdkErrors.unknownExtensionOptions);

  // ValidateBasic.
  if (tx.gasLimit > MAX_GAS_WANTED) {
    throw abciError(sdkErrors.invalidRequest, `invalid gas supplied; ${tx.gasLimit} > ${MAX_GAS_WANTED}`);
  }
  if (raw.signatures.length === 0) throw abciError(sdkErrors.noSignatures);
  if (raw.signatures.length !== authInfo.signerInfos.length) {
    throw abciError(
      sdkErrors.unauthorized,
      `wrong number of signers; expected ${authInfo.signerInfos.length}, got ${raw.signatures.length}`,
    );
  }
  if (authInfo.fee?.granter !== undefined && authInfo.fee.granter !== "") {
    throw abciError(sdkErrors.invalidRequest, "fee grants are not enabled");
  }

  // Timeout height and memo.
  if (body.timeoutHeight > 0n && ctx.block.height > body.timeoutHeight) {
    throw abciError(
      sdkErrors.txTimeoutHeight,
      `block height: ${ctx.block.height}, timeout height: ${body.timeoutHeight}`,
    );
  }
  // Go counts the memo's bytes. A UTF-16 unit takes at most 3 UTF-8 bytes: a memo that short (the
  // usual empty one) is within the limit without encoding it.
  if (body.memo.length * 3 > MAX_MEMO_BYTES) {
    const memoLength = utf8(body.memo).length;
    if (memoLength > MAX_MEMO_BYTES) {
      throw abciError(
        sdkErrors.memoTooLarge,
        `maximum number of characters is ${AUTH_PARAMS.maxMemoCharacters} but received ${memoLength} characters`,
      );
    }
  }

  // Tx size.
  ctx.gasMeter.consume(
    txSizeGas(ctx.gasConfig, {
      bodyBytes: raw.bodyBytes.length,
      authInfoBytes: raw.authInfoBytes.length,
      signers: authInfo.signerInfos.length,
    }),
    "txSize",
  );

  // Signers must exist and match the signer infos.
  if (tx.signers.length !== authInfo.signerInfos.length) {
    throw abciError(
      sdkErrors.unauthorized,
      `invalid number of signer;  expected: ${tx.signers.length}, got ${authInfo.signerInfos.length}`,
    );
  }
  if (BigInt(tx.signers.length) > AUTH_PARAMS.txSigLimit) {
    throw abciError(
      sdkErrors.tooManySignatures,
      `signatures: ${tx.signers.length}, limit: ${AUTH_PARAMS.txSigLimit}`,
    );
  }
  const signerBytes = tx.signers.map((signer) => accAddressBytes(signer));

  // Fees.
  if (policy.chargeFees) deductFee(ctx, tx, signerBytes, deps);

  // Public keys, events, signature gas, replay protection, signatures, sequence bump.
  const accounts: Account[] = [];
  const authenticated: boolean[] = [];
  /** Per signer: true when the signer info's key is set on the account here. */
  const keySet: boolean[] = [];
  tx.signers.forEach((signer, i) => {
    const address = signerBytes[i] as Uint8Array;
    const info = authInfo.signerInfos[i] as cosmosTx.SignerInfo;
    let account = deps.auth.getAccount(ctx, address);
    if (account === undefined) throw abciError(sdkErrors.unknownAddress, `account ${signer} does not exist`);
    // A module (accountplus, part 2) may authenticate the signer itself: then the signer info's key
    // need not be the account's, and the default signature check is skipped.
    const byModule = deps.authenticateSigner?.(ctx, { tx, index: i, account, simulate }) === true;
    authenticated.push(byModule);
    const fromInfo = byModule ? undefined : signerPubKey(info);
    if (fromInfo !== undefined) {
      if (!bytesEqual(addressOfKey(fromInfo.algo, fromInfo.key), address)) {
        throw abciError(
          sdkErrors.invalidPubKey,
          `pubKey does not match signer address ${signer} with signer index: ${i}`,
        );
      }
      if (account.pubKey === undefined) {
        account = { ...account, pubKey: fromInfo };
        keySet[i] = true;
      }
    }
    // Their attributes are not even built where events are discarded (a carried tx's check).
    if (ctx.events.recording) {
      ctx.events.emitEvent("tx", [["acc_seq", `${signer}/${info.sequence}`]]);
      ctx.events.emitEvent("tx", [["signature", toBase64(raw.signatures[i] as Uint8Array)]]);
    }
    accounts.push(account);
  });

  accounts.forEach((account, i) => {
    const algo = account.pubKey?.algo ?? "secp256k1";
    ctx.gasMeter.consume(
      algo === "secp256k1" ? ctx.gasConfig.sigVerifyCostSecp256k1 : ctx.gasConfig.sigVerifyCostEthSecp256k1,
      "ante verify: secp256k1",
    );
    ctx.gasMeter.consume(ctx.gasConfig.accountUpdateCost, "ante account");
    const info = authInfo.signerInfos[i] as cosmosTx.SignerInfo;
    const sequence = info.sequence;
    const timestamp = isTimestampNonce(sequence);
    // A tx the policy lets skip the sequence (short-term orders, replay-protected by their
    // good-til-block) neither checks nor consumes a timestamp nonce, as the real chain skips both.
    if (timestamp && policy.checkSequence) {
      if (tx.signers.length !== 1) {
        throw abciError(sdkErrors.wrongSequence, "timestamp nonce txs must have exactly one signature");
      }
      const outcome = processTimestampNonce(
        sequence,
        ctx.block.timeMs,
        deps.accountPlus.nonceDetails(ctx, account.address),
      );
      if (!outcome.ok) throw abciError(sdkErrors.wrongSequence, outcome.reason);
      deps.accountPlus.setNonceDetails(ctx, account.address, outcome.details);
    } else if (policy.checkSequence && sequence !== account.sequence) {
      throw abciError(
        sdkErrors.wrongSequence,
        `account sequence mismatch, expected ${account.sequence}, got ${sequence}`,
      );
    }
    if (!simulate && authenticated[i] !== true) verify(ctx, tx, account, info, i, deps.verified);
    const bump = !timestamp && policy.checkSequence;
    // An account neither bumped nor given its key is not written back as it is (as the SDK's
    // decorators write an account only to change it): the same bytes again change no state.
    if (bump || keySet[i] === true) {
      deps.auth.setAccount(ctx, bump ? { ...account, sequence: account.sequence + 1n } : account);
    }
  });
}

function verify(
  ctx: Context,
  tx: DecodedTx,
  account: Account,
  info: cosmosTx.SignerInfo,
  index: number,
  verified: Set<string> | undefined,
): void {
  // The SDK's text, with the reason `VerifySignature` gives in parentheses.
  const failure = (detail: string) =>
    abciError(
      sdkErrors.unauthorized,
      `signature verification failed; please verify account number (${account.accountNumber}) and chain-id (${ctx.block.chainId}): (${detail})`,
    );
  if (account.pubKey === undefined) throw abciError(sdkErrors.invalidPubKey, "pubkey on account is not set");
  const mode = info.modeInfo?.sum;
  if (mode?.case !== "single")
    throw abciError(sdkErrors.notSupported, "multisig signatures are not supported");
  if (mode.value.mode !== SIGN_MODE_DIRECT) {
    throw failure(`unsupported sign mode ${cosmosTxSigning.SignMode[mode.value.mode] ?? mode.value.mode}`);
  }
  const memo =
    verified === undefined
      ? undefined
      : `${account.pubKey.algo}:${bytesKey(account.pubKey.key)}:${ctx.block.chainId}:${account.accountNumber}:${tx.hashKey}:${index}`;
  if (memo !== undefined && verified?.has(memo)) return;
  const signDoc = signDocBytes(
    tx.raw.bodyBytes,
    tx.raw.authInfoBytes,
    ctx.block.chainId,
    account.accountNumber,
  );
  const signature = tx.raw.signatures[index] as Uint8Array;
  if (!verifySignatureOrVerdict(account.pubKey.algo, account.pubKey.key, signDoc, signature)) {
    throw failure("unable to verify single signer signature");
  }
  if (memo !== undefined) verified?.add(memo);
}

function deductFee(ctx: Context, tx: DecodedTx, signers: readonly Uint8Array[], deps: AnteDeps): void {
  const payerText = tx.authInfo.fee?.payer ?? "";
  let payer = signers[0] as Uint8Array;
  if (payerText !== "") {
    payer = accAddressBytes(payerText, "invalid fee payer address");
    if (!signers.some((signer) => bytesEqual(signer, payer))) {
      throw abciError(sdkErrors.unauthorized, `fee payer ${payerText} is not a signer`);
    }
  }
  const payerAddress = bech32Of(payer);
  if (!deps.auth.hasAccount(ctx, payer)) {
    throw abciError(sdkErrors.unknownAddress, `fee payer address: ${payerAddress} does not exist`);
  }
  const invalid = validateCoins(tx.fee);
  if (invalid !== undefined) {
    throw abciError(sdkErrors.insufficientFee, `invalid fee amount: ${coinsToString(tx.fee)}`);
  }
  if (ctx.mode === "check") {
    const short = checkMinGasPrices(tx.fee, tx.gasLimit, deps.minGasPrices);
    if (short !== undefined) throw abciError(sdkErrors.insufficientFee, short);
  }
  ctx.gasMeter.consume(ctx.gasConfig.feeDeductionCost, "ante fee");
  if (tx.fee.length > 0) {
    try {
      deps.bank.sendCoinsFromAccountToModule(ctx, payer, "fee_collector", tx.fee);
    } catch (error) {
      if (
        isAbciError(error) &&
        error.abciCode === sdkErrors.insufficientFunds.code &&
        error.codespace === "sdk"
      ) {
        throw abciError(sdkErrors.insufficientFunds, error.log);
      }
      throw error;
    }
  }
  ctx.events.emitEvent("tx", [
    ["fee", coinsToString(tx.fee)],
    ["fee_payer", payerAddress],
  ]);
}
