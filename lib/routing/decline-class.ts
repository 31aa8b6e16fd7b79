// What an authorization attempt's answer means for the routing (decision 0190). The acquirer module
// classes the codes its reference documents (ProcessorResult.declineClass); an answer without a code
// (a time-out, a refusal before sending, an account that could not be called) is read from its
// status and failure. The routing's rule for each class is here too: the one place that decides
// whether a payment goes on to the next acquirer account.
import type { DeclineClass, ProcessorResult } from "../acquirers/contract";

/** The class of an answer: the acquirer's table's, else what its status and failure say. */
export function declineClassOf(result: Pick<ProcessorResult, "status" | "failure" | "declineClass">): DeclineClass {
  if (result.status === "approved") return "approved";
  // An approval's code on an answer that did not approve is not an approval.
  if (result.declineClass && result.declineClass !== "approved") return result.declineClass;
  if (result.failure === "indeterminate" || result.failure === "retryable") return "technical";
  return "declined-soft";
}

/**
 * What the routing does after an attempt of this class:
 * - `stop`: the payment ends here (approved; or declined-hard and stop-recurring: the card schemes
 *   forbid a re-attempt, so no other acquirer is tried);
 * - `next`: the next acquirer account is tried (declined-soft, technical with a known outcome,
 *   authentication-required when no step-up follows).
 * A technical answer whose outcome is unknown is settled by look-up before this is asked.
 */
export function routingAfter(declineClass: DeclineClass): "stop" | "next" {
  switch (declineClass) {
    case "approved":
    case "declined-hard":
    case "stop-recurring":
      return "stop";
    case "declined-soft":
    case "technical":
    case "authentication-required":
      return "next";
  }
}

const CLASS_WORDS: Record<Exclude<DeclineClass, "approved">, string> = {
  "declined-soft": "declined",
  technical: "not processed",
  "authentication-required": "declined for want of strong customer authentication",
  "declined-hard": "declined for good",
  "stop-recurring": "declined with the cardholder's stop order",
};

/**
 * "routing stopped: …": why no further acquirer was tried, for the payment's details and page. Names
 * the acquirer, its code and class, the rule, and the processors left untried.
 */
export function routingStoppedReason({
  processor,
  responsecode,
  acquirerCode,
  declineClass,
  untried,
}: {
  processor: string;
  responsecode: string;
  acquirerCode?: string;
  declineClass: "declined-hard" | "stop-recurring";
  untried: readonly string[];
}): string {
  const code = acquirerCode && acquirerCode !== responsecode ? `${responsecode}, ${processor} ${acquirerCode}` : responsecode;
  const rule =
    declineClass === "stop-recurring"
      ? "the card schemes forbid re-attempts after a stop order"
      : "the card schemes forbid re-attempts of this decline";
  return `routing stopped: ${processor} ${CLASS_WORDS[declineClass]} (${declineClass}, ${code}); ${rule}, so ${untried.join(", ")} ${untried.length === 1 ? "was" : "were"} not tried`;
}
