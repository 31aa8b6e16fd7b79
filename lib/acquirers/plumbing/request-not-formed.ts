// A request a connector cannot form as its acquirer's reference requires (a field the acquirer needs
// that we do not have, a card brand or currency it does not take, an amount beyond its format): it
// is refused before anything is sent, with the reason in words. Nothing happened at the acquirer,
// so the failure is "retryable" in our classes: routing may go on to the next acquirer
// (docs/decisions/0107-speaking-clearhaus-and-finaro-exactly.md).
import { RESPONSE_CODES, type ProcessorResult } from "../contract";
import type { AcquirerName } from "../names";

/** ISO 8583 codes for a request not sent: 30 format error (a field), 58 not permitted to the terminal (brand, currency, kind). */
export const NOT_SENT_CODES = { formatError: "30", notPermitted: "58" } as const;

/** Thrown by a pure transformer that cannot form the request; the connector turns it into a result. */
export class RequestNotFormedError extends Error {
  constructor(
    readonly reason: string,
    readonly responsecode: string = NOT_SENT_CODES.formatError,
  ) {
    super(reason);
    this.name = "RequestNotFormedError";
  }
}

/** The result of a request refused before it was sent. Never card data in `reason`. */
export function notSent(processor: AcquirerName, error: RequestNotFormedError): ProcessorResult {
  return {
    status: "failed",
    failure: "retryable",
    responsecode: error.responsecode ?? RESPONSE_CODES.systemError,
    message: `not sent to ${processor}: ${error.reason}`,
  };
}

/** Runs `build`; a RequestNotFormedError becomes the refusal, anything else propagates. */
export function formed<T>(processor: AcquirerName, build: () => T): { ok: true; value: T } | { ok: false; result: ProcessorResult } {
  try {
    return { ok: true, value: build() };
  } catch (error) {
    if (error instanceof RequestNotFormedError) return { ok: false, result: notSent(processor, error) };
    throw error;
  }
}
