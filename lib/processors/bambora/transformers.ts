// Pure mapping between our connector requests/results and Bambora Online (Worldline ePay) REST JSON.
// Success is decided by `meta.result`, as Bambora's own plugins do; a decline reason is the pair
// (`meta.action.source`, `meta.action.code`): source "Issuer" carries the issuer's ISO 8583 code,
// source "ePay" a gateway refusal whose `meta.action.type` names the kind.
import { z } from "zod";
import { RESPONSE_CODES, type AuthorizeRequest, type PayoutRequest, type ProcessorResult } from "../types";

function cardBody(card: AuthorizeRequest["card"], withSecurityCode: boolean) {
  const securityCode = card.revealSecurityCode();
  return {
    number: card.revealPan(),
    expmonth: card.expMonth,
    expyear: card.expYear % 100,
    ...(withSecurityCode && securityCode ? { cvc: securityCode } : {}),
    ...(card.holderName ? { holdername: card.holderName } : {}),
  };
}

export function toBamboraAuthorize(request: AuthorizeRequest) {
  const cof = request.credentialOnFile;
  const merchantInitiated = cof?.initiator === "merchant";
  return {
    order: { id: request.operationId, amount: Number(request.amount), currency: request.currency },
    reference: request.paymentId,
    card: cardBody(request.card, !merchantInitiated),
    initiator: merchantInitiated ? "merchant" : "cardholder",
    ...(cof?.initiator === "cardholder" && cof.storeCredential ? { subscription: { action: "create" } } : {}),
    ...(cof?.initiator === "cardholder" && !cof.storeCredential && cof.usesStoredCredential ? { subscription: { action: "use" } } : {}),
    ...(cof?.initiator === "merchant"
      ? {
          subscription: {
            action: "use",
            type: cof.paymentType,
            ...(cof.previousSchemeTransactionId ? { schemereference: cof.previousSchemeTransactionId } : {}),
          },
        }
      : {}),
    ...(request.threeDs && !merchantInitiated
      ? {
          threedsecure: {
            eci: request.threeDs.eci,
            ...(request.threeDs.authenticationValue ? { cavv: request.threeDs.authenticationValue } : {}),
            ...(request.threeDs.dsTransId ? { dstransactionid: request.threeDs.dsTransId } : {}),
            version: request.threeDs.version,
          },
        }
      : {}),
    ...(request.textOnStatement ? { textonstatement: request.textOnStatement } : {}),
    ...(request.customerIp ? { customer: { ip: request.customerIp } } : {}),
  };
}

export function toBamboraPayout(request: PayoutRequest) {
  return {
    order: { id: request.operationId, amount: Number(request.amount), currency: request.currency },
    reference: request.paymentId,
    card: cardBody(request.card, false),
    ...(request.textOnStatement ? { textonstatement: request.textOnStatement } : {}),
  };
}

export const BAMBORA_GATEWAY_ERRORS = [
  "InvalidRequest",
  "InvalidAmount",
  "InvalidState",
  "NotFound",
  "Unauthorized",
  "SystemError",
] as const;
export type BamboraGatewayError = (typeof BAMBORA_GATEWAY_ERRORS)[number];

export const bamboraResponse = z.object({
  meta: z.object({
    result: z.boolean(),
    action: z.object({ code: z.string(), source: z.string(), type: z.string() }).optional(),
    message: z.object({ enduser: z.string().optional(), merchant: z.string().optional() }).optional(),
  }),
  transaction: z
    .object({
      id: z.string(),
      authorizationcode: z.string().optional(),
      paymentaccountreference: z.string().optional(),
      schemereference: z.string().optional(),
    })
    .optional(),
  transactionoperations: z.array(z.object({ id: z.string() })).optional(),
});
export type BamboraResponse = z.infer<typeof bamboraResponse>;

function isGatewayError(type: string): type is BamboraGatewayError {
  return (BAMBORA_GATEWAY_ERRORS as readonly string[]).includes(type);
}

export function mapBamboraGatewayError(type: BamboraGatewayError): Pick<ProcessorResult, "status" | "failure" | "responsecode"> {
  switch (type) {
    case "InvalidRequest":
      return { status: "failed", failure: "declined", responsecode: "30" };
    case "InvalidAmount":
      return { status: "failed", failure: "declined", responsecode: RESPONSE_CODES.invalidAmount };
    case "InvalidState":
    case "NotFound":
      return { status: "failed", failure: "declined", responsecode: RESPONSE_CODES.invalidTransaction };
    case "Unauthorized":
      return { status: "failed", failure: "declined", responsecode: "03" };
    // A system error inside a normal answer does not say that nothing happened: unknown.
    case "SystemError":
      return { status: "failed", failure: "indeterminate", responsecode: RESPONSE_CODES.systemError };
    default: {
      const unhandled: never = type;
      throw new Error(`unhandled Bambora error type ${String(unhandled)}`);
    }
  }
}

export function fromBamboraResponse(response: BamboraResponse, eci?: string): ProcessorResult {
  const action = response.meta.action;
  const processorReference = response.transaction?.id ?? response.transactionoperations?.[0]?.id;
  const base = {
    processorReference,
    acquirerCode: action ? `${action.source}:${action.code}` : undefined,
    message: response.meta.message?.merchant,
  };
  if (response.meta.result) {
    return {
      ...base,
      status: "approved",
      responsecode: RESPONSE_CODES.approved,
      authorizationcode: response.transaction?.authorizationcode,
      eci,
      par: response.transaction?.paymentaccountreference,
      scheme: response.transaction?.schemereference ? { schemeTransactionId: response.transaction.schemereference } : undefined,
    };
  }
  if (action?.source === "Issuer") return { ...base, status: "declined", failure: "declined", responsecode: action.code, eci };
  if (action && isGatewayError(action.type)) return { ...base, ...mapBamboraGatewayError(action.type) };
  return { ...base, status: "failed", failure: "declined", responsecode: RESPONSE_CODES.systemError };
}
