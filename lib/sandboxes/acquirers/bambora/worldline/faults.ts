// The fault modes of the other sandboxes (../../faults.ts: answer lost after acting, 502 after
// acting, hang, late act, duplicate, refusal) for the Worldline Direct sandbox: a sandbox-only
// extension, armed per test for processor "bambora". The classifier reads Direct's own paths and
// amounts (minor units already); the refusal is Direct's 400 "Data validation error".
import { withClassifiedAcquirerFaults, type AcquirerFaultClassifier } from "../../faults";
import type { FetchHandler } from "../../serve";
import { DIRECT_ERRORS } from "./reference";

const PAYMENTS = /^\/v2\/[^/]+\/payments(?:\/([^/]+))?(?:\/([^/]+))?$/;

export const classifyWorldlineRequest: AcquirerFaultClassifier = async (request) => {
  const match = PAYMENTS.exec(new URL(request.url).pathname);
  if (!match) return undefined;
  const [, paymentId, action] = match;
  if (request.method === "GET") return paymentId ? { operation: "lookup" } : undefined;
  if (request.method !== "POST") return undefined;
  let body: { amount?: unknown; amountOfMoney?: { amount?: unknown }; order?: { amountOfMoney?: { amount?: unknown } } } = {};
  try {
    const text = await request.clone().text();
    body = text ? (JSON.parse(text) as typeof body) : {};
  } catch {
    return undefined;
  }
  const amount = (value: unknown) => (typeof value === "number" ? value : undefined);
  if (!paymentId) return { operation: "authorize", amount: amount(body.order?.amountOfMoney?.amount) };
  switch (action) {
    case "capture":
      return { operation: "capture", amount: amount(body.amount) };
    case "refund":
      return { operation: "refund", amount: amount(body.amountOfMoney?.amount) };
    case "cancel":
      return { operation: "void", amount: amount(body.amountOfMoney?.amount) };
    default:
      return undefined;
  }
};

function refusal(): Response {
  return Response.json(
    { errorId: "00000000-0000-4000-8000-000000000000", errors: [{ ...DIRECT_ERRORS.invalidValue, retriable: false }] },
    { status: DIRECT_ERRORS.invalidValue.httpStatusCode },
  );
}

export function withWorldlineFaults(handler: FetchHandler, hangMs: number): FetchHandler {
  return withClassifiedAcquirerFaults("bambora", classifyWorldlineRequest, refusal, handler, hangMs);
}
