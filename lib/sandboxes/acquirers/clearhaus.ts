// Clearhaus sandbox: /authorizations, /authorizations/:id/{captures,refunds,voids}, /credits and
// GET /account with Basic auth (API key, empty password), bracketed form bodies and HAL JSON answers,
// over its own ledger. An API key points to one merchant account, which sees and refers to its own
// transactions only: another account's authorization is not found (accounts_and_keys).
import { randomUUID } from "node:crypto";
import { captureDeclineCode, decideAuthorization, type SandboxDeclineCode } from "./test-cards";
import { SandboxLedger, type LedgerError, type LedgerResult } from "./ledger";
import { SandboxCardUpdates, sandboxCardUpdateInput } from "./card-updates";
import { holdUntilAborted, sameSecret, withIdempotencyKeys, type FetchHandler } from "./serve";
import { DEFAULT_HANG_MS, sandboxPar } from "./scheme-data";
import { CLEARHAUS_MEDIA_TYPE } from "../../processors/clearhaus/client";
import { clearhausCodeForIso, type ClearhausStatusCode } from "../../processors/clearhaus/transformers";

import { CLEARHAUS_SANDBOX_ACCOUNTS, type ClearhausSandboxAccount } from "./sandbox-accounts";

/** The API key of the first sandbox account (the demo merchant's). */
export const CLEARHAUS_SANDBOX_API_KEY = CLEARHAUS_SANDBOX_ACCOUNTS[0]!.apiKey;

export interface ClearhausSandboxOptions {
  /** The merchant accounts it knows (default CLEARHAUS_SANDBOX_ACCOUNTS). */
  accounts?: readonly ClearhausSandboxAccount[];
  hangMs?: number;
}

export interface ClearhausSandbox {
  handler: FetchHandler;
  ledger: SandboxLedger;
  cardUpdates: SandboxCardUpdates;
}

const LEDGER_ERRORS: Record<LedgerError, string> = {
  not_found: "authorization not found",
  not_approved: "authorization was not approved",
  voided: "authorization is voided",
  already_captured: "authorization is already captured",
  amount_exceeds_authorized: "amount exceeds the remaining authorized amount",
  amount_exceeds_captured: "amount exceeds the captured amount not yet refunded",
  nothing_captured: "nothing captured to refund",
  invalid_amount: "parameter 'amount' is invalid",
  currency_mismatch: "currency differs from the authorization",
};

function hal(body: unknown, status = 201): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": CLEARHAUS_MEDIA_TYPE } });
}

function transactionBody(id: string, code: ClearhausStatusCode, extra: Record<string, unknown> = {}, message?: string) {
  return {
    id,
    status: message ? { code, message } : { code },
    processed_at: new Date().toISOString(),
    ...extra,
  };
}

export function createClearhausSandbox(options: ClearhausSandboxOptions = {}): ClearhausSandbox {
  const accounts = options.accounts ?? CLEARHAUS_SANDBOX_ACCOUNTS;
  const hangMs = options.hangMs ?? DEFAULT_HANG_MS;
  const ledger = new SandboxLedger();
  const cardUpdates = new SandboxCardUpdates();
  /** Approved authorizations of a card whose captures are declined (test card 4000000000000341), by id. */
  const captureDeclines = new Map<string, SandboxDeclineCode>();

  /** The merchant account the request's API key points to. */
  function accountOf(request: Request): ClearhausSandboxAccount | undefined {
    const header = request.headers.get("authorization") ?? "";
    if (!header.startsWith("Basic ")) return undefined;
    const [user = "", password = ""] = Buffer.from(header.slice(6), "base64").toString().split(":");
    if (password !== "") return undefined;
    return accounts.find((account) => sameSecret(user, account.apiKey));
  }

  function ledgerAnswer(result: LedgerResult, parentLink: string): Response {
    if (!result.ok) {
      if (result.error === "not_found") return hal({ status: { code: 40000, message: LEDGER_ERRORS.not_found } }, 404);
      return hal(transactionBody(randomUUID(), 40200, {}, LEDGER_ERRORS[result.error]), 400);
    }
    return hal(
      transactionBody(result.operation.id, 20000, {
        amount: result.operation.amount,
        currency: result.transaction.currency,
        _links: { authorization: { href: parentLink } },
      }),
    );
  }

  async function authorizeOrCredit(
    account: string,
    fields: Record<string, string>,
    kind: "authorization" | "payout",
    signal: AbortSignal,
  ): Promise<Response | "hang"> {
    if (!/^(0|[1-9]\d{0,8})$/.test(fields.amount ?? ""))
      return hal(transactionBody(randomUUID(), 40000, {}, "parameter 'amount' is invalid"), 400);
    if (!/^[A-Z]{3}$/.test(fields.currency ?? ""))
      return hal(transactionBody(randomUUID(), 40140, {}, "parameter 'currency' is invalid"), 400);
    const pan = fields["card[pan]"];
    if (!pan || !fields["card[expire_month]"] || !fields["card[expire_year]"])
      return hal(transactionBody(randomUUID(), 40000, {}, "parameter 'card' is required"), 400);
    if (kind === "payout" && fields["card[csc]"])
      return hal(transactionBody(randomUUID(), 40000, {}, "parameter 'card[csc]' is not allowed for credits"), 400);
    const decision = decideAuthorization({
      processor: "clearhaus",
      card: {
        pan,
        expMonth: Number(fields["card[expire_month]"]),
        expYear: Number(fields["card[expire_year]"]),
        securityCode: fields["card[csc]"],
      },
      eci: fields["card[3dsecure][v2][raw][eci]"],
      authenticationValue: fields["card[3dsecure][v2][raw][av]"],
      merchantInitiated: fields.initiator === "merchant",
    });
    if (decision.kind === "hang") {
      await holdUntilAborted(signal, hangMs);
      return "hang";
    }
    const amount = Number(fields.amount);
    const transaction = ledger.record({
      account,
      kind,
      amount,
      currency: fields.currency!,
      approved: decision.kind !== "decline",
      requestId: fields.reference,
    });
    if (decision.kind === "approve_late") {
      await holdUntilAborted(signal, hangMs);
      return "hang";
    }
    const declinesCapture = kind === "authorization" ? captureDeclineCode(pan) : undefined;
    if (declinesCapture && decision.kind === "approve") captureDeclines.set(transaction.id, declinesCapture);
    const links =
      kind === "authorization"
        ? {
            captures: { href: `/authorizations/${transaction.id}/captures` },
            refunds: { href: `/authorizations/${transaction.id}/refunds` },
            voids: { href: `/authorizations/${transaction.id}/voids` },
          }
        : {};
    if (decision.kind === "decline") {
      const retry = decision.code === "1A" ? { retry: { when: "now", with: ["strong authentication"] } } : {};
      return hal(
        transactionBody(transaction.id, clearhausCodeForIso(decision.code), { amount, currency: fields.currency, ...retry, _links: links }),
      );
    }
    return hal(
      transactionBody(transaction.id, 20000, {
        amount,
        currency: fields.currency,
        threed_secure: Boolean(fields["card[3dsecure][v2][raw][eci]"]),
        authorization_code: transaction.authorizationCode,
        ...(kind === "authorization" ? { payment_account_reference: sandboxPar(pan) } : {}),
        _embedded: { card: { id: randomUUID() } },
        _links: links,
      }),
    );
  }

  const handler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/sandbox/card-updates") {
      const parsed = sandboxCardUpdateInput.safeParse(await request.json());
      if (!parsed.success) return Response.json({ error: parsed.error.message }, { status: 400 });
      return Response.json(cardUpdates.add(parsed.data), { status: 201 });
    }
    const merchant = accountOf(request);
    if (!merchant) return hal({ status: { code: 40000, message: "unauthorized" } }, 401);
    const account = merchant.merchantId;
    if (request.method === "GET" && url.pathname === "/account") {
      return hal(
        {
          merchant_id: merchant.merchantId,
          descriptor: merchant.descriptor,
          name: merchant.name,
          country: merchant.country,
          currency: merchant.currency,
          mcc: merchant.mcc,
          transaction_rules: "",
        },
        200,
      );
    }
    if (request.method === "GET" && url.pathname === "/card_updates") {
      const since = new Date(url.searchParams.get("since") ?? 0);
      return hal(
        {
          _embedded: {
            card_updates: cardUpdates.since(since, account).map((update) => ({
              id: update.id,
              payment_account_reference: update.par,
              kind: update.kind,
              expire_month: update.newExpMonth ? String(update.newExpMonth).padStart(2, "0") : undefined,
              expire_year: update.newExpYear ? String(update.newExpYear) : undefined,
              pan: update.newPan,
              updated_at: update.updatedAt.toISOString(),
            })),
          },
        },
        200,
      );
    }
    if (request.method !== "POST") return hal({ status: { code: 40000, message: "not found" } }, 404);
    const fields = Object.fromEntries(new URLSearchParams(await request.text()));
    const amount = fields.amount !== undefined && fields.amount !== "" ? Number(fields.amount) : undefined;
    if (url.pathname === "/authorizations" || url.pathname === "/credits") {
      const answer = await authorizeOrCredit(account, fields, url.pathname === "/credits" ? "payout" : "authorization", request.signal);
      return answer === "hang" ? new Response(null, { status: 504 }) : answer;
    }
    const match = /^\/authorizations\/([^/]+)\/(captures|refunds|voids)$/.exec(url.pathname);
    if (!match) return hal({ status: { code: 40000, message: "not found" } }, 404);
    const [, id = "", action] = match;
    const parentLink = `/authorizations/${id}`;
    // Clearhaus' id of a capture is not an authorization: follow-ups must name the authorization.
    // Another account's authorization is not found, as on the real gateway.
    const authorization = ledger.get(account, id);
    if (!authorization) return hal({ status: { code: 40000, message: LEDGER_ERRORS.not_found } }, 404);
    switch (action) {
      case "captures": {
        const declineCode = authorization.approved && !authorization.voided ? captureDeclines.get(id) : undefined;
        if (declineCode) {
          // A declined capture: 201 with a status code other than 20000, the authorization unchanged.
          return hal(
            transactionBody(
              randomUUID(),
              clearhausCodeForIso(declineCode),
              {
                amount: amount ?? authorization.amount - authorization.capturedAmount,
                currency: authorization.currency,
                _links: { authorization: { href: parentLink } },
              },
              "capture declined",
            ),
          );
        }
        return ledgerAnswer(ledger.capture(account, id, amount), parentLink);
      }
      case "refunds":
        return ledgerAnswer(ledger.refund(account, id, amount), parentLink);
      default:
        return ledgerAnswer(ledger.void(account, id), parentLink);
    }
  };

  /**
   * Look-up by our reference (the `reference` of an authorization or credit, the first 30 characters
   * of the Idempotency-Key of a capture, refund or void): the sandbox's stand-in for finding a
   * transaction whose answer was lost. Answers the transaction as its original answer did, or 404.
   */
  const answersByReference = new Map<string, unknown>();
  const withLookup: FetchHandler = async (request) => {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/transactions") {
      const merchant = accountOf(request);
      if (!merchant) return hal({ status: { code: 40000, message: "unauthorized" } }, 401);
      const reference = url.searchParams.get("reference") ?? "";
      const answered = answersByReference.get(`${merchant.merchantId}\n${reference}`);
      if (answered) return hal(answered as Record<string, unknown>, 200);
      const found = ledger.findByRequestId(merchant.merchantId, reference);
      if (!found) return hal({ status: { code: 40000, message: "transaction not found" } }, 404);
      return hal(
        transactionBody(found.id, found.approved ? 20000 : 40410, {
          amount: found.amount,
          currency: found.currency,
          authorization_code: found.authorizationCode,
        }),
        200,
      );
    }
    const key = request.headers.get("idempotency-key");
    const followUp = request.method === "POST" && /^\/authorizations\/[^/]+\/(captures|refunds|voids)$/.test(url.pathname);
    const response = await handler(request);
    const merchant = accountOf(request);
    if (followUp && key && merchant && response.status < 500 && response.status !== 401) {
      const reference = `${merchant.merchantId}\n${key.slice(0, 30)}`;
      if (!answersByReference.has(reference)) answersByReference.set(reference, await response.clone().json());
    }
    return response;
  };

  return { handler: withIdempotencyKeys(withLookup), ledger, cardUpdates };
}
