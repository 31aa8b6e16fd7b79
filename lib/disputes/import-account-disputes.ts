// Imports one account's disputes from its acquirer's reporting API: every dispute opened on or
// after the cursor's day (and every one the acquirer still has open), then each of our disputes not
// yet closed that the listing left out, read one by one, so a dispute opened before the cursor still
// reaches won or lost here. Each goes through applyAcquirerDispute (idempotent, one notification per
// change). Called by the poller (./poll-account-disputes.ts) with the cursor it keeps.
import { ReportingApiError } from "../acquirers/contract";
import { log } from "../observability/logger";
import type { AccountReporting } from "../routing/accounts/reporting-access";
import { db } from "../db";
import { applyAcquirerDispute } from "./apply-acquirer-dispute";
import { addDays, todayUtc } from "./dispute-dates";

/** A dispute may be listed a few days after the day it says it was opened (the acquirer's batch, its time zone): the cursor stays this far behind today. */
export const DISPUTE_LATE_LISTING_DAYS = 3;

export interface ImportedDisputes {
  read: number;
  created: number;
  updated: number;
  notificationIds: string[];
  /** Where the next import starts: never later than today minus DISPUTE_LATE_LISTING_DAYS, never earlier than this one. */
  nextOpenedOnOrAfter: string;
}

export async function importAccountDisputes({
  reporting,
  openedOnOrAfter,
  now = new Date(),
}: {
  reporting: AccountReporting;
  openedOnOrAfter: string;
  now?: Date;
}): Promise<ImportedDisputes> {
  const { client, call, account } = reporting;
  const listed = await client.disputes({ openedOnOrAfter }, call);
  const listedIds = new Set(listed.map((dispute) => dispute.disputeId));
  const stillOpen = await db().dispute.findMany({
    where: { acquirerAccountId: account.id, status: { notIn: ["won", "lost"] } },
    select: { acquirerDisputeId: true },
  });
  const refreshed = [];
  for (const { acquirerDisputeId } of stillOpen) {
    if (listedIds.has(acquirerDisputeId)) continue;
    try {
      refreshed.push(await client.dispute(acquirerDisputeId, call));
    } catch (error) {
      // One dispute the acquirer no longer knows must not stop every other dispute of the account:
      // it stays as last seen, and the line says so. Anything else fails the import (back-off, alert).
      if (!(error instanceof ReportingApiError && error.status === 404)) throw error;
      log("reporting").warn({ event: "dispute.not_found", accountId: account.id, acquirerDisputeId }, `dispute ${acquirerDisputeId} of account ${account.id}: the acquirer no longer finds it; kept as last seen`);
    }
  }
  const result: ImportedDisputes = { read: 0, created: 0, updated: 0, notificationIds: [], nextOpenedOnOrAfter: openedOnOrAfter };
  for (const dispute of [...listed, ...refreshed]) {
    const applied = await applyAcquirerDispute({ account, dispute });
    result.read += 1;
    if (applied.change === "created") result.created += 1;
    if (applied.change === "updated") result.updated += 1;
    if (applied.notificationId) result.notificationIds.push(applied.notificationId);
  }
  const behind = addDays(todayUtc(now), -DISPUTE_LATE_LISTING_DAYS);
  if (behind > openedOnOrAfter) result.nextOpenedOnOrAfter = behind;
  return result;
}
