// What the merchant API answers when an acquirer's reporting API failed under a request (an answer
// to a dispute): submitDisputeEvidence and answerDispute rethrow the client's ReportingApiError after
// recording it on the account; the merchant API's use cases (decide-dispute.ts,
// submit-dispute-evidence-files.ts) turn it into one of the error table's codes instead of a 500, so
// the merchant can tell "try later" (ACQUIRER_UNAVAILABLE) from "the account's credentials must be
// entered again" (ACQUIRER_CREDENTIALS_REFUSED). The acquirer's own words stay on the account.
import { ReportingApiError } from "../acquirers/contract";
import { ApiError } from "../errors";

export function acquirerRefusal(error: unknown): unknown {
  if (!(error instanceof ReportingApiError)) return error;
  if (error.credentialsRefused)
    return new ApiError(
      "ACQUIRER_CREDENTIALS_REFUSED",
      "the acquirer refused this acquirer account's reporting API credentials; nothing was done there. Enter them again (back office or `accounts set-reporting-credentials`), then retry",
    );
  return new ApiError(
    "ACQUIRER_UNAVAILABLE",
    `the acquirer's reporting API did not answer usably${error.status ? ` (HTTP ${error.status})` : ""}; what was sent may not have reached it. Read the dispute, then retry`,
  );
}
