// Reads every available processor's card-update feed since a time and applies each update.
import { getConnector, isProcessorConfigured, sandboxUrl } from "../processors/registry";
import { PROCESSOR_NAMES, type ProcessorName } from "../processors/types";
import { describeErrorForLog } from "../cards/redact-card-numbers";
import { AcquirerDataError } from "../processors/parse-acquirer-json";
import { applyCardUpdate } from "./apply-card-update";

export interface PollCardUpdatesResult {
  /** The latest update time seen per processor: the next poll's `since`. */
  latest: Partial<Record<ProcessorName, Date>>;
  notificationIds: string[];
  errors: Partial<Record<ProcessorName, string>>;
}

export async function pollCardUpdates({
  since,
  processors = PROCESSOR_NAMES,
}: {
  since: Partial<Record<ProcessorName, Date>>;
  processors?: readonly ProcessorName[];
}): Promise<PollCardUpdatesResult> {
  const result: PollCardUpdatesResult = { latest: { ...since }, notificationIds: [], errors: {} };
  for (const processor of processors) {
    // A processor with neither a configured address nor a running sandbox has no feed to read.
    if (!isProcessorConfigured(processor) && !sandboxUrl(processor)) continue;
    try {
      const from = since[processor] ?? new Date(0);
      const updates = await getConnector(processor).cardUpdates({ since: from });
      for (const update of [...updates].sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())) {
        result.notificationIds.push(...(await applyCardUpdate({ processor, update })));
        if (update.updatedAt > (result.latest[processor] ?? from)) result.latest[processor] = update.updatedAt;
      }
    } catch (error) {
      // One processor's feed being down must not stop the others. The text goes to the log: never a
      // parser's own message (it quotes the feed, card numbers included), see parse-acquirer-json.ts.
      result.errors[processor] = error instanceof AcquirerDataError ? error.message : describeErrorForLog(error);
    }
  }
  return result;
}
