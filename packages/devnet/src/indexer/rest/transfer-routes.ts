/**
 * `GET /v4/transfers/between` (`spec/indexer-api.md` 1.5): the USDC transfers between two
 * subaccounts in either direction, seen from the source, and the net USDC the source sent the
 * recipient over all time, with the reference's validation (the addresses are only checked to be
 * strings; the numbers carry the subaccount message).
 */
import { INDEXER_ROUTES } from "@perpx/core/indexer";
import { transferBody } from "../account-views.js";
import { usdc } from "../format.js";
import type { TransferRecord } from "../models/history.js";
import { createdFilter, subaccountNumberParam } from "./account-params.js";
import { ok, type Route } from "./routes.js";
import { API_LIMIT } from "./validation.js";

const sameSide = (side: TransferRecord["sender"], address: string, n: number) =>
  side.address === address && side.subaccountNumber === n;

/** The transfer routes beside the account ones. */
export const transferRoutes: readonly Route[] = [
  {
    path: INDEXER_ROUTES.getTransfersBetween.path,
    cache: 1,
    handler: (checks, indexer) => {
      const before = checks.createdBeforeOrAt();
      const sourceAddress = checks.oneOf("sourceAddress", () => true, "Invalid value", "both") ?? "";
      const source = subaccountNumberParam(checks, "sourceSubaccountNumber");
      const recipientAddress = checks.oneOf("recipientAddress", () => true, "Invalid value", "both") ?? "";
      const recipient = subaccountNumberParam(checks, "recipientSubaccountNumber");
      if (checks.errors.length > 0) return ok({});
      const between = (t: TransferRecord) =>
        (sameSide(t.sender, sourceAddress, source) || sameSide(t.sender, recipientAddress, recipient)) &&
        (sameSide(t.recipient, sourceAddress, source) || sameSide(t.recipient, recipientAddress, recipient));
      const all = indexer.history.transfersOf(sourceAddress, source).filter(between);
      let net = 0n;
      for (const t of all) {
        if (sameSide(t.sender, sourceAddress, source) && sameSide(t.recipient, recipientAddress, recipient))
          net += t.quantums;
        else if (
          sameSide(t.sender, recipientAddress, recipient) &&
          sameSide(t.recipient, sourceAddress, source)
        )
          net -= t.quantums;
      }
      const keep = createdFilter(before);
      const transfersSubset = all
        .filter((t) => keep(t.createdAtHeight, t.createdAt))
        .sort((a, b) => (a.eventId < b.eventId ? 1 : -1))
        .slice(0, API_LIMIT)
        .map((t) => transferBody(t, sourceAddress, source));
      return ok({ transfersSubset, totalNetTransfers: usdc(net) });
    },
  },
];
