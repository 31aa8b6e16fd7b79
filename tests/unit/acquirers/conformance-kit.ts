// The conformance kit every acquirer module passes (lib/acquirers/README.md): for each money
// operation its connector implements (authorize, capture, refund, void, payout), the module's own
// answer fixtures, served over real HTTP to its real connector, mean what the contract says:
// approved is approved; declined (the issuer or the acquirer said no) is declined; refused (the
// acquirer refused the request itself: a repeat gets the same) is failed and "declined" in class;
// unreadable (a body no reference describes: a proxy's page, a changed API) is failed and
// indeterminate: the acquirer may have acted. The capability table says what the methods are, and
// the credential fields are the schema's.
//
// The cases are the module's fixtures/conformance.json: the sample credentials and currency the
// calls carry, and per operation and outcome either a recorded fixture of the module
// (fixtures/<file>.json, its `response`: `raw` text, form `fields` or a JSON `body`, one `variant` of a list of
// documented bodies, with the HTTP status the fixture names or the case gives) or an answer written
// in the case (`answer`: status, content type and body; an unreadable one needs no reference).
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { z } from "zod";
import { CardDetails } from "@/lib/cards/card-details";
import { OPTIONAL_OPERATIONS, type AcquirerModule, type ConnectorCall, type ProcessorResult } from "@/lib/acquirers/contract";

export const OPERATIONS = ["authorize", "capture", "refund", "void", "payout"] as const;
export type Operation = (typeof OPERATIONS)[number];
export const OUTCOMES = ["approved", "declined", "refused", "unreadable"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** What each outcome must map to: the contract's statuses and failure classes. */
export const EXPECTED: Record<Outcome, Pick<ProcessorResult, "status" | "failure">> = {
  approved: { status: "approved", failure: undefined },
  declined: { status: "declined", failure: "declined" },
  refused: { status: "failed", failure: "declined" },
  unreadable: { status: "failed", failure: "indeterminate" },
};

const answerSchema = z.object({ status: z.number().int(), contentType: z.string(), body: z.string() });
const caseSchema = z.union([
  z.object({
    fixture: z.string(),
    variant: z.number().int().optional(),
    status: z.number().int().optional(),
    contentType: z.string().optional(),
    note: z.string().optional(),
  }),
  z.object({ answer: answerSchema, note: z.string().optional() }),
]);
export const manifestSchema = z.object({
  $comment: z.string().optional(),
  /** Credentials the module's schema takes (samples, never real ones). */
  credentials: z.record(z.string(), z.string()),
  currency: z.string().regex(/^[A-Z]{3}$/),
  /** The content type of the acquirer's JSON answers, where it has its own. */
  jsonContentType: z.string().optional(),
  cases: z.partialRecord(z.enum(OPERATIONS), z.partialRecord(z.enum(OUTCOMES), caseSchema)),
});
export type Manifest = z.infer<typeof manifestSchema>;
type Answer = z.infer<typeof answerSchema>;

/** The module's manifest, from the folder it lives in. */
export function readManifest(moduleDir: string): Manifest {
  return manifestSchema.parse(JSON.parse(readFileSync(path.join(moduleDir, "fixtures/conformance.json"), "utf8")));
}

/** The HTTP answer a case stands for. */
export function answerOf(moduleDir: string, manifest: Manifest, operation: Operation, outcome: Outcome): Answer {
  const entry = manifest.cases[operation]?.[outcome];
  if (!entry) throw new Error(`no ${outcome} case for ${operation}`);
  if ("answer" in entry) return entry.answer;
  const fixture = JSON.parse(readFileSync(path.join(moduleDir, "fixtures", entry.fixture), "utf8")) as {
    response?: { httpStatus?: number | null; raw?: string | null; fields?: Record<string, string>; body?: unknown } | null;
  };
  const response = fixture.response;
  if (!response) throw new Error(`${entry.fixture} records no answer`);
  const status = entry.status ?? response.httpStatus ?? undefined;
  if (status === undefined) throw new Error(`${entry.fixture} names no HTTP status: give the case one`);
  if (typeof response.raw === "string")
    return { status, contentType: entry.contentType ?? "application/x-www-form-urlencoded", body: response.raw };
  // A form answer recorded as its fields only.
  if (response.fields) return { status, contentType: entry.contentType ?? "application/x-www-form-urlencoded", body: new URLSearchParams(response.fields).toString() };
  const body = entry.variant === undefined ? response.body : (response.body as unknown[])[entry.variant];
  if (body === undefined) throw new Error(`${entry.fixture} has no body${entry.variant === undefined ? "" : ` variant ${entry.variant}`}`);
  return { status, contentType: entry.contentType ?? manifest.jsonContentType ?? "application/json", body: JSON.stringify(body) };
}

/** A server that answers every request with `answer()`, for the connector under test. */
export async function answeringServer(answer: () => Answer): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      count += 1;
      const { status, contentType, body } = answer();
      response.writeHead(status, { "content-type": contentType });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The connector of `module` at `baseUrl`, as the registry makes it for a configured (non-sandbox) endpoint. */
export function connectorAt(module: AcquirerModule, baseUrl: string) {
  const variables = module.environment?.variables?.parse({}) ?? {};
  return module.createConnector({ baseUrl, timeoutMs: 5_000, variables });
}

/** The operations the module's connector implements (the optional ones only where present). */
export function implementedOperations(module: AcquirerModule): Operation[] {
  const connector = connectorAt(module, "http://127.0.0.1:9");
  return OPERATIONS.filter((operation) => typeof connector[operation] === "function");
}

const nextYear = new Date().getUTCFullYear() + 2;

/** One call of `operation` with a request every connector can form. */
export function callOperation(module: AcquirerModule, manifest: Manifest, baseUrl: string, operation: Operation): Promise<ProcessorResult> {
  const connector = connectorAt(module, baseUrl);
  const call: ConnectorCall<unknown> = { credentials: module.credentials.schema.parse(manifest.credentials) };
  const money = { amount: 1_000n, currency: manifest.currency };
  const card = new CardDetails({ pan: "4111111111111111", expMonth: 12, expYear: nextYear, securityCode: "123", holderName: "Conformance Kit" });
  const customer = { email: "kit@example.com", firstName: "Conformance", surname: "Kit" };
  const authorization = {
    authorizationReference: "1000001",
    authorizationCode: "123456",
    authorizationOperationId: "0123456789abcdef0123456789abcdef",
    customerIp: "192.0.2.10",
  };
  const operationId = "fedcba9876543210fedcba9876543210";
  switch (operation) {
    case "authorize":
      return connector.authorize({ operationId, paymentId: "payment1", ...money, card, customerIp: "192.0.2.10", customer }, call);
    case "capture":
      return connector.capture({ operationId, ...money, ...authorization }, call);
    case "refund":
      return connector.refund(
        {
          operationId,
          ...money,
          ...authorization,
          captureReference: "1000002",
          capture: { operationId: "00112233445566778899aabbccddeeff", processorReference: "1000002", authorizationCode: "123456" },
        },
        call,
      );
    case "void":
      return connector.void({ operationId, ...money, ...authorization }, call);
    case "payout":
      return connector.payout!({ operationId, paymentId: "payment1", ...money, card: card.withoutSecurityCode(), customer }, call);
  }
}

/** Why the capability table and the connector's optional methods disagree, if they do. */
export function capabilityMismatches(module: AcquirerModule): string[] {
  const connector = connectorAt(module, "http://127.0.0.1:9");
  const said = { payout: module.capabilities.payouts, cardUpdates: module.capabilities.cardUpdates };
  return (Object.keys(OPTIONAL_OPERATIONS) as (keyof typeof OPTIONAL_OPERATIONS)[]).flatMap((operation) => {
    const present = typeof connector[operation] === "function";
    return present === said[operation] ? [] : [`${operation}: capabilities say ${said[operation]}, the connector ${present ? "has" : "lacks"} the method`];
  });
}

/** Why the credential fields and the schema disagree, if they do: every field is a key of the schema, every required key a field. */
export function credentialMismatches(module: AcquirerModule, manifest: Manifest): string[] {
  const problems: string[] = [];
  const fields = module.credentials.fields;
  const parsed = module.credentials.schema.safeParse(manifest.credentials);
  if (!parsed.success) problems.push(`the manifest's sample credentials are refused: ${parsed.error.issues.map((issue) => issue.path.join(".")).join(", ")}`);
  const sample = parsed.success ? (parsed.data as Record<string, unknown>) : {};
  for (const field of fields) {
    if (!field.optional && !(field.key in sample)) problems.push(`required field ${field.key} is not in the sample credentials`);
    if (!field.optional) {
      const without = { ...manifest.credentials };
      delete without[field.key];
      const refused = module.credentials.schema.safeParse(without);
      if (refused.success) problems.push(`required field ${field.key} may be left out`);
      else if (!refused.error.issues.some((issue) => issue.path[0] === field.key)) problems.push(`leaving out ${field.key} is refused without naming it`);
    }
  }
  for (const key of Object.keys(sample)) if (!fields.some((field) => field.key === key)) problems.push(`credential ${key} has no form field`);
  const unknown = module.credentials.schema.safeParse({ ...manifest.credentials, notACredential: "x" });
  if (unknown.success) problems.push("an unknown credential key is taken (the schema should be strict)");
  return problems;
}

/** What the module's connector reads wrongly among its cases (empty when every answer means what it should). */
export async function answerProblems(module: AcquirerModule, moduleDir: string, manifest: Manifest): Promise<string[]> {
  let current: { operation: Operation; outcome: Outcome } = { operation: "authorize", outcome: "approved" };
  const server = await answeringServer(() => answerOf(moduleDir, manifest, current.operation, current.outcome));
  const wrong: string[] = [];
  try {
    for (const operation of implementedOperations(module)) {
      for (const outcome of OUTCOMES) {
        if (!manifest.cases[operation]?.[outcome]) continue;
        current = { operation, outcome };
        const before = server.requests();
        const result = await callOperation(module, manifest, server.url, operation);
        const expected = EXPECTED[outcome];
        if (server.requests() === before) wrong.push(`${operation} ${outcome}: nothing was sent (${result.message ?? result.responsecode})`);
        else if (result.status !== expected.status || result.failure !== expected.failure)
          wrong.push(
            `${operation} ${outcome}: ${result.status}/${result.failure ?? "-"} (${result.message ?? result.responsecode}), expected ${expected.status}/${expected.failure ?? "-"}`,
          );
        else if (!/^[0-9A-Z]{2,3}$/.test(result.responsecode)) wrong.push(`${operation} ${outcome}: response code ${result.responsecode}`);
      }
    }
  } finally {
    await server.close();
  }
  return wrong;
}
