// Bambora sandbox: /authorize, /payouts, /transactions/:id/{capture,credit,delete}, /transactions/:id
// with Basic `accesstoken@merchantnumber:secrettoken`, JSON bodies and `meta.result` answers. Each
// merchant number is a merchant account, which sees and refers to its own transactions only.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { captureDeclineCode, decideAuthorization, type SandboxDeclineCode } from "./test-cards";
import { SandboxLedger, type LedgerError, type LedgerResult } from "./ledger";
import { SandboxCardUpdates, sandboxCardUpdateInput } from "./card-updates";
import { holdUntilAborted, sameSecret, withIdempotencyKeys, type FetchHandler } from "./serve";
import { DEFAULT_HANG_MS, newSchemeTransactionId, sandboxPar } from "./scheme-data";
/** The sandbox's `meta.action.type` values of an error answer (issue 26 rebuilds this sandbox from its reference). */
type BamboraGatewayError = "InvalidRequest" | "InvalidAmount" | "InvalidState" | "NotFound" | "Unauthorized" | "SystemError";

import { BAMBORA_SANDBOX_ACCOUNTS, type BamboraSandboxAccount } from "./sandbox-accounts";

/** The first sandbox account (the demo merchant's). */
export const BAMBORA_SANDBOX_CREDENTIALS = BAMBORA_SANDBOX_ACCOUNTS[0]!;

export interface BamboraSandboxOptions {
  /** The merchant accounts it knows (default BAMBORA_SANDBOX_ACCOUNTS). */
  accounts?: readonly BamboraSandboxAccount[];
  hangMs?: number;
}

export interface BamboraSandbox {
  handler: FetchHandler;
  ledger: SandboxLedger;
  cardUpdates: SandboxCardUpdates;
}

const authorizeBody = z.object({
  order: z.object({ id: z.string().min(1), amount: z.number().int().min(0), currency: z.string().regex(/^[A-Z]{3}$/) }),
  card: z.object({
    number: z.string(),
    expmonth: z.number().int(),
    expyear: z.number().int(),
    cvc: z.string().optional(),
    holdername: z.string().optional(),
  }),
  initiator: z.enum(["cardholder", "merchant"]).optional(),
  threedsecure: z
    .object({ eci: z.string(), cavv: z.string().optional(), dstransactionid: z.string().optional(), version: z.string() })
    .optional(),
});

const amountBody = z.object({ amount: z.number().int().positive().optional(), currency: z.string().optional() });

const LEDGER_ERRORS: Record<LedgerError, { type: BamboraGatewayError; code: string; text: string }> = {
  not_found: { type: "NotFound", code: "104", text: "Transaction not found" },
  not_approved: { type: "InvalidState", code: "105", text: "Transaction was not authorized" },
  voided: { type: "InvalidState", code: "106", text: "Transaction is deleted" },
  already_captured: { type: "InvalidState", code: "107", text: "Transaction is captured" },
  amount_exceeds_authorized: { type: "InvalidAmount", code: "108", text: "Amount exceeds the authorized amount" },
  amount_exceeds_captured: { type: "InvalidAmount", code: "109", text: "Amount exceeds the captured amount" },
  nothing_captured: { type: "InvalidState", code: "110", text: "Nothing is captured" },
  invalid_amount: { type: "InvalidAmount", code: "111", text: "Invalid amount" },
  currency_mismatch: { type: "InvalidRequest", code: "112", text: "Currency differs from the transaction" },
  not_a_capture: { type: "NotFound", code: "104", text: "Transaction not found" },
};

function meta(result: boolean, action: { code: string; source: string; type: string }, merchant = "") {
  return { result, action, message: { enduser: result ? "" : "The payment was not completed.", merchant } };
}

function gatewayError(type: BamboraGatewayError, code: string, text: string, status = 200): Response {
  return Response.json({ meta: meta(false, { code, source: "ePay", type }, text) }, { status });
}

export function createBamboraSandbox(options: BamboraSandboxOptions = {}): BamboraSandbox {
  const accounts = options.accounts ?? BAMBORA_SANDBOX_ACCOUNTS;
  const hangMs = options.hangMs ?? DEFAULT_HANG_MS;
  const ledger = new SandboxLedger();
  const cardUpdates = new SandboxCardUpdates();
  /** Approved authorizations of a card whose captures are declined (test card 4000000000000341), by id. */
  const captureDeclines = new Map<string, SandboxDeclineCode>();
  /** The merchant number whose tokens the request carried. */
  function accountOf(request: Request): string | undefined {
    const header = request.headers.get("authorization") ?? "";
    if (!header.startsWith("Basic ")) return undefined;
    const presented = Buffer.from(header.slice(6), "base64").toString();
    return accounts.find((account) => sameSecret(presented, `${account.accessToken}@${account.merchantNumber}:${account.secretToken}`))
      ?.merchantNumber;
  }

  function ledgerAnswer(result: LedgerResult): Response {
    if (!result.ok) {
      const error = LEDGER_ERRORS[result.error];
      return gatewayError(error.type, error.code, error.text);
    }
    return Response.json({
      meta: meta(true, { code: "000", source: "ePay", type: "Approved" }),
      transactionoperations: [
        {
          id: result.operation.id,
          action: result.operation.kind,
          amount: result.operation.amount,
          currency: result.transaction.currency,
          status: "Success",
        },
      ],
    });
  }

  async function authorizeOrPayout(
    account: string,
    json: unknown,
    kind: "authorization" | "payout",
    signal: AbortSignal,
  ): Promise<Response | "hang"> {
    const parsed = authorizeBody.safeParse(json);
    if (!parsed.success) return gatewayError("InvalidRequest", "100", "Invalid request body", 400);
    const body = parsed.data;
    if (kind === "payout" && body.card.cvc) return gatewayError("InvalidRequest", "101", "cvc is not allowed for payouts", 400);
    const decision = decideAuthorization({
      processor: "bambora",
      card: { pan: body.card.number, expMonth: body.card.expmonth, expYear: 2000 + body.card.expyear, securityCode: body.card.cvc },
      eci: body.threedsecure?.eci,
      authenticationValue: body.threedsecure?.cavv,
      merchantInitiated: body.initiator === "merchant",
    });
    if (decision.kind === "hang") {
      await holdUntilAborted(signal, hangMs);
      return "hang";
    }
    const transaction = ledger.record({
      account,
      kind,
      amount: body.order.amount,
      currency: body.order.currency,
      approved: decision.kind !== "decline",
      requestId: body.order.id,
    });
    if (decision.kind === "approve_late") {
      await holdUntilAborted(signal, hangMs);
      return "hang";
    }
    if (decision.kind === "decline") {
      return Response.json({
        meta: meta(false, { code: decision.code, source: "Issuer", type: "IssuerDecline" }, `Declined by issuer (${decision.code})`),
        transaction: { id: transaction.id },
      });
    }
    const declinesCapture = kind === "authorization" ? captureDeclineCode(body.card.number) : undefined;
    if (declinesCapture) captureDeclines.set(transaction.id, declinesCapture);
    return Response.json({
      meta: meta(true, { code: "000", source: "ePay", type: "Approved" }),
      transaction: {
        id: transaction.id,
        orderid: body.order.id,
        amount: body.order.amount,
        currency: body.order.currency,
        authorizationcode: transaction.authorizationCode,
        eci: body.threedsecure?.eci,
        ...(kind === "authorization"
          ? { paymentaccountreference: sandboxPar(body.card.number), schemereference: newSchemeTransactionId() }
          : {}),
      },
    });
  }

  const handler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/sandbox/card-updates") {
      const parsed = sandboxCardUpdateInput.safeParse(await request.json());
      if (!parsed.success) return Response.json({ error: parsed.error.message }, { status: 400 });
      return Response.json(cardUpdates.add(parsed.data), { status: 201 });
    }
    const account = accountOf(request);
    if (!account) return gatewayError("Unauthorized", "401", "Invalid credentials", 401);
    if (request.method === "GET" && url.pathname === "/cardupdates") {
      const since = new Date(url.searchParams.get("since") ?? 0);
      return Response.json({
        meta: meta(true, { code: "000", source: "ePay", type: "Approved" }),
        cardupdates: cardUpdates.since(since, account).map((update) => ({
          id: update.id,
          paymentaccountreference: update.par,
          kind: update.kind,
          expmonth: update.newExpMonth,
          expyear: update.newExpYear !== undefined ? update.newExpYear % 100 : undefined,
          number: update.newPan,
          updated: update.updatedAt.toISOString(),
        })),
      });
    }
    if (request.method === "GET" && url.pathname === "/transactions") {
      // Look-up by the merchant's order id (our operation id), the reconciliation path after a time-out.
      const found = ledger.findByRequestId(account, url.searchParams.get("orderid") ?? "");
      return Response.json({
        meta: meta(true, { code: "000", source: "ePay", type: "Approved" }),
        transactions: found
          ? [
              {
                id: found.id,
                amount: found.amount,
                currency: found.currency,
                approved: found.approved,
                authorizationcode: found.authorizationCode,
                deleted: found.voided,
              },
            ]
          : [],
      });
    }
    const operationMatch = /^\/transactions\/([^/]+)$/.exec(url.pathname);
    if (request.method === "GET" && operationMatch) {
      const transaction = ledger.get(account, operationMatch[1]!);
      if (!transaction) return gatewayError("NotFound", "104", "Transaction not found", 404);
      return Response.json({
        meta: meta(true, { code: "000", source: "ePay", type: "Approved" }),
        transaction: {
          id: transaction.id,
          amount: transaction.amount,
          capturedamount: transaction.capturedAmount,
          creditedamount: transaction.refundedAmount,
          deleted: transaction.voided,
        },
      });
    }
    if (request.method !== "POST") return gatewayError("NotFound", "404", "Not found", 404);
    let json: unknown = {};
    const text = await request.text();
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        return gatewayError("InvalidRequest", "100", "Body is not JSON", 400);
      }
    }
    if (url.pathname === "/authorize" || url.pathname === "/payouts") {
      const answer = await authorizeOrPayout(account, json, url.pathname === "/payouts" ? "payout" : "authorization", request.signal);
      return answer === "hang" ? new Response(null, { status: 504 }) : answer;
    }
    const match = /^\/transactions\/([^/]+)\/(capture|credit|delete)$/.exec(url.pathname);
    if (!match) return gatewayError("NotFound", "404", "Not found", 404);
    const [, id = "", action] = match;
    const amount = amountBody.safeParse(json);
    if (!amount.success) return gatewayError("InvalidAmount", "111", "Invalid amount", 400);
    switch (action) {
      case "capture": {
        const authorization = ledger.get(account, id);
        const declineCode = authorization?.approved && !authorization.voided ? captureDeclines.get(id) : undefined;
        if (declineCode) {
          // Declined with the issuer's ISO code in meta.action, as an authorization is; nothing captured.
          return Response.json({
            meta: meta(false, { code: declineCode, source: "Issuer", type: "IssuerDecline" }, `Capture declined (${declineCode})`),
            transactionoperations: [
              {
                id: randomUUID(),
                action: "capture",
                amount: amount.data.amount ?? authorization!.amount,
                currency: authorization!.currency,
                status: "Failed",
              },
            ],
          });
        }
        return ledgerAnswer(ledger.capture(account, id, amount.data.amount, amount.data.currency));
      }
      case "credit":
        return ledgerAnswer(ledger.refund(account, id, amount.data.amount));
      default:
        return ledgerAnswer(ledger.void(account, id));
    }
  };

  /** Answers of captures, credits and deletes by their Idempotency-Key, for the look-up by reference. */
  const answersByKey = new Map<string, { id: string; approved: boolean; authorizationcode?: string }>();
  const withLookup: FetchHandler = async (request) => {
    const url = new URL(request.url);
    const account = accountOf(request);
    if (request.method === "GET" && url.pathname === "/transactions" && account) {
      const noted = answersByKey.get(`${account}\n${url.searchParams.get("orderid") ?? ""}`);
      if (noted) return Response.json({ meta: meta(true, { code: "000", source: "ePay", type: "Approved" }), transactions: [noted] });
    }
    const key = request.headers.get("idempotency-key");
    const followUp = request.method === "POST" && /^\/transactions\/[^/]+\/(capture|credit|delete)$/.test(url.pathname);
    const response = await handler(request);
    if (followUp && key && account && response.status < 500 && response.status !== 401 && !answersByKey.has(`${account}\n${key}`)) {
      const body = (await response.clone().json()) as { meta?: { result?: boolean }; transactionoperations?: { id?: string }[] };
      answersByKey.set(`${account}\n${key}`, { id: body.transactionoperations?.[0]?.id ?? key, approved: body.meta?.result === true });
    }
    return response;
  };

  return { handler: withIdempotencyKeys(withLookup), ledger, cardUpdates };
}
