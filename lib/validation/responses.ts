// What the merchant API answers (spec 2.1, 4.1 to 4.9, 7). The route handlers build these bodies;
// the schemas are the contract the OpenAPI document (lib/openapi) publishes and the integration
// tests check every answer against.
import { z } from "zod";
import { API_ERROR_STATUS, type ApiErrorCode } from "../errors";
import { PROCESSORS } from "./common";

/** Spec 2.1 / 4.1: the payment session. */
export const sessionResponseSchema = z.object({
  merchantid: z.string(),
  merchantpaymentid: z.string().describe("The merchant's reference, empty when none was sent."),
  sessionid: z.string(),
  accepturl: z.string(),
  cancelurl: z.string(),
  notificationurl: z.string(),
  amount: z.number().int().describe("Minor units."),
  currency: z.string().length(3),
  reference: z.string(),
  idpan: z.string(),
  idexpmonth: z.string(),
  idexpyear: z.string(),
  idsecuritycode: z.string(),
  dfurlpan: z.url(),
  dfurlexpmonth: z.url(),
  dfurlexpyear: z.url(),
  dfurlsecuritycode: z.url(),
  dfurlccsingle: z.url(),
  dfurlscriptinclude: z.url(),
});

/** Spec 4.3 to 4.6, 4.8: an asynchronous request is answered with the id its notification will carry. */
export const responseIdResponseSchema = z.object({
  responseid: z.string().describe("Identifies this request; the notification of its result carries the same value."),
});

/** Spec 4.7: a payout is answered on the connection. */
export const payoutResponseSchema = z.object({
  responseid: z.string(),
  responsecode: z.string().describe("The acquirer's response code (ISO 8583), 00 when approved."),
  authorizationcode: z.string(),
  status: z
    .enum(["approved", "declined", "failed", "pending"])
    .describe("pending: the acquirer's answer is not known yet (the money may have left); the notification brings the final result."),
  processor: z.enum(PROCESSORS),
});

const componentStatusSchema = z.object({ status: z.enum(["ok", "error"]), msg: z.string() });

/** Spec 4.9: one entry per interface host, plus members named by the back-office and website hosts. */
export const healthResponseSchema = z
  .object({
    api: z.array(z.object({ api: z.string(), status: z.enum(["ok", "error"]), msg: z.string() })),
  })
  .catchall(componentStatusSchema);

export const API_ERROR_CODES = Object.keys(API_ERROR_STATUS) as ApiErrorCode[];

/** Spec 7: every refusal, whatever its HTTP status. */
export const errorBodySchema = z.object({
  error: z.enum(API_ERROR_CODES as [ApiErrorCode, ...ApiErrorCode[]]),
  errordescription: z.string().describe("Names the parameter and the reason; for INTERNAL_ERROR, a request id to quote."),
  responseid: z
    .string()
    .optional()
    .describe("INTERNAL_ERROR only: the request's responseid, under which work may have been done (beyond the spec)."),
});
