// REPLACE: every response code the acquirer's reference documents, each in one of the routing's
// decline classes with its meaning and source (docs/acquirers.md, "Decline classes"; decision 0190).
// A code left out is declined-soft: the next acquirer is tried.
import type { DeclineCodeMeaning } from "../contract";

export const XACQUIRER_DECLINE_CODES: readonly DeclineCodeMeaning[] = [
  { code: "00", class: "approved", meaning: "Approved", source: "REPLACE: the reference's code table" },
  { code: "05", class: "declined-soft", meaning: "Do not honour", source: "REPLACE: the reference's code table" },
  { code: "54", class: "declined-hard", meaning: "Expired card", source: "REPLACE: the reference's code table" },
];
