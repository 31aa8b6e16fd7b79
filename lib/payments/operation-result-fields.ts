import type { ProcessorResult } from "../acquirers/contract";

/** The columns of an Operation row that record a processor's answer to it. */
export function operationResultFields(result: ProcessorResult, completedAt: Date = new Date()) {
  return {
    status: result.status,
    responseCode: result.responsecode,
    authorizationCode: result.authorizationcode ?? null,
    processorReference: result.processorReference ?? null,
    errorMessage: result.status === "approved" ? null : (result.message ?? null),
    completedAt,
  };
}
