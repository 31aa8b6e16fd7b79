// What the merchant API answers (spec 2.1, 4.1 to 4.9, 7). The route handlers build these bodies;
// the schemas are the contract the OpenAPI document (lib/openapi) publishes and the integration
// tests check every answer against.
import { z } from "zod";
import { API_ERROR_STATUS, type ApiErrorCode } from "../errors";
import { ACQUIRER_NAMES } from "../acquirers/names";

const hostedFieldUrl = (what: string) => z.url().describe(`Address of the hosted ${what} frame ({cit_base_url}/dynamic/<sessionid>/...).`);

/** Spec 2.1 / 4.1: the payment session. */
export const sessionResponseSchema = z.object({
  merchantid: z.string().describe("Your merchant id."),
  merchantpaymentid: z.string().describe("The merchant's reference, empty when none was sent."),
  sessionid: z.string().describe("Id of the payment window; the completion notification and the browser callbacks carry it."),
  accepturl: z.string().describe("The request's accepturl, empty when none was sent."),
  cancelurl: z.string().describe("The request's cancelurl, empty when none was sent."),
  notificationurl: z.string().describe("The request's notificationurl, empty when none was sent (the configured address is used)."),
  amount: z.number().int().describe("Minor units."),
  currency: z.string().length(3).describe("ISO 4217 alpha-3 code, upper case."),
  reference: z.string().describe("The request's reference, empty when none was sent."),
  idpan: z.string().describe("Id of the page element that receives the card number field."),
  idexpmonth: z.string().describe("Id of the page element that receives the expiry month field."),
  idexpyear: z.string().describe("Id of the page element that receives the expiry year field."),
  idsecuritycode: z.string().describe("Id of the page element that receives the security code field."),
  dfurlpan: hostedFieldUrl("card number"),
  dfurlexpmonth: hostedFieldUrl("expiry month"),
  dfurlexpyear: hostedFieldUrl("expiry year"),
  dfurlsecuritycode: hostedFieldUrl("security code"),
  dfurlccsingle: hostedFieldUrl("single-strip card (number, expiry and security code in one)"),
  dfurlscriptinclude: z.url().describe("The script your checkout page includes (as a script element's src); it mounts the fields and defines initDynamic() and goPay()."),
});

/** Spec 4.3 to 4.6, 4.8: an asynchronous request is answered with the id its notification will carry. */
export const responseIdResponseSchema = z.object({
  responseid: z.string().describe("Identifies this request; the notification of its result carries the same value."),
});

/** Spec 4.7: a payout is answered on the connection. */
export const payoutResponseSchema = z.object({
  responseid: z.string().describe("Identifies this payout; its operation notification carries the same value."),
  responsecode: z.string().describe("The acquirer's response code (ISO 8583), 00 when approved."),
  authorizationcode: z.string().describe("The acquirer's authorization code, empty when none was given."),
  status: z
    .enum(["approved", "declined", "failed", "pending"])
    .describe(
      "approved: paid out. declined: the acquirer refused. failed: it could not be done (nothing was paid out). pending: the acquirer's answer is not known yet and the money may have left: do not pay out again; the operation notification brings the final result.",
    ),
  processor: z.enum(ACQUIRER_NAMES).describe("The processor that handled the payout."),
});

const healthStatusSchema = z.enum(["ok", "error"]).describe("ok, or error when the part does not work.");
const healthMessageSchema = z.string().describe("Empty when ok; otherwise what is wrong.");
const componentStatusSchema = z
  .object({ status: healthStatusSchema, msg: healthMessageSchema })
  .describe("A member named by the back-office or website host: whether it works.");

/** Spec 4.9: one entry per interface host, plus members named by the back-office and website hosts. */
export const healthResponseSchema = z
  .object({
    api: z
      .array(
        z
          .object({
            api: z.string().describe("The interface: cit, mit, capture, refund, payout or payment."),
            status: healthStatusSchema,
            msg: healthMessageSchema,
          })
          .describe("One interface host."),
      )
      .describe("One entry per interface host (cit, mit, capture, refund, payout, payment)."),
  })
  .catchall(componentStatusSchema);

export const API_ERROR_CODES = Object.keys(API_ERROR_STATUS) as ApiErrorCode[];

/** Spec 7: every refusal, whatever its HTTP status. */
export const errorBodySchema = z.object({
  error: z.enum(API_ERROR_CODES as [ApiErrorCode, ...ApiErrorCode[]]).describe("What went wrong; the codes are listed in the description of the API."),
  errordescription: z.string().describe("Names the parameter and the reason; for INTERNAL_ERROR, a request id to quote."),
  responseid: z
    .string()
    .optional()
    .describe("INTERNAL_ERROR only: the request's responseid, under which work may have been done (beyond the spec)."),
});
