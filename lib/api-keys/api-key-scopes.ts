// What an API key may do (review 3, M7; Stripe's restricted keys): each merchant-API route names the
// one scope it needs (lib/api/merchant-route.ts), checked with the key. A key is chosen with the
// scopes its system needs, so a leaked web-shop key cannot pay money out.
import { z } from "zod";

export const API_KEY_SCOPES = ["payments", "follow-ups", "payouts", "read", "disputes"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, { label: string; routes: string }> = {
  payments: { label: "Payments", routes: "initdynamic, mit" },
  "follow-ups": { label: "Follow-ups", routes: "capture, refund, void" },
  payouts: { label: "Payouts", routes: "payout (money out to a stored card)" },
  read: { label: "Read", routes: "payment details, disputes (list and read)" },
  disputes: { label: "Disputes", routes: "dispute evidence and decisions (refute, accept)" },
};

/**
 * A new key's scopes when none are chosen (CLI): everything but payouts and disputes, which are
 * asked for by name (an answer to a dispute is final at the acquirer, like money paid out).
 */
export const DEFAULT_NEW_KEY_SCOPES: readonly ApiKeyScope[] = ["payments", "follow-ups", "read"];

export const apiKeyScopesSchema = z
  .array(z.enum(API_KEY_SCOPES, { error: `Use scopes from: ${API_KEY_SCOPES.join(", ")}` }))
  .min(1, "Choose at least one scope")
  .transform((scopes) => API_KEY_SCOPES.filter((scope) => scopes.includes(scope)));

/** "payments,read" (the CLI's --scopes) as scopes. */
export function parseScopeList(list: string): ApiKeyScope[] {
  return apiKeyScopesSchema.parse(
    list
      .split(",")
      .map((scope) => scope.trim())
      .filter(Boolean),
  );
}
