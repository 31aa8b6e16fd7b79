// Worldline Direct's decline and error codes, each in one of the six decline classes of the routing
// by decline class, with the reference it comes from. Direct reports a rejection as `errors[].errorCode`,
// an 8-digit code of the platform (the Ogone lineage; "errors.errorCode 8-digit error code" in
// docs.direct "API troubleshooting"). For issuer answers the code embeds the ISO 8583 response:
// 30XX1001 is ISO code XX (30051001 "Authorization declined" = 05, 30511001 "Insufficient funds" =
// 51). The meanings are the platform's published list as Odoo's Ogone (Ingenico) module ships it
// ([OGONE-ERR] odoo/odoo@844d538 addons/payment_ogone/data/ogone.py, OGONE_ERROR_MAP) and Worldline's own plugin answers
// ([WL-MAG] plugin-magento-core Infrastructure/StubData). Where Worldline sends explicit re-attempt
// instructions (`cardPaymentMethodSpecificOutput.reattemptInstructions.indicator`, [SDK-JAVA]
// ReattemptInstructions), they win over the table: the acquirer has spoken for this very answer.

import type { DeclineClass } from "../../contract";

export interface WorldlineCodeMeaning {
  class: Exclude<DeclineClass, "approved">;
  /** The ISO 8583 response code the platform code carries, when it carries one. */
  iso?: string;
  meaning: string;
  source: string;
}

const OGONE = "[OGONE-ERR] odoo/odoo@844d538 addons/payment_ogone/data/ogone.py OGONE_ERROR_MAP";
const WL_MAG =
  "[WL-MAG] wl-online-payments-direct/plugin-magento-core Infrastructure/StubData/Service/Payment/GetPaymentDetailsServiceResponse.php";

const entry = (cls: WorldlineCodeMeaning["class"], meaning: string, iso?: string, source = OGONE): WorldlineCodeMeaning => ({
  class: cls,
  meaning,
  ...(iso ? { iso } : {}),
  source,
});

/**
 * Every code we class, by `errorCode`. Issuer codes follow the card schemes' re-attempt categories as the
 * routing reads them: lost, stolen, closed, invalid card number, expired, pick-up and "not permitted" never
 * get approved elsewhere (declined-hard); insufficient funds, generic declines, limits, suspected
 * fraud and "try later" may (declined-soft); a platform or acquirer that decided nothing is technical.
 */
export const WORLDLINE_ERROR_CODES: Readonly<Record<string, WorldlineCodeMeaning>> = {
  // Issuer answers, ISO code embedded (30XX1001).
  "30021001": entry("declined-soft", "Call acquirer support call number (refer to card issuer)", "02"),
  "30031001": entry("declined-hard", "Invalid merchant number", "03"),
  "30041001": entry("declined-hard", "Retain card (pick up)", "04"),
  "30051001": entry("declined-soft", "Authorization declined (do not honour)", "05"),
  "30071001": entry("declined-hard", "Retain card - special conditions", "07"),
  "30121001": entry("declined-hard", "Invalid transaction", "12"),
  "30131001": entry("declined-soft", "Invalid amount", "13"),
  "30141001": entry("declined-hard", "Invalid card number", "14"),
  "30151001": entry("declined-hard", "Unknown acquiring institution (no such issuer)", "15"),
  "30191001": entry("declined-soft", "Try again later", "19"),
  "30331001": entry("declined-hard", "Card expired", "33"),
  "30341001": entry("declined-soft", "Suspicion of fraud", "34"),
  "30411001": entry("declined-hard", "Lost card", "41"),
  "30431001": entry("declined-hard", "Stolen card, pick up", "43"),
  "30511001": entry("declined-soft", "Insufficient funds", "51"),
  "30521001": entry("declined-soft", "No authorization: contact the issuer of your card", "52"),
  "30541001": entry("declined-hard", "Card expired", "54"),
  "30551001": entry("declined-soft", "Invalid PIN", "55"),
  "30561001": entry("declined-hard", "Card not in authorizer's database", "56"),
  "30571001": entry("declined-hard", "Transaction not permitted on card", "57"),
  "30581001": entry("declined-soft", "Transaction not allowed on this terminal", "58"),
  "30591001": entry("declined-soft", "Suspicion of fraud", "59"),
  "30601001": entry("declined-soft", "The merchant must contact the acquirer", "60"),
  "30611001": entry("declined-soft", "Amount exceeds card ceiling", "61"),
  "30621001": entry("declined-soft", "Restricted card", "62"),
  "30631001": entry("declined-soft", "Security policy not respected", "63"),
  "30681001": entry("technical", "Tardy response (the issuer did not answer in time)", "68"),
  "30751001": entry("declined-soft", "PIN entered incorrectly too often", "75"),
  "30811001": entry("technical", "Message flow error", "81"),
  "30821001": entry("technical", "Authorization center unavailable", "82"),
  "30831001": entry("technical", "Authorization center unavailable", "83"),
  "30901001": entry("technical", "Temporary system shutdown", "90"),
  "30911001": entry("declined-soft", "Acquirer unavailable (issuer or switch inoperative)", "91"),
  "30921001": entry("declined-soft", "Invalid card type for acquirer", "92"),
  "30941001": entry("declined-soft", "Duplicate transaction", "94"),
  "30961001": entry("declined-soft", "Processing temporarily not possible (system malfunction)", "96"),
  // Platform and acquirer answers without an ISO code.
  "30001001": entry("declined-soft", "Payment refused by the acquirer"),
  "30001002": entry("declined-soft", "Duplicate request"),
  "30001015": entry("technical", "The merchant's acquirer is temporarily unavailable"),
  "30001057": entry("technical", "The merchant's acquirer is temporarily unavailable"),
  "30001058": entry("technical", "The merchant's acquirer is temporarily unavailable"),
  "30001090": entry("declined-soft", "CVC check required by front end and returned invalid by acquirer", "N7"),
  "30001101": entry("declined-soft", "IP country differs from card country (Worldline fraud screening)"),
  "30001120": entry("declined-soft", "IP address in merchant's black list (Worldline fraud screening)"),
  "30001130": entry("declined-soft", "BIN in merchant's black list (Worldline fraud screening)"),
  "30001140": entry("declined-soft", "Card in merchant's card blacklist (Worldline fraud screening)"),
  "30001180": entry("declined-soft", "Maximum scoring reached (Worldline fraud screening)"),
  "30001998": entry("technical", "A technical problem occurred, please try again"),
  "30001999": entry("technical", "The merchant's acquirer is temporarily unavailable"),
  "30002001": entry("declined-soft", "Payment refused by the financial institution"),
  "31041001": entry("declined-soft", "Inactive card"),
  "31061001": entry("declined-hard", "Invalid expiration date"),
  "31081001": entry("declined-soft", "Card refused"),
  "40001134": entry(
    "declined-soft",
    "Authentication failed (3-D Secure), please retry or cancel",
    undefined,
    `${WL_MAG} (id AUTHENTICATION_FAILURE); ${OGONE}`,
  ),
  "40001135": entry("technical", "Authentication temporarily unavailable"),
  "40001137": entry("technical", "The issuer's access control server is temporarily unavailable"),
  "50001054": entry("declined-hard", "Card number incorrect or incompatible"),
  "50001068": entry("declined-hard", "The card number or account number (PAN) is invalid"),
  "50001087": entry("authentication-required", "The transaction type requires authentication, please check with your bank", "1A"),
  "50001183": entry("declined-hard", "Expiration date must be in the future"),
  // "We received an unknown status for the transaction. We will contact your acquirer and update the
  // status of the transaction within one working day": nothing is decided yet.
  "20001001": entry("technical", "Unknown status from the acquirer; the platform updates it within one working day"),
  "20001005": entry("technical", "Unknown status from the acquirer; the platform updates it within one working day"),
  "20001105": entry("technical", "Unknown status from the acquirer; the platform updates it within one working day"),
};

/**
 * `reattemptInstructions.indicator` ([SDK-JAVA] ReattemptInstructions): "neverRetry: the current
 * payment authorization cannot be retried; dontStorePanCredentials: no retry and no subsequent
 * payment attempt or payment series using this PAN from credentials on file; retryLater: retry with
 * no change; updateBeforeRetry: retry requires data updates".
 */
export const REATTEMPT_INDICATOR_CLASSES: Readonly<Record<string, WorldlineCodeMeaning["class"]>> = {
  neverRetry: "declined-hard",
  dontStorePanCredentials: "stop-recurring",
  retryLater: "declined-soft",
  updateBeforeRetry: "declined-soft",
};

export interface ClassifiedDecline {
  class: WorldlineCodeMeaning["class"];
  /** Worldline's errorCode, verbatim ("" when the answer carried none). */
  code: string;
  /** ISO 8583 equivalent for our `responsecode`: the embedded one, else "05" (a plain decline). */
  iso: string;
  meaning: string;
}

/**
 * The class of a rejected payment: the re-attempt instruction when Worldline gave one, else the first
 * error code the table knows, else a declined-soft "no public meaning": a code nobody published a
 * meaning for may well be approved elsewhere, and says so.
 */
export function classifyWorldlineDecline(errorCodes: readonly string[], reattemptIndicator?: string): ClassifiedDecline {
  const known = errorCodes.find((code) => WORLDLINE_ERROR_CODES[code]);
  const meaning = known ? WORLDLINE_ERROR_CODES[known]! : undefined;
  const code = known ?? errorCodes[0] ?? "";
  const instructed = reattemptIndicator ? REATTEMPT_INDICATOR_CLASSES[reattemptIndicator] : undefined;
  const iso = meaning?.iso ?? (instructed === "stop-recurring" ? "R1" : "05");
  if (instructed) return { class: instructed, code, iso, meaning: `${meaning?.meaning ?? "declined"} (Worldline: ${reattemptIndicator})` };
  if (meaning) return { class: meaning.class, code, iso, meaning: meaning.meaning };
  return { class: "declined-soft", code, iso: "05", meaning: "declined; the code has no public meaning (declined-soft)" };
}
