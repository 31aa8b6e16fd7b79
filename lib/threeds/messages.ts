// EMV 3-D Secure messages as the gateway exchanges them with the directory server (3DS server API in
// the style of 3dsecure.io: /auth answers the ARes, /postauth the RReq after a challenge), and the
// base64url (no padding) CReq/CRes the browser carries.
import { z } from "zod";
import { currencyExponent, currencyNumericCode } from "../validation/currency";

/**
 * An http(s) address. The ACS puts notificationURL into a form it submits, and our challenge page
 * posts the CReq to acsURL: any other scheme (javascript:, data:) would run script (security item 5).
 */
export const httpUrl = z.url({ protocol: /^https?$/, normalize: true });

/** A string of exactly `count` digits: EMV 3DS's fixed-length numeric fields. */
const digits = (count: number) => z.string().regex(new RegExp(`^\\d{${count}}$`));

export const TRANS_STATUSES = ["Y", "A", "N", "U", "R", "I", "C", "D"] as const;
export const transStatus = z.enum(TRANS_STATUSES);
export type TransStatus = z.infer<typeof transStatus>;

export const areq = z.object({
  messageType: z.literal("AReq"),
  messageVersion: z.string(),
  threeDSServerTransID: z.string().uuid(),
  deviceChannel: z.literal("02"),
  messageCategory: z.enum(["01", "02"]),
  acctNumber: z.string().regex(/^\d{12,19}$/),
  /** YYMM */
  cardExpiryDate: digits(4),
  purchaseAmount: z.string().regex(/^\d{1,48}$/),
  /** ISO 4217 numeric. */
  purchaseCurrency: digits(3),
  purchaseExponent: z.string().regex(/^\d$/),
  notificationURL: httpUrl,
  /** 01 no preference, 02 no challenge requested, 03 challenge requested, 04 mandate (lib/validation/challenge-preference.ts). */
  threeDSRequestorChallengeInd: z.enum(["01", "02", "03", "04"]).optional(),
  /** "Required if available" for Visa and Mastercard (lib/threeds/cardholder-areq.ts): ASCII, 2-45. */
  cardholderName: z.string().min(2).max(45).optional(),
  email: z.string().max(254).optional(),
  // The merchant at the acquirer account that will authorize (lib/routing/accounts/three-ds-requestor.ts).
  acquirerBIN: z.string().max(11).optional(),
  acquirerMerchantID: z.string().max(35).optional(),
  mcc: digits(4).optional(),
  /** ISO 3166-1 numeric. */
  merchantCountryCode: digits(3).optional(),
  merchantName: z.string().max(40).optional(),
  // EMV 3DS 2.2 browser AReq (3dsecure.io _static/areq_220.html): required for channel BRW, or
  // required by Visa / Mastercard. docs/acquirers.md, "3-D Secure AReq fields", says where each comes from.
  /** YYYYMMDDHHMMSS, UTC. */
  purchaseDate: digits(14).optional(),
  /** 01: goods or service purchase. */
  transType: digits(2).optional(),
  /** Y: the 3DS Method completed, N: it did not (in time), U: the card range has no method URL. */
  threeDSCompInd: z.enum(["Y", "N", "U"]).optional(),
  threeDSRequestorURL: httpUrl.optional(),
  /** 01: payment transaction. */
  threeDSRequestorAuthenticationInd: digits(2).optional(),
  browserAcceptHeader: z.string().max(2048).optional(),
  browserUserAgent: z.string().max(2048).optional(),
  browserIP: z.string().max(45).optional(),
  browserLanguage: z.string().max(8).optional(),
  browserJavascriptEnabled: z.boolean().optional(),
  browserJavaEnabled: z.boolean().optional(),
  browserColorDepth: z.string().optional(),
  browserScreenHeight: z.string().optional(),
  browserScreenWidth: z.string().optional(),
  browserTZ: z.string().optional(),
});
export type AReq = z.infer<typeof areq>;

/** The /preauth answer (3dsecure.io preauth.rst): a CRD with the transaction id /auth must use. */
export const crd = z.object({
  messageType: z.literal("CRD"),
  threeDSServerTransID: z.string().uuid(),
  threeDSMethodURL: httpUrl.optional(),
  acsProtocolVersions: z.array(z.object({ version: z.string(), threeDSMethodURL: httpUrl.optional() })).optional(),
  acsStartProtocolVersion: z.string().optional(),
  acsEndProtocolVersion: z.string().optional(),
  dsProtocolVersions: z.array(z.string()).optional(),
});
export type Crd = z.infer<typeof crd>;

/** An Erro message (3dsecure.io erro_220): JSON even on a non-200 answer. */
export const erro = z.object({
  messageType: z.literal("Erro"),
  errorCode: z.string(),
  errorDescription: z.string().optional(),
  errorDetail: z.string().optional(),
});
export type Erro = z.infer<typeof erro>;

/** The ids a CReq and a CRes carry (between the browser and the ACS): the version, the 3DS Server's and the ACS's. */
const CHALLENGE_IDS = {
  messageVersion: z.string(),
  threeDSServerTransID: z.string(),
  acsTransID: z.string(),
};

/** The ids an ARes and an RReq carry: the challenge's and the directory server's. */
const AUTHENTICATION_IDS = { ...CHALLENGE_IDS, dsTransID: z.string() };

/** The result both carry beside their transStatus: why, and the cryptogram and ECI when authenticated. */
const AUTHENTICATION_RESULT = {
  transStatusReason: z.string().optional(),
  authenticationValue: z.string().optional(),
  eci: z.string().optional(),
};

export const ares = z.object({
  messageType: z.literal("ARes"),
  ...AUTHENTICATION_IDS,
  transStatus,
  ...AUTHENTICATION_RESULT,
  acsURL: httpUrl.optional(),
  acsChallengeMandated: z.enum(["Y", "N"]).optional(),
});
export type ARes = z.infer<typeof ares>;

export const rreq = z.object({
  messageType: z.literal("RReq"),
  ...AUTHENTICATION_IDS,
  transStatus: z.enum(["Y", "N", "U", "A", "R"]),
  ...AUTHENTICATION_RESULT,
  /** 01: the cardholder cancelled the challenge. */
  challengeCancel: z.string().optional(),
});
export type RReq = z.infer<typeof rreq>;

export const creq = z.object({
  messageType: z.literal("CReq"),
  ...CHALLENGE_IDS,
  challengeWindowSize: z.enum(["01", "02", "03", "04", "05"]).default("05"),
});
export type CReq = z.infer<typeof creq>;

export const cres = z.object({
  messageType: z.literal("CRes"),
  ...CHALLENGE_IDS,
  transStatus: z.enum(["Y", "N"]).optional(),
  challengeCompletionInd: z.enum(["Y", "N"]),
});
export type CRes = z.infer<typeof cres>;

/** base64url without `=` padding, as EMV 3DS requires for CReq and CRes. */
export function encodeBase64Url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url").replace(/=+$/, "");
}

export function decodeBase64Url<T>(schema: z.ZodType<T>, text: string): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * ISO 4217 numeric code and exponent for the AReq (purchaseCurrency, purchaseExponent), for every
 * currency the service takes (money review 4, N9): from the one currency table, so amounts and the
 * AReq always agree on the exponent.
 */
export function currencyForAReq(alpha: string): { code: string; exponent: number } | undefined {
  const code = alpha.toUpperCase();
  const numeric = currencyNumericCode(code);
  return numeric === undefined ? undefined : { code: numeric, exponent: currencyExponent(code) };
}
