/**
 * `POST /devnet/fund-subaccount`: a deposit into a subaccount made as the real testnet's faucet
 * makes one, through a transaction of the chain. The devnet's faucet account (a fixed key,
 * {@link FAUCET_SIGNER_LABEL}) is credited the USDC and the fee at once (a bank credit, which the
 * indexer does not show), signs `MsgDepositToSubaccount` to the subaccount with the network's
 * minimum gas price, and the block that includes it is mined now. The indexer's transfer is then a
 * `DEPOSIT` from the faucet's address carrying that tx's hash, which the node resolves
 * (`/tx?hash=0x...`, `/cosmos/tx/v1beta1/txs/{hash}`).
 */
import { create } from "@bufbuild/protobuf";
import { sha256 } from "@noble/hashes/sha2.js";
import { USDC_DENOM } from "@perpx/core";
import { sending } from "@perpx/proto";
import type { PersistentChainApp } from "../app/contract.js";
import { parseDecCoins, requiredFees } from "../app/lib/coins.js";
import { addressField, FieldError, intField, positiveAmountField } from "../app/lib/request-fields.js";
import { validateSubaccountId } from "../app/modules/subaccounts/keeper.js";
import { type DevnetSigner, devnetSigner, findAccount, type SignInput } from "../liquidity/signer.js";
import { ControlError, type ControlRouter } from "./control-router.js";
import { toHexUpper } from "./encoding.js";
import type { BlockProducer } from "./producer.js";

/** The label the faucet's key derives from; its address is the same on every devnet. */
export const FAUCET_SIGNER_LABEL = "perpx devnet faucet";

/** The largest deposit a `MsgDepositToSubaccount` carries (its `quantums` is a uint64). */
const MAX_UINT64 = 0xffff_ffff_ffff_ffffn;

/** Gas limit over the simulated gas used (50% headroom). */
const GAS_HEADROOM_PERCENT = 150n;

/**
 * Adds `POST /devnet/fund-subaccount {owner, number, quantums}`: answers `{owner, number,
 * credited, txHash, height}` once the deposit's block is committed; 400 `invalid_subaccount` for
 * a bad owner or number (before anything is signed), 500 `deposit_failed` when the chain refuses
 * the tx.
 *
 * @param router - the control server's route table.
 * @param app - the chain application.
 * @param producer - the block producer (the deposit's block is mined at once).
 */
export function addDepositControlRoute(
  router: ControlRouter,
  app: PersistentChainApp,
  producer: BlockProducer,
): void {
  let signer: DevnetSigner | undefined;
  router.add("POST", "/fund-subaccount", ({ body }) => {
    const owner = addressField(body, "owner").bech32;
    const number = intField(body, "number", 0);
    const quantums = positiveAmountField(body, "quantums");
    if (quantums > MAX_UINT64) throw new FieldError("quantums", `must be at most ${MAX_UINT64}`);
    try {
      validateSubaccountId({ owner, number });
    } catch (error) {
      throw new ControlError(
        400,
        "invalid_subaccount",
        error instanceof Error ? error.message : String(error),
      );
    }
    // derived on the first deposit: its key (and the pubkey's descriptors) are not needed before
    signer ??= devnetSigner(FAUCET_SIGNER_LABEL);
    const faucet = signer;
    const deposit = {
      schema: sending.MsgDepositToSubaccountSchema,
      value: create(sending.MsgDepositToSubaccountSchema, {
        sender: faucet.address,
        recipient: { owner, number },
        assetId: 0,
        quantums,
      }),
    } as SignInput["messages"][number];
    app.control.fund(faucet.address, [{ denom: USDC_DENOM, amount: quantums }]);
    const account = findAccount(app, faucet.address);
    if (account === undefined)
      throw new ControlError(500, "deposit_failed", "the faucet account was not created");
    const input = {
      chainId: app.info.chainId,
      accountNumber: account.accountNumber,
      sequence: account.sequence,
      messages: [deposit],
    };
    const simulated = app.simulate(faucet.sign(input));
    if (!simulated.ok) throw new ControlError(500, "deposit_failed", simulated.result.log);
    const gasLimit = (simulated.gasUsed * GAS_HEADROOM_PERCENT) / 100n;
    const fee = requiredFees(parseDecCoins(app.info.minimumGasPrices), gasLimit).filter(
      (c) => c.denom === USDC_DENOM,
    );
    if (fee.length > 0) app.control.fund(faucet.address, fee);
    const tx = faucet.sign({ ...input, fee: { amount: fee, gasLimit } });
    const checked = app.checkTx(tx);
    if (checked.code !== 0) throw new ControlError(500, "deposit_failed", checked.log);
    const hash = toHexUpper(sha256(tx));
    const [block] = producer.mine(1);
    const index = block?.txs.findIndex((bytes) => toHexUpper(sha256(bytes)) === hash) ?? -1;
    const result = index < 0 ? undefined : block?.txResults[index];
    if (block === undefined || result === undefined || result.code !== 0) {
      throw new ControlError(500, "deposit_failed", result?.log ?? "the deposit was not in the block");
    }
    return { owner, number, credited: quantums.toString(), txHash: hash, height: block.height.toString() };
  });
}
