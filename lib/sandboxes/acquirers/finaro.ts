// Finaro (Credorax) sandbox: the gateway endpoint with its `M`/`K` authentication, `O` operation codes
// and url-encoded Z-field answers, over its own ledger. A repeated `a1` request id gets the first answer.
// Each MID it knows is a merchant account: a request is signed with that MID's key, and it sees and
// refers to that MID's transactions only.
import { randomUUID } from "node:crypto";
import { captureDeclineCode, decideAuthorization, type SandboxDeclineCode } from "./test-cards";
import { SandboxLedger, type LedgerError, type LedgerResult } from "./ledger";
import { SandboxCardUpdates, sandboxCardUpdateInput } from "./card-updates";
import { holdUntilAborted, sameSecret, type FetchHandler } from "./serve";
import { DEFAULT_HANG_MS, newSchemeTransactionId, sandboxPar } from "./scheme-data";
import { finaroSignature } from "../../processors/finaro/signature";
import { FINARO_OPERATION } from "../../processors/finaro/transformers";
import { FINARO_SANDBOX_ACCOUNTS, type FinaroSandboxAccount } from "./sandbox-accounts";

export const FINARO_SANDBOX_PATH = "/intenv/service/gateway";
/**
 * Z2 of a retrieval (O=101) for an a1 this sandbox never received: a sandbox-only convention
 * (docs/acquirers.md, "Sandbox-only extensions"). Finaro publishes no such code; -7 is its "no
 * response from gateway" [MK-CR], which this sandbox never uses for "not found".
 */
const RETRIEVAL_NOT_FOUND = "-100";
/** The first sandbox account (the demo merchant's). */
export const FINARO_SANDBOX_CREDENTIALS = FINARO_SANDBOX_ACCOUNTS[0]!;

export interface FinaroSandboxOptions {
  /** The MIDs it knows (default FINARO_SANDBOX_ACCOUNTS). */
  accounts?: readonly FinaroSandboxAccount[];
  hangMs?: number;
}

export interface FinaroSandbox {
  handler: FetchHandler;
  ledger: SandboxLedger;
  cardUpdates: SandboxCardUpdates;
}

type Answer = Record<string, string>;

const LEDGER_ERRORS: Record<LedgerError, { z6: string; text: string }> = {
  not_found: { z6: "12", text: "Referenced transaction not found" },
  not_approved: { z6: "12", text: "Referenced transaction was not approved" },
  voided: { z6: "12", text: "Referenced transaction is voided" },
  already_captured: { z6: "12", text: "Transaction already captured" },
  amount_exceeds_authorized: { z6: "13", text: "Amount exceeds the authorized amount" },
  amount_exceeds_captured: { z6: "13", text: "Amount exceeds the captured amount" },
  nothing_captured: { z6: "12", text: "Nothing captured to refund" },
  invalid_amount: { z6: "13", text: "Invalid amount" },
  currency_mismatch: { z6: "13", text: "Currency differs from the referenced transaction" },
};

const FOLLOW_UP_KIND: Record<string, "capture" | "refund" | "void"> = {
  [FINARO_OPERATION.capture]: "capture",
  [FINARO_OPERATION.refund]: "refund",
  [FINARO_OPERATION.void]: "void",
};

function reply(answer: Answer): Response {
  return new Response(new URLSearchParams(answer).toString(), {
    status: 200,
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}

export function createFinaroSandbox(options: FinaroSandboxOptions = {}): FinaroSandbox {
  const keys = new Map((options.accounts ?? FINARO_SANDBOX_ACCOUNTS).map((account) => [account.merchantId, account.signatureKey]));
  const hangMs = options.hangMs ?? DEFAULT_HANG_MS;
  const ledger = new SandboxLedger();
  const cardUpdates = new SandboxCardUpdates();
  /** Approved authorizations of a card whose captures the issuer declines (test card 4000000000000341), by Z1. */
  const captureDeclines = new Map<string, SandboxDeclineCode>();

  /** The code a capture referring to `reference` is declined with, while its authorization is still open. */
  function captureDeclinedWith(mid: string, reference: string): SandboxDeclineCode | undefined {
    const transaction = ledger.resolve(mid, reference);
    if (!transaction?.approved || transaction.voided) return undefined;
    return captureDeclines.get(transaction.id);
  }

  function gatewayError(fields: Answer, z2: string, z6: string, text: string): Answer {
    return { A1: fields.a1 ?? "", O: fields.O ?? "", Z1: randomUUID().replace(/-/g, ""), Z2: z2, Z3: text, Z6: z6 };
  }

  function fromLedger(fields: Answer, result: LedgerResult): Answer {
    if (!result.ok) return gatewayError(fields, "-20", LEDGER_ERRORS[result.error].z6, LEDGER_ERRORS[result.error].text);
    return {
      A1: fields.a1 ?? "",
      O: fields.O ?? "",
      Z1: result.operation.id,
      Z2: "0",
      Z3: "Transaction has been executed successfully.",
      Z4: result.transaction.authorizationCode ?? "",
      Z6: "00",
    };
  }

  /** `fields.M` is a MID this sandbox knows and the request was signed with its key (checked by the handler). */
  async function process(fields: Answer, signal: AbortSignal): Promise<Answer | "hang"> {
    const mid = fields.M!;
    const amount = Number(fields.a4 ?? "");
    const amountValid = /^\d{1,12}$/.test(fields.a4 ?? "");
    switch (fields.O) {
      case FINARO_OPERATION.authorize:
      case FINARO_OPERATION.sale:
      case FINARO_OPERATION.payout: {
        if (!amountValid || !/^[A-Z]{3}$/.test(fields.a5 ?? "")) return gatewayError(fields, "-9", "30", "Parameter a4 or a5 is invalid");
        if (!fields.b1 || !fields.b3 || !fields.b4) return gatewayError(fields, "-9", "30", "Parameter b1, b3 or b4 is missing");
        const i8 = fields.i8?.split(":");
        const decision = decideAuthorization({
          processor: "finaro",
          card: { pan: fields.b1, expMonth: Number(fields.b3), expYear: 2000 + Number(fields.b4), securityCode: fields.b5 },
          eci: i8?.[0],
          authenticationValue: i8?.[1] && i8[1] !== "none" ? i8[1] : undefined,
          merchantInitiated: fields.a9 === "2" || fields.a9 === "8",
        });
        if (decision.kind === "hang") {
          await holdUntilAborted(signal, hangMs);
          return "hang";
        }
        const isPayout = fields.O === FINARO_OPERATION.payout;
        const transaction = ledger.record({
          account: mid,
          kind: isPayout ? "payout" : "authorization",
          amount,
          currency: fields.a5!,
          approved: decision.kind !== "decline",
          requestId: fields.a1,
        });
        if (decision.kind === "approve_late") {
          await holdUntilAborted(signal, hangMs);
          return "hang";
        }
        if (decision.kind === "decline") {
          return {
            A1: fields.a1 ?? "",
            O: fields.O,
            Z1: transaction.id,
            Z2: "1",
            Z3: "Transaction has been declined by the issuer.",
            Z6: decision.code,
          };
        }
        if (fields.O === FINARO_OPERATION.sale) ledger.capture(mid, transaction.id, amount);
        const declinesCapture = fields.O === FINARO_OPERATION.authorize ? captureDeclineCode(fields.b1) : undefined;
        if (declinesCapture) captureDeclines.set(transaction.id, declinesCapture);
        const answer: Answer = {
          A1: fields.a1 ?? "",
          O: fields.O,
          Z1: transaction.id,
          Z2: "0",
          Z3: "Transaction has been executed successfully.",
          Z4: transaction.authorizationCode!,
          Z6: "00",
        };
        if (!isPayout) {
          answer.Z50 = newSchemeTransactionId();
          const par = sandboxPar(fields.b1);
          if (par) answer.PAR = par;
        }
        return answer;
      }
      case FINARO_OPERATION.retrieve: {
        // Past-transaction retrieval by the a1 of the original request: authorizations, payouts and follow-ups alike.
        const found = fields.g4 ? ledger.lookupRequest(mid, fields.g4) : undefined;
        if (!found) return gatewayError(fields, RETRIEVAL_NOT_FOUND, "12", "Transaction not found");
        const voided = found.kind === "authorization" && ledger.get(mid, found.id)?.voided;
        return {
          A1: fields.a1 ?? "",
          O: fields.O,
          Z1: found.id,
          Z2: found.approved ? "0" : "1",
          Z3: voided ? "Transaction is voided." : "Transaction found.",
          ...(found.approved ? { Z4: found.authorizationCode ?? "", Z6: "00" } : { Z6: found.responseCode }),
          ...(voided ? { VOIDED: "1" } : {}),
        };
      }
      case FINARO_OPERATION.capture: {
        if (!fields.g2) return gatewayError(fields, "-9", "30", "Parameter g2 is missing");
        const declineCode = captureDeclinedWith(mid, fields.g2);
        if (declineCode) {
          // Declined like an authorization: positive Z2, the ISO code in Z6; the ledger is unchanged.
          return {
            A1: fields.a1 ?? "",
            O: fields.O,
            Z1: randomUUID().replace(/-/g, ""),
            Z2: "1",
            Z3: "Capture has been declined.",
            Z6: declineCode,
          };
        }
        return fromLedger(fields, ledger.capture(mid, fields.g2, fields.a4 ? amount : undefined, fields.a5));
      }
      case FINARO_OPERATION.refund:
        if (!fields.g2) return gatewayError(fields, "-9", "30", "Parameter g2 is missing");
        return fromLedger(fields, ledger.refund(mid, fields.g2, fields.a4 ? amount : undefined, fields.a5));
      case FINARO_OPERATION.void:
        if (!fields.g2) return gatewayError(fields, "-9", "30", "Parameter g2 is missing");
        return fromLedger(fields, ledger.void(mid, fields.g2));
      default:
        return gatewayError(fields, "-9", "30", "Parameter O is invalid");
    }
  }

  const handler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/sandbox/card-updates") {
      const parsed = sandboxCardUpdateInput.safeParse(await request.json());
      if (!parsed.success) return Response.json({ error: parsed.error.message }, { status: 400 });
      return Response.json(cardUpdates.add(parsed.data), { status: 201 });
    }
    if (request.method === "GET" && url.pathname === `${FINARO_SANDBOX_PATH}/account-updater`) {
      const query = Object.fromEntries(url.searchParams);
      const { K: presented = "", ...signed } = query;
      const key = keys.get(signed.M ?? "");
      if (!key || !sameSecret(presented, finaroSignature(signed, key)))
        return Response.json({ error: "invalid signature" }, { status: 403 });
      const since = new Date(signed.since ?? 0);
      return Response.json({
        updates: cardUpdates.since(since, signed.M!).map((update) => ({
          id: update.id,
          par: update.par,
          kind: update.kind,
          b3: update.newExpMonth ? String(update.newExpMonth).padStart(2, "0") : undefined,
          b4: update.newExpYear ? String(update.newExpYear % 100).padStart(2, "0") : undefined,
          b1: update.newPan,
          updated_at: update.updatedAt.toISOString(),
        })),
      });
    }
    if (request.method !== "POST" || url.pathname !== FINARO_SANDBOX_PATH) return new Response("not found", { status: 404 });
    const fields = Object.fromEntries(new URLSearchParams(await request.text()));
    const { K: presented = "", ...signed } = fields;
    const key = keys.get(signed.M ?? "");
    if (!key) return reply(gatewayError(signed, "-1", "03", "Invalid merchant"));
    if (!sameSecret(presented, finaroSignature(signed, key))) return reply(gatewayError(signed, "-8", "03", "Invalid signature"));
    const mid = signed.M!;
    const requestKey = signed.a1 ? `${signed.O}:${signed.a1}` : undefined;
    const earlier = requestKey ? ledger.answered<Answer>(mid, requestKey) : undefined;
    if (earlier) return reply(earlier);
    const answer = await process(signed, request.signal);
    if (answer === "hang") return new Response(null, { status: 504 });
    const followUp = FOLLOW_UP_KIND[signed.O ?? ""];
    if (followUp) {
      ledger.noteRequest(mid, signed.a1, {
        kind: followUp,
        id: answer.Z1 ?? "",
        approved: answer.Z2 === "0",
        responseCode: answer.Z6 ?? "",
        authorizationCode: answer.Z4,
        amount: signed.a4 ? Number(signed.a4) : undefined,
      });
    }
    return reply(requestKey ? ledger.remember(mid, requestKey, answer) : answer);
  };

  return { handler, ledger, cardUpdates };
}
