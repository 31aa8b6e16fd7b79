// Reads one acquirer account's card-update feed (account updater) since a time and applies each
// update to that account's stored payments: a feed speaks for its merchant account only.
import { AcquirerAccountMissingError, getAccountConnector } from "../routing/accounts/account-connector";
import { ProcessorNotConfiguredError } from "../acquirers/registry";
import type { AcquirerName } from "../acquirers/names";
import { describeErrorForLog } from "../cards/redact-card-numbers";
import { AcquirerDataError } from "../acquirers/plumbing/parse-acquirer-json";
import { db } from "../db";
import { applyCardUpdate } from "./apply-card-update";

export interface PollCardUpdatesResult {
  processor: AcquirerName;
  /** The latest update time seen: the next poll's `since`. */
  latest: Date;
  notificationIds: string[];
  error?: string;
}

export async function pollCardUpdates({ accountId, since }: { accountId: string; since: Date }): Promise<PollCardUpdatesResult> {
  const { processor } = await db().acquirerAccount.findUniqueOrThrow({ where: { id: accountId }, select: { processor: true } });
  const result: PollCardUpdatesResult = { processor, latest: since, notificationIds: [] };
  try {
    const updates = await (await getAccountConnector({ accountId })).cardUpdates({ since });
    for (const update of [...updates].sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())) {
      result.notificationIds.push(...(await applyCardUpdate({ processor, acquirerAccountId: accountId, update })));
      if (update.updatedAt > result.latest) result.latest = update.updatedAt;
    }
  } catch (error) {
    // One feed being down must not stop the others. The text goes to the log: never a parser's own
    // message (it quotes the feed, card numbers included), see parse-acquirer-json.ts.
    result.error =
      error instanceof AcquirerDataError || error instanceof ProcessorNotConfiguredError || error instanceof AcquirerAccountMissingError
        ? error.message
        : describeErrorForLog(error);
  }
  return result;
}
