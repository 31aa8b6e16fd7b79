// The Xacquirer sandbox: REPLACE with a strict simulator written from the acquirer's public reference
// (never from our connector): the paths, fields, answers and refusals the reference documents, its
// own test cards, and, marked as such, the sandbox-only extensions (docs/acquirers.md). This one
// speaks the template's invented JSON API so that a new module works end to end from the start.
import type { AcquirerName } from "../../../acquirers/names";
import { SandboxLedger, type LedgerResult } from "../ledger";
import { decideAuthorization } from "../test-cards";
import { holdUntilAborted, sameSecret, type FetchHandler } from "../serve";
import { DEFAULT_HANG_MS } from "../scheme-data";
import { XACQUIRER_SANDBOX_ACCOUNTS } from "./accounts";

/** Replaced by `npm run new:acquirer <name>` with the new acquirer's name. */
const NAME = "xacquirer" as AcquirerName;

export interface XacquirerSandboxOptions {
  hangMs?: number;
  /** The sandbox-only extensions: the scenario test cards. */
  extensions?: boolean;
}

interface Body {
  reference?: string;
  amount?: number;
  currency?: string;
  card?: { number?: string; expiry_month?: number; expiry_year?: number; cvc?: string };
}

const refusal = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

export function createXacquirerSandbox({ hangMs = DEFAULT_HANG_MS, extensions = false }: XacquirerSandboxOptions = {}): {
  handler: FetchHandler;
  ledger: SandboxLedger;
} {
  const ledger = new SandboxLedger();

  function account(request: Request): string | undefined {
    const key = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
    return XACQUIRER_SANDBOX_ACCOUNTS.find((candidate) => sameSecret(candidate.apiKey, key))?.merchantId;
  }

  function answer(result: LedgerResult): Response {
    if (!result.ok) return refusal(400, result.error, result.error.replace(/_/g, " "));
    return Response.json({ id: result.operation.id, status: "approved", code: "00" });
  }

  async function payment(merchant: string, body: Body, kind: "authorization" | "payout", signal: AbortSignal): Promise<Response> {
    const card = body.card;
    if (!body.reference || !Number.isInteger(body.amount) || !body.currency || !card?.number || !card.expiry_month || !card.expiry_year)
      return refusal(400, "invalid_request", "reference, amount, currency and card are required");
    const decision = decideAuthorization({
      processor: NAME,
      card: { pan: card.number, expMonth: card.expiry_month, expYear: card.expiry_year, securityCode: card.cvc },
      amount: body.amount,
      merchantInitiated: kind === "payout",
    });
    if (decision.kind === "hang" && extensions) {
      await holdUntilAborted(signal, hangMs);
      return new Response(null, { status: 504 });
    }
    const approved = decision.kind !== "decline";
    const transaction = ledger.record({ account: merchant, kind, amount: body.amount!, currency: body.currency, approved, requestId: body.reference });
    return Response.json(
      approved
        ? { id: transaction.id, status: "approved", code: "00", approval_code: transaction.authorizationCode }
        : { id: transaction.id, status: "declined", code: decision.kind === "decline" ? decision.code : "05" },
    );
  }

  const handler: FetchHandler = async (request) => {
    const merchant = account(request);
    if (!merchant) return refusal(401, "unauthorized", "unknown API key");
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/account") return Response.json({ merchant_id: merchant });
    if (request.method === "GET" && url.pathname === "/transactions") {
      const found = ledger.findByRequestId(merchant, url.searchParams.get("reference") ?? "");
      return found
        ? Response.json({ id: found.id, status: found.approved ? "approved" : "declined", code: found.approved ? "00" : "05", approval_code: found.authorizationCode })
        : refusal(404, "not_found", "no transaction with this reference");
    }
    if (request.method !== "POST") return refusal(404, "not_found", "no such resource");
    let body: Body;
    try {
      body = (await request.json()) as Body;
    } catch {
      return refusal(400, "invalid_request", "the body is not JSON");
    }
    if (url.pathname === "/authorizations") return payment(merchant, body, "authorization", request.signal);
    if (url.pathname === "/payouts") return payment(merchant, body, "payout", request.signal);
    const followUp = /^\/authorizations\/([^/]+)\/(captures|refunds|voids)$/.exec(url.pathname);
    if (!followUp) return refusal(404, "not_found", "no such resource");
    const [, id, action] = followUp;
    if (action === "captures") return answer(ledger.capture(merchant, id!, body.amount, body.currency));
    if (action === "refunds") return answer(ledger.refund(merchant, id!, body.amount, body.currency));
    return answer(ledger.void(merchant, id!));
  };
  return { handler, ledger };
}
