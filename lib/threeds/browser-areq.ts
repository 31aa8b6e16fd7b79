// The browser part of the AReq (EMV 3DS 2.2, 3dsecure.io _static/areq_220.html) from what the
// cardholder's browser sent: the accept header, user agent and IP of its request, and the facts the
// payment frame read with JavaScript. Pure transformers; docs/acquirers.md lists each field's source.
import type { AReq, Crd } from "./messages";

/** What the cardholder's browser told us. Everything is optional: a value we do not have is not invented. */
export interface CardholderBrowser {
  acceptHeader?: string;
  userAgent?: string;
  /** The request's Accept-Language: the language when the frame's facts are missing. */
  acceptLanguage?: string;
  ip?: string;
  /** Read by the payment frame (lib/cardholder/frame/controller.ts); absent when no script ran. */
  info?: {
    language: string;
    colorDepth: number;
    screenHeight: number;
    screenWidth: number;
    /** new Date().getTimezoneOffset(): minutes, positive behind UTC, as browserTZ wants it. */
    timeZoneOffset: number;
    javaEnabled: boolean;
  };
}

/** The versions this service's AReq is written for, best first. */
const SPOKEN_VERSIONS = ["2.2.0", "2.1.0"] as const;

/** The highest version both we and the card's ACS speak (preauth.rst; the sandbox refuses a wrong one). */
export function chooseMessageVersion(cardRange: Crd): string | undefined {
  const acs = cardRange.acsProtocolVersions?.map((entry) => entry.version);
  const supported = (version: string) =>
    acs
      ? acs.includes(version)
      : Boolean(cardRange.acsStartProtocolVersion && cardRange.acsEndProtocolVersion) &&
        version >= cardRange.acsStartProtocolVersion! &&
        version <= cardRange.acsEndProtocolVersion!;
  return SPOKEN_VERSIONS.find(supported);
}

const COLOR_DEPTHS = [1, 4, 8, 15, 16, 24, 32, 48] as const;

/** browserColorDepth is one of 1, 4, 8, 15, 16, 24, 32, 48: "use the closest lower value" (3dsecure.io tables, 2020-2025). */
export function colorDepthForAReq(depth: number): string {
  const lower = COLOR_DEPTHS.filter((allowed) => allowed <= depth);
  return String(lower.length > 0 ? lower[lower.length - 1] : COLOR_DEPTHS[0]);
}

/** browserLanguage is 1-8 characters (BCP 47): a longer tag is cut to its language-region prefix. */
export function languageForAReq(language: string): string | undefined {
  const tag = language.trim();
  if (!tag) return undefined;
  if (tag.length <= 8) return tag;
  const [primary = "", ...rest] = tag.split("-");
  const region = rest.find((part) => /^([A-Za-z]{2}|\d{3})$/.test(part));
  const short = region ? `${primary}-${region}` : primary;
  return short.length <= 8 ? short : primary.slice(0, 8);
}

/** The AReq's purchaseDate: the payment's creation, UTC, YYYYMMDDHHMMSS. */
export function purchaseDate(at: Date): string {
  return at.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

type BrowserFields = Pick<
  AReq,
  | "browserAcceptHeader"
  | "browserUserAgent"
  | "browserIP"
  | "browserLanguage"
  | "browserJavascriptEnabled"
  | "browserJavaEnabled"
  | "browserColorDepth"
  | "browserScreenHeight"
  | "browserScreenWidth"
  | "browserTZ"
>;

/**
 * The browser fields of an AReq of `messageVersion`. With the frame's facts, JavaScript ran and colour
 * depth, screen size, time zone and Java go along (required when browserJavascriptEnabled is true);
 * 2.1.0 has no browserJavascriptEnabled.
 */
export function browserAReqFields(browser: CardholderBrowser, messageVersion: string): BrowserFields {
  const info = browser.info;
  const fields: BrowserFields = {
    browserAcceptHeader: browser.acceptHeader?.slice(0, 2048),
    browserUserAgent: browser.userAgent?.slice(0, 2048),
    browserIP: browser.ip && browser.ip.length <= 45 ? browser.ip : undefined,
    browserLanguage: languageForAReq(info?.language ?? browser.acceptLanguage?.split(/[,;]/)[0] ?? ""),
  };
  if (messageVersion !== "2.1.0") fields.browserJavascriptEnabled = Boolean(info);
  if (info) {
    fields.browserJavaEnabled = info.javaEnabled;
    fields.browserColorDepth = colorDepthForAReq(info.colorDepth);
    fields.browserScreenHeight = String(Math.max(0, Math.min(999_999, Math.round(info.screenHeight))));
    fields.browserScreenWidth = String(Math.max(0, Math.min(999_999, Math.round(info.screenWidth))));
    fields.browserTZ = String(Math.max(-9999, Math.min(9999, Math.round(info.timeZoneOffset))));
  }
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as BrowserFields;
}
