// A strict 3DS Server sandbox, written from the 3dsecure.io API documentation (github
// clearhaus/3DSv2-api-documentation: preauth.rst, 3dsmethod.rst, auth.rst, challenge_flow.rst,
// postauth.rst, sandbox.rst and the EMV 3DS 2.2.0 tables _static/areq_220.html, erro_220.html).
// It never imports our 3-D Secure client (lib/threeds) or a connector: what it accepts and answers
// traces to the reference alone, so a request our client makes wrongly is refused here as the real
// 3DS Server would refuse it.
//
// What it does, as the reference documents:
// - POST /preauth {acctNumber, ds?}: a CRD with a fresh threeDSServerTransID (valid 80 s), the
//   protocol versions and, for cards with one, a threeDSMethodURL. 9000100111111111 is "not enrolled"
//   (Erro 305).
// - POST /method (the threeDSMethodURL): the hidden-iframe page; it posts threeDSMethodData back to
//   the requestor's threeDSMethodNotificationURL, or never does for the "method timeout" cards.
// - POST /auth (the AReq): refused with an Erro unless the threeDSServerTransID came from /preauth
//   for the same acctNumber and every field the 2.2.0 table marks Required (or Conditional and its
//   condition holds) for a browser payment is there in its format. The ARes follows the test card.
// - POST /acs/challenge (the ACS URL): the challenge page for transStatus C; its CRes goes to the
//   AReq's notificationURL and the RReq into the /postauth cache.
// - POST /postauth {threeDSServerTransID}: the cached RReq (300 s after it arrived); before the
//   challenge ends Erro 305 "No RReq has been received" (decoupled_authentication.rst); after 300 s or
//   for an id it does not know Erro 203 "Unknown threeDSServerTransID". There is no HTTP 409.
//
// Test cards (sandbox.rst, "Browser Tests"): the last four digits of the PAN decide.
//   1st: protocol versions  0 = 2.1.0, 2.2.0, 2.3.1  1 = 2.1.0  2 = 2.2.0  3 = 2.3.1
//   2nd: 3DS Method         0 = has a method URL  1 = none  2 = method URL that never answers
//   3rd: ARes               0 Y, 1 N, 2 A, 3 R, 4 I (2.2+), 5 U, 6 DS time-out (Erro 405), 7 C
//   4th (only when C):      0 challenge passes by itself, 1 fails by itself, 2 manual (code 1234)
// Any other last four digits: Erro, as the reference says.
//
// threeDSRequestorChallengeInd (areq_220: "Indicates whether a challenge is requested"; 01-04 in
// 2.1.0, 01-09 in 2.2.0) is format-checked per version. What an ACS does with it the reference does
// not say; SANDBOX-ONLY (marked so in docs/acquirers.md): 04 "Challenge requested (Mandate)" turns a
// frictionless Y card into a challenge (the manual one, code 1234) with acsChallengeMandated N (the
// requestor, not the ACS, mandated it); every other value leaves the card's outcome alone, so a
// challenge card still challenges under 02 "No challenge requested", with acsChallengeMandated Y.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { z } from "zod";

export type FetchHandler = (request: Request) => Promise<Response>;

/** The code the manual challenge page accepts. */
export const THREEDS_SERVER_CHALLENGE_CODE = "1234";
/** preauth.rst: "The threeDSServerTransID expires after 80 seconds." */
export const PREAUTH_TRANS_ID_TTL_MS = 80_000;
/** postauth.rst: "The authentication cache expires 300 seconds after the 3-D Secure Server receives it." */
export const POSTAUTH_CACHE_TTL_MS = 300_000;
/** challenge_flow.rst: "You have 30 seconds from receiving the authentication response to initiate the challenge." */
export const CHALLENGE_START_LIMIT_MS = 30_000;
/** preauth.rst's not-enrolled test PAN. */
export const NOT_ENROLLED_PAN = "9000100111111111";

const VERSIONS_BY_DIGIT: Record<string, string[]> = { "0": ["2.1.0", "2.2.0", "2.3.1"], "1": ["2.1.0"], "2": ["2.2.0"], "3": ["2.3.1"] };
const ARES_BY_DIGIT: Record<string, "Y" | "N" | "A" | "R" | "I" | "U" | "timeout" | "C"> = {
  "0": "Y",
  "1": "N",
  "2": "A",
  "3": "R",
  "4": "I",
  "5": "U",
  "6": "timeout",
  "7": "C",
};

interface TestCard {
  versions: string[];
  method: "present" | "absent" | "timeout";
  outcome: (typeof ARES_BY_DIGIT)[string];
  challenge?: "pass" | "fail" | "manual";
}

/** What the last four digits of a PAN ask the sandbox to do (sandbox.rst), or undefined for no test case. */
export function threeDsServerTestCard(pan: string): TestCard | undefined {
  const [first = "", second = "", third = "", fourth = ""] = pan.slice(-4);
  const versions = VERSIONS_BY_DIGIT[first];
  const method = ({ "0": "present", "1": "absent", "2": "timeout" } as const)[second as "0" | "1" | "2"];
  const outcome = ARES_BY_DIGIT[third];
  if (!versions || !method || !outcome) return undefined;
  if (outcome !== "C") return fourth === "3" ? { versions, method, outcome } : undefined;
  const challenge = ({ "0": "pass", "1": "fail", "2": "manual" } as const)[fourth as "0" | "1" | "2"];
  return challenge ? { versions, method, outcome, challenge } : undefined;
}

// ---- the 2.2.0 browser AReq, from _static/areq_220.html ------------------------------------------

const numeric = (pattern: RegExp) => z.string().regex(pattern);
const maxText = (length: number) => z.string().min(1).max(length);
/** specification_common.rst: a 3-digit ISO 3166-1 numeric code; 901-999 are invalid. */
const country = numeric(/^\d{3}$/).refine((code) => Number(code) < 901);

/**
 * Every AReq field the 2.2.0 table marks Required for channel BRW, or Conditional with a condition
 * that holds for a payment (messageCategory 01): acquirerBIN, acquirerMerchantID, mcc,
 * merchantCountryCode, merchantName, purchase*. The browser facts JavaScript reads are Conditional on
 * browserJavascriptEnabled (checked below). cardExpiryDate and transType are Optional in EMV but
 * required by Visa and Mastercard (scheme rules in the same table) and always known to a requestor, so
 * the sandbox requires them too; the cardholder's name, e-mail and address are "required if
 * available" and only format-checked.
 */
const browserAReq = z.object({
  messageType: z.literal("AReq"),
  messageVersion: z.enum(["2.1.0", "2.2.0", "2.3.1"]),
  threeDSServerTransID: z.uuid(),
  deviceChannel: z.literal("02"),
  messageCategory: z.literal("01"),
  acctNumber: numeric(/^[0-9]{13,19}$/),
  cardExpiryDate: numeric(/^\d{2}(0[1-9]|1[0-2])$/),
  acquirerBIN: maxText(11),
  acquirerMerchantID: maxText(35),
  mcc: numeric(/^\d{4}$/),
  merchantCountryCode: numeric(/^\d{3}$/),
  merchantName: maxText(40),
  purchaseAmount: numeric(/^\d{1,48}$/),
  purchaseCurrency: numeric(/^\d{3}$/),
  purchaseExponent: numeric(/^\d$/),
  /** YYYYMMDDHHMMSS, UTC. */
  purchaseDate: numeric(/^\d{14}$/),
  transType: z.enum(["01", "03", "10", "11", "28"]),
  notificationURL: z.url({ protocol: /^https?$/ }).max(256),
  threeDSCompInd: z.enum(["Y", "N", "U"]),
  threeDSRequestorAuthenticationInd: numeric(/^(0[1-7]|[89][0-9])$/),
  /** 2.2.0's values; 2.1.0 knows only 01-04 (areq_210.html), checked in auth(). */
  threeDSRequestorChallengeInd: numeric(/^(0[1-9]|[89][0-9])$/).optional(),
  threeDSRequestorURL: z.url({ protocol: /^https?$/ }).max(2048),
  browserAcceptHeader: maxText(2048),
  browserUserAgent: maxText(2048),
  browserLanguage: maxText(8),
  browserJavascriptEnabled: z.boolean().optional(),
  browserJavaEnabled: z.boolean().optional(),
  browserColorDepth: z.enum(["1", "4", "8", "15", "16", "24", "32", "48"]).optional(),
  browserScreenHeight: numeric(/^[0-9]{1,6}$/).optional(),
  browserScreenWidth: numeric(/^[0-9]{1,6}$/).optional(),
  browserTZ: numeric(/^[+-]?[0-9]{1,4}$/).optional(),
  browserIP: z.string().max(45).optional(),
  /** Min 2, max 45; "only ASCII characters are allowed" in 2.1.0 and 2.2.0 (auth.rst, server-information.rst). */
  cardholderName: z
    .string()
    .min(2)
    .max(45)
    .regex(/^[\x20-\x7e]+$/)
    .optional(),
  /** "Format: email; Max length: 254" (specification_common.rst: an e-mail address). */
  email: z.email().max(254).optional(),
  billAddrCity: z.string().max(50).optional(),
  billAddrCountry: country.optional(),
  billAddrLine1: z.string().max(50).optional(),
  billAddrLine2: z.string().max(50).optional(),
  billAddrLine3: z.string().max(50).optional(),
  billAddrPostCode: z.string().max(16).optional(),
  billAddrState: z.string().max(3).optional(),
  shipAddrCity: z.string().max(50).optional(),
  shipAddrCountry: country.optional(),
  shipAddrLine1: z.string().max(50).optional(),
  shipAddrLine2: z.string().max(50).optional(),
  shipAddrLine3: z.string().max(50).optional(),
  shipAddrPostCode: z.string().max(16).optional(),
  shipAddrState: z.string().max(3).optional(),
});
type BrowserAReq = z.infer<typeof browserAReq>;

/** Required only when browserJavascriptEnabled is true (areq_220: "Required if browserJavascriptEnabled is true"). */
const JAVASCRIPT_FIELDS = ["browserColorDepth", "browserJavaEnabled", "browserScreenHeight", "browserScreenWidth", "browserTZ"] as const;

const creqSchema = z.object({
  messageType: z.literal("CReq"),
  messageVersion: z.string(),
  threeDSServerTransID: z.string(),
  acsTransID: z.string(),
  challengeWindowSize: z.enum(["01", "02", "03", "04", "05"]),
});

const methodDataSchema = z.object({
  threeDSServerTransID: z.string(),
  threeDSMethodNotificationURL: z.url({ protocol: /^https?$/ }),
});

// ---- helpers ------------------------------------------------------------------------------------

/** Base64-URL, with or without `=` padding (3dsmethod.rst and challenge_flow.rst: both must be read). */
function decodeBase64UrlJson(text: string): unknown {
  try {
    return JSON.parse(Buffer.from(text.replace(/=+$/, ""), "base64url").toString("utf8")) as unknown;
  } catch {
    return undefined;
  }
}

function encodeBase64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

interface ErroFields {
  errorCode: string;
  errorDescription: string;
  errorDetail: string;
  errorMessageType?: string;
  messageVersion?: string;
  threeDSServerTransID?: string;
}

/** An Erro message (erro_220.html); auth.rst: "JSON is returned even if the HTTP status code is not 200". */
/** `application/json; charset=utf-8`, media type and parameter case-insensitive (RFC 9110 8.3.1), the value quoted or not. */
function isJsonUtf8(contentType: string | null): boolean {
  const [mediaType, ...parameters] = (contentType ?? "").split(";").map((part) => part.trim().toLowerCase());
  if (mediaType !== "application/json") return false;
  return parameters.some((parameter) => /^charset\s*=\s*"?utf-8"?$/.test(parameter));
}

function erro(fields: ErroFields, status = 400): Response {
  return Response.json(
    {
      messageType: "Erro",
      messageVersion: fields.messageVersion ?? "2.2.0",
      errorCode: fields.errorCode,
      errorComponent: "S",
      errorDescription: fields.errorDescription,
      errorDetail: fields.errorDetail,
      ...(fields.errorMessageType ? { errorMessageType: fields.errorMessageType } : {}),
      ...(fields.threeDSServerTransID ? { threeDSServerTransID: fields.threeDSServerTransID } : {}),
    },
    { status },
  );
}

/** A page of the sandbox ACS or 3DS Method: one inline script at most, allowed by a per-response nonce. */
function page(
  body: (nonce: string) => string,
  { status = 200, formAction = "'self'" }: { status?: number; formAction?: string } = {},
): Response {
  const nonce = randomBytes(16).toString("base64");
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>3-D Secure</title></head><body>${body(nonce)}</body></html>`,
    {
      status,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors *; base-uri 'none'`,
        "x-content-type-options": "nosniff",
      },
    },
  );
}

function autoPost(action: string, fields: Record<string, string>, text: string): Response {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return page(
    (
      nonce,
    ) => `<p>${escapeHtml(text)}</p><form id="f" method="post" action="${escapeHtml(action)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form>
<script nonce="${nonce}">document.getElementById("f").submit();</script>`,
    { formAction: new URL(action).origin },
  );
}

// ---- the sandbox ----------------------------------------------------------------------------------

interface Preauth {
  threeDSServerTransID: string;
  acctNumber: string;
  card: TestCard;
  createdAt: number;
  methodInvoked: boolean;
  used: boolean;
}

interface Authentication {
  threeDSServerTransID: string;
  acsTransID: string;
  dsTransID: string;
  messageVersion: string;
  scheme: "visa" | "mastercard" | "other";
  card: TestCard;
  last4: string;
  notificationURL: string;
  aresAt: number;
  codeAttempts: number;
  finished?: boolean;
}

interface CachedRReq {
  rreq: Record<string, unknown>;
  at: number;
}

export interface ThreeDsServerSandboxOptions {
  /** Public origin as the cardholder's browser reaches the sandbox; default: the request's own origin. */
  publicUrl?: string;
  /** Default: random for this process (the reference's keys are per merchant; ours are never in the source). */
  apiKey?: string;
  /** A clock for tests of the 80 s and 300 s limits. */
  now?: () => number;
  /**
   * Sees each AReq this sandbox accepted, without acctNumber (a test's window on what the 3DS Server
   * received, e.g. threeDSCompInd; the real 3DS Server shows it in its portal, not to the requestor).
   */
  onAReq?: (areq: Omit<BrowserAReq, "acctNumber">) => void;
}

export interface ThreeDsServerSandbox {
  handler: FetchHandler;
  apiKey: string;
}

function schemeOf(pan: string): Authentication["scheme"] {
  if (pan.startsWith("4")) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(pan)) return "mastercard";
  return "other";
}

export function createThreeDsServerSandbox(options: ThreeDsServerSandboxOptions = {}): ThreeDsServerSandbox {
  const apiKey = options.apiKey ?? randomBytes(32).toString("base64url");
  const now = options.now ?? Date.now;
  const avKey = randomBytes(32);
  const preauths = new Map<string, Preauth>();
  const authentications = new Map<string, Authentication>();
  const byAcsTransID = new Map<string, Authentication>();
  const rreqCache = new Map<string, CachedRReq>();

  const authenticationValue = (dsTransID: string) =>
    createHmac("sha256", avKey).update(dsTransID).digest().subarray(0, 20).toString("base64");
  const eciFor = (scheme: Authentication["scheme"], status: "Y" | "A") =>
    scheme === "mastercard" ? (status === "Y" ? "02" : "01") : status === "Y" ? "05" : "06";

  function preauth(json: unknown, origin: string): Response {
    const parsed = z.object({ acctNumber: numeric(/^[0-9]{13,19}$/), ds: z.string().optional() }).safeParse(json);
    if (!parsed.success)
      return erro({
        errorCode: "203",
        errorDescription: "Format of one or more Data Elements is Invalid according to the Specification",
        errorDetail: "acctNumber",
      });
    const pan = parsed.data.acctNumber;
    const card = threeDsServerTestCard(pan);
    if (pan === NOT_ENROLLED_PAN || !card)
      return erro({
        errorCode: "305",
        errorDescription: "Unknown BIN",
        errorDetail: `No CRD found, card with BIN ${"*".repeat(6)} is not enrolled with any known DS`,
      });
    const threeDSServerTransID = randomUUID();
    preauths.set(threeDSServerTransID, {
      threeDSServerTransID,
      acctNumber: pan,
      card,
      createdAt: now(),
      methodInvoked: false,
      used: false,
    });
    const methodURL = card.method === "absent" ? undefined : `${origin}/method`;
    const versions = card.versions;
    const scheme = schemeOf(pan);
    return Response.json({
      messageType: "CRD",
      threeDSServerTransID,
      dsProtocolVersions: ["2.1.0", "2.2.0", "2.3.1"],
      dsStartProtocolVersion: "2.1.0",
      dsEndProtocolVersion: "2.3.1",
      acsProtocolVersions: versions.map((version) => ({
        version,
        acsInfoInd: ["01", "02"],
        ...(methodURL ? { threeDSMethodURL: methodURL } : {}),
      })),
      acsStartProtocolVersion: versions[0],
      acsEndProtocolVersion: versions[versions.length - 1],
      acsInfoInd: ["01", "02"],
      threeDSServerProtocolVersions: ["2.1.0", "2.2.0", "2.3.1"],
      ...(methodURL ? { threeDSMethodURL: methodURL } : {}),
      scheme: scheme === "other" ? "standin" : scheme,
    });
  }

  function method(form: URLSearchParams): Response {
    const data = methodDataSchema.safeParse(decodeBase64UrlJson(form.get("threeDSMethodData") ?? ""));
    const entry = data.success ? preauths.get(data.data.threeDSServerTransID) : undefined;
    if (!data.success || !entry) return page(() => "<p>Invalid threeDSMethodData.</p>", { status: 400 });
    entry.methodInvoked = true;
    // The "method time-out" cards' ACS never answers: the requestor must give up after 10 s (threeDSCompInd N).
    if (entry.card.method === "timeout") return page(() => "<p>Collecting device data…</p>");
    return autoPost(
      data.data.threeDSMethodNotificationURL,
      { threeDSMethodData: encodeBase64UrlJson({ threeDSServerTransID: entry.threeDSServerTransID }) },
      "Device data collected.",
    );
  }

  function auth(json: unknown, origin: string): Response {
    const object = typeof json === "object" && json !== null ? (json as Record<string, unknown>) : {};
    const transId = typeof object.threeDSServerTransID === "string" ? object.threeDSServerTransID : undefined;
    const version = typeof object.messageVersion === "string" ? object.messageVersion : "2.2.0";
    const context = { errorMessageType: "AReq", messageVersion: version, threeDSServerTransID: transId };
    // Missing required elements first (201), then their formats (203), as erro_220 distinguishes them.
    // 2.1.0 has no browserJavascriptEnabled and requires the JavaScript facts plainly (_static/areq_210.html).
    const v210 = version === "2.1.0";
    const missing = Object.entries(browserAReq.shape as Record<string, z.ZodType>)
      .filter(([key, schema]) => object[key] === undefined && !schema.safeParse(undefined).success)
      .map(([key]) => key);
    if (!v210 && object.browserJavascriptEnabled === undefined) missing.push("browserJavascriptEnabled");
    if (v210 || object.browserJavascriptEnabled === true) missing.push(...JAVASCRIPT_FIELDS.filter((key) => object[key] === undefined));
    // areq_220: shipAddrCountry "Required if shipAddrState is not empty".
    if (object.shipAddrState !== undefined && object.shipAddrCountry === undefined) missing.push("shipAddrCountry");
    if (missing.length > 0)
      return erro({ ...context, errorCode: "201", errorDescription: "Required Data Element Missing", errorDetail: missing.join(",") });
    const parsed = browserAReq.safeParse(json);
    const malformed = parsed.success ? [] : [...new Set(parsed.error.issues.map((issue) => issue.path.join(".")))];
    // areq_210.html: threeDSRequestorChallengeInd ^(0[1-4]|[89][0-9])$ (05-09 came with 2.2.0).
    if (
      v210 &&
      typeof object.threeDSRequestorChallengeInd === "string" &&
      !/^(0[1-4]|[89][0-9])$/.test(object.threeDSRequestorChallengeInd)
    )
      malformed.push("threeDSRequestorChallengeInd");
    if (!parsed.success || malformed.length > 0)
      return erro({
        ...context,
        errorCode: "203",
        errorDescription: "Format of one or more Data Elements is Invalid according to the Specification",
        errorDetail: [...new Set(malformed)].join(","),
      });
    const message: BrowserAReq = parsed.data;
    const entry = preauths.get(message.threeDSServerTransID);
    // preauth.rst: a browser /auth must use the threeDSServerTransID /preauth gave, within 80 s, with the same card.
    if (!entry || entry.used || now() - entry.createdAt > PREAUTH_TRANS_ID_TTL_MS || entry.acctNumber !== message.acctNumber)
      return erro({
        ...context,
        errorCode: "203",
        errorDescription: "Unknown threeDSServerTransID",
        errorDetail: "Unknown threeDSServerTransID",
      });
    // sandbox.rst: "Sending a wrong messageVersion will result in an error."
    if (!entry.card.versions.includes(message.messageVersion))
      return erro({
        ...context,
        errorCode: "102",
        errorDescription: "Message Version Number Not Supported",
        errorDetail: entry.card.versions.join(","),
      });
    // threeDSCompInd U means "the 3DS Method URL was not present" (areq_220); Y means it ran.
    const compIndWrong =
      (entry.card.method === "absent" && message.threeDSCompInd !== "U") ||
      (entry.card.method !== "absent" && message.threeDSCompInd === "U") ||
      (message.threeDSCompInd === "Y" && (!entry.methodInvoked || entry.card.method === "timeout"));
    if (compIndWrong)
      return erro({
        ...context,
        errorCode: "203",
        errorDescription: "Format of one or more Data Elements is Invalid according to the Specification",
        errorDetail: "threeDSCompInd",
      });
    entry.used = true;
    const { acctNumber: _pan, ...withoutPan } = message;
    options.onAReq?.(withoutPan);
    // SANDBOX-ONLY (the reference is silent on what an ACS does with the indicator): a requestor's
    // mandate (04) makes a frictionless card's ACS challenge, manually; acsChallengeMandated stays N.
    const requestorMandate = message.threeDSRequestorChallengeInd === "04" && entry.card.outcome === "Y";
    const card: TestCard = requestorMandate ? { ...entry.card, outcome: "C", challenge: "manual" } : entry.card;
    if (card.outcome === "timeout")
      return erro(
        { ...context, errorCode: "405", errorDescription: "Unable to contact Directory Server", errorDetail: "Connection timeout" },
        504,
      );
    if (card.outcome === "I" && message.messageVersion === "2.1.0")
      return erro({
        ...context,
        errorCode: "305",
        errorDescription: "Transaction data not valid",
        errorDetail: "transStatus I requires 2.2.0 or later",
      });
    const authentication: Authentication = {
      threeDSServerTransID: message.threeDSServerTransID,
      acsTransID: randomUUID(),
      dsTransID: randomUUID(),
      messageVersion: message.messageVersion,
      scheme: schemeOf(message.acctNumber),
      card,
      last4: message.acctNumber.slice(-4),
      notificationURL: message.notificationURL,
      aresAt: now(),
      codeAttempts: 0,
    };
    authentications.set(authentication.threeDSServerTransID, authentication);
    byAcsTransID.set(authentication.acsTransID, authentication);
    const status = card.outcome;
    const ids = {
      messageType: "ARes",
      messageVersion: message.messageVersion,
      threeDSServerTransID: authentication.threeDSServerTransID,
      acsTransID: authentication.acsTransID,
      dsTransID: authentication.dsTransID,
      transStatus: status,
    };
    if (status === "C")
      return Response.json({
        ...ids,
        acsURL: `${origin}/acs/challenge`,
        acsChallengeMandated: requestorMandate ? "N" : "Y",
        authenticationType: "02",
      });
    if (status === "Y" || status === "A")
      return Response.json({
        ...ids,
        eci: eciFor(authentication.scheme, status),
        authenticationValue: authenticationValue(authentication.dsTransID),
      });
    // N, R, U carry transStatusReason (01 authentication failed, 11 suspected fraud, 08 no card record); I does not.
    if (status === "I") return Response.json(ids);
    return Response.json({ ...ids, transStatusReason: status === "N" ? "01" : status === "R" ? "11" : "08" });
  }

  function finish(authentication: Authentication, outcome: "Y" | "N" | "cancel"): void {
    authentication.finished = true;
    const rreq: Record<string, unknown> = {
      messageType: "RReq",
      messageVersion: authentication.messageVersion,
      messageCategory: "01",
      threeDSServerTransID: authentication.threeDSServerTransID,
      acsTransID: authentication.acsTransID,
      dsTransID: authentication.dsTransID,
      transStatus: outcome === "Y" ? "Y" : "N",
      interactionCounter: String(Math.max(1, authentication.codeAttempts)).padStart(2, "0"),
      ...(outcome === "Y"
        ? {
            eci: eciFor(authentication.scheme, "Y"),
            authenticationValue: authenticationValue(authentication.dsTransID),
            authenticationType: "02",
          }
        : { transStatusReason: outcome === "cancel" ? "10" : "01" }),
      ...(outcome === "cancel" ? { challengeCancel: "01" } : {}),
    };
    rreqCache.set(authentication.threeDSServerTransID, { rreq, at: now() });
  }

  function cres(authentication: Authentication, sessionData: string): Response {
    const cached = rreqCache.get(authentication.threeDSServerTransID);
    const message = {
      messageType: "CRes",
      messageVersion: authentication.messageVersion,
      threeDSServerTransID: authentication.threeDSServerTransID,
      acsTransID: authentication.acsTransID,
      challengeCompletionInd: "Y",
      transStatus: cached?.rreq.transStatus === "Y" ? "Y" : "N",
    };
    return autoPost(
      authentication.notificationURL,
      { cres: encodeBase64UrlJson(message).replace(/=+$/, ""), ...(sessionData ? { threeDSSessionData: sessionData } : {}) },
      "Returning to the merchant…",
    );
  }

  function challengePage(authentication: Authentication, sessionData: string, error?: string): Response {
    const hidden = `<input type="hidden" name="acsTransID" value="${escapeHtml(authentication.acsTransID)}"><input type="hidden" name="threeDSSessionData" value="${escapeHtml(sessionData)}">`;
    return page(
      () => `<h1>Confirm your payment</h1><p>Sandbox bank: enter the code <strong>${THREEDS_SERVER_CHALLENGE_CODE}</strong>.</p><p>Card •••• ${escapeHtml(authentication.last4)}</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="challenge/submit">${hidden}<label>Code <input name="code" inputmode="numeric" autocomplete="one-time-code"></label>
<button type="submit" name="action" value="complete">Complete</button><button type="submit" name="action" value="fail">Fail authentication</button><button type="submit" name="action" value="cancel">Cancel</button></form>`,
    );
  }

  function challenge(form: URLSearchParams): Response {
    const message = creqSchema.safeParse(decodeBase64UrlJson(form.get("creq") ?? ""));
    const authentication = message.success ? byAcsTransID.get(message.data.acsTransID) : undefined;
    if (!message.success || !authentication || authentication.threeDSServerTransID !== message.data.threeDSServerTransID)
      return page(() => "<h1>Authentication not possible</h1><p>The challenge request is not valid.</p>", { status: 400 });
    const sessionData = form.get("threeDSSessionData") ?? "";
    if (authentication.finished) return cres(authentication, sessionData);
    if (now() - authentication.aresAt > CHALLENGE_START_LIMIT_MS)
      return page(() => "<h1>Authentication not possible</h1><p>The challenge was started too late.</p>", { status: 400 });
    if (authentication.card.challenge === "pass" || authentication.card.challenge === "fail") {
      finish(authentication, authentication.card.challenge === "pass" ? "Y" : "N");
      return cres(authentication, sessionData);
    }
    return challengePage(authentication, sessionData);
  }

  function submit(form: URLSearchParams): Response {
    const authentication = byAcsTransID.get(form.get("acsTransID") ?? "");
    if (!authentication) return page(() => "<h1>Authentication not possible</h1><p>Unknown transaction.</p>", { status: 400 });
    const sessionData = form.get("threeDSSessionData") ?? "";
    if (authentication.finished) return cres(authentication, sessionData);
    const action = form.get("action");
    if (action === "complete") {
      authentication.codeAttempts += 1;
      if (form.get("code")?.trim() === THREEDS_SERVER_CHALLENGE_CODE) finish(authentication, "Y");
      else if (authentication.codeAttempts < 3) return challengePage(authentication, sessionData, "Wrong code, try again.");
      else finish(authentication, "N");
    } else finish(authentication, action === "cancel" ? "cancel" : "N");
    return cres(authentication, sessionData);
  }

  function postauth(json: unknown): Response {
    const transId =
      typeof json === "object" && json !== null && typeof (json as Record<string, unknown>).threeDSServerTransID === "string"
        ? ((json as Record<string, unknown>).threeDSServerTransID as string)
        : undefined;
    const cached = transId ? rreqCache.get(transId) : undefined;
    const authentication = transId ? authentications.get(transId) : undefined;
    // decoupled_authentication.rst: before the RReq arrives the answer is Erro 305 "No RReq has been received".
    if (!cached && authentication && authentication.card.outcome === "C")
      return erro({
        errorCode: "305",
        errorDescription: "No RReq has been received",
        errorDetail: "No response from directory server yet",
        threeDSServerTransID: transId,
      });
    // postauth.rst: after 300 s (and for an id it does not know) the answer is Erro 203 "Unknown threeDSServerTransID".
    if (!cached || now() - cached.at > POSTAUTH_CACHE_TTL_MS) {
      if (transId) rreqCache.delete(transId);
      return erro({
        errorCode: "203",
        errorDescription: "Unknown threeDSServerTransID",
        errorDetail: "Unknown threeDSServerTransID",
        threeDSServerTransID: transId,
      });
    }
    return Response.json(cached.rreq);
  }

  const handler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    const origin = options.publicUrl?.replace(/\/+$/, "") ?? url.origin;
    const path = url.pathname;
    if (request.method !== "POST") return new Response("Not Found", { status: 404 });
    if (path === "/method") return method(new URLSearchParams(await request.text()));
    if (path === "/acs/challenge") return challenge(new URLSearchParams(await request.text()));
    if (path === "/acs/challenge/submit") return submit(new URLSearchParams(await request.text()));
    if (path !== "/preauth" && path !== "/auth" && path !== "/postauth") return new Response("Not Found", { status: 404 });
    // usage.rst: the key goes in the APIKey header (any case); a wrong one is a plain-text 401.
    if (!sameKey(request.headers.get("apikey") ?? "", apiKey)) return new Response("Unauthorized", { status: 401 });
    // server-information.rst: "For all requests, the content type header must be Content-Type:
    // application/json; charset=utf-8". How the real server answers one without it is not
    // documented: this sandbox refuses it (HTTP 415 with an Erro 101, its own reading).
    if (!isJsonUtf8(request.headers.get("content-type"))) {
      return erro(
        {
          errorCode: "101",
          errorDescription: "Message Received Invalid",
          errorDetail: "Content-Type must be application/json; charset=utf-8",
        },
        415,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(await request.text()) as unknown;
    } catch {
      return erro({ errorCode: "101", errorDescription: "Message Received Invalid", errorDetail: "body is not JSON" });
    }
    if (path === "/preauth") return preauth(json, origin);
    if (path === "/auth") return auth(json, origin);
    return postauth(json);
  };

  return { handler, apiKey };
}
