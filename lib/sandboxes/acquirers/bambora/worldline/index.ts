// Worldline Direct sandbox: the server-to-server card API of bambora's Worldline platform as
// Worldline's references describe it (docs/acquirers.md, "Bambora on Worldline Direct", lists every
// answer with its source), never from our connector: `/v2/{merchantId}/payments` (create, get,
// details, capture, refund, cancel, the captures and refunds lists) and `/services/testconnection`;
// the v1HMAC signature checked over what was received, with a Date near the sandbox's clock; the
// merchant id of the path must be the API key's; the X-GCS-Idempotence-Key answered as documented
// (the first outcome for a repeat, 409 while the first still runs); bodies refused as the official
// SDKs' schemas refuse them (no unknown field) and missing properties named one by one; the statuses
// and codes of the platform; the documented test cards. Anything else answers 404 (a sandbox-only
// simplification: the real API has more resources, none of which the service uses). Sandbox-only and
// off unless asked: `sharedTestCards` (the service's scenario cards, answered in Direct's format).
import { randomInt, randomUUID } from "node:crypto";
import { z } from "zod";
import { isLuhnValid } from "../../../../cards/luhn";
import { schemeFromPan } from "../../../../cards/card-scheme";
import { captureDeclineCode, decideAuthorization, findTestCard, withoutPartialApproval, type SandboxDeclineCode } from "../../test-cards";
import { SandboxLedger } from "../../ledger";
import { holdUntilAborted, sameSecret, type FetchHandler } from "../../serve";
import { DEFAULT_HANG_MS, newSchemeTransactionId, sandboxPar } from "../../scheme-data";
import { WORLDLINE_SANDBOX_ACCOUNTS, type WorldlineSandboxAccount } from "./accounts";
import {
  DATE_SKEW_MS,
  DIRECT_DECLINES,
  DIRECT_ERRORS,
  DIRECT_PRODUCTS,
  DIRECT_STATUS,
  DIRECT_TEST_CARDS,
  IDEMPOTENCE_PERIOD_MS,
  type DirectError,
} from "./reference";
import { parseV1HmacAuthorization, v1HmacSignature } from "./v1hmac";

export { WORLDLINE_SANDBOX_ACCOUNTS, worldlineSandboxCredentials, type WorldlineSandboxAccount } from "./accounts";

export interface WorldlineSandboxOptions {
  accounts?: readonly WorldlineSandboxAccount[];
  /** Bounds every hold when the caller never gives up. */
  hangMs?: number;
  /** Sandbox-only, off unless turned on: the service's own test cards (README), answered in Direct's format. */
  sharedTestCards?: boolean;
  /** The clock (Date header checks, expiry); tests move it. */
  now?: () => Date;
}

export interface WorldlineSandbox {
  handler: FetchHandler;
  /** Every payment in minor units, in the shape every sandbox shares, for tests that compare books. */
  ledger: SandboxLedger;
}

type AuthorizationMode = "FINAL_AUTHORIZATION" | "PRE_AUTHORIZATION" | "SALE";

interface Operation {
  id: string;
  kind: "capture" | "refund" | "cancel";
  amount: number;
  merchantReference?: string;
  status: string;
  statusCode: number;
  statusCategory: string;
}

interface Payment {
  id: string;
  account: WorldlineSandboxAccount;
  amount: number;
  currency: string;
  mode: AuthorizationMode;
  merchantReference?: string;
  approved: boolean;
  redirected: boolean;
  errors: DirectError[];
  authorisationCode?: string;
  schemeReferenceData?: string;
  card: { masked: string; bin: string; expiryDate: string; productId: number; pan: string };
  threeDs?: { eci: number; version?: string };
  captured: number;
  refunded: number;
  cancelled: number;
  operations: Operation[];
  nextOperation: number;
}

// ---- Request bodies, as the SDKs' schemas allow them (schemas/*.json: additionalProperties false) ----

const amountOfMoney = z.object({ amount: z.number().int().min(0).optional(), currencyCode: z.string().optional() }).strict();
const references = z
  .object({
    merchantReference: z.string().max(40).optional(),
    descriptor: z.string().optional(),
    merchantParameters: z.string().optional(),
    operationGroupReference: z.string().optional(),
  })
  .strict();
const card = z
  .object({
    cardNumber: z.string().optional(),
    expiryDate: z.string().optional(),
    cvv: z.string().optional(),
    cardholderName: z.string().optional(),
  })
  .strict();
const external = z
  .object({
    acsTransactionId: z.string().optional(),
    appliedExemption: z.string().optional(),
    cavv: z.string().optional(),
    cavvAlgorithm: z.string().optional(),
    directoryServerTransactionId: z.string().optional(),
    eci: z.number().int().min(0).max(7).optional(),
    flow: z.string().optional(),
    schemeRiskScore: z.number().int().optional(),
    threeDSecureVersion: z.string().optional(),
    xid: z.string().optional(),
  })
  .strict();
const threeDSecure = z
  .object({
    authenticationAmount: z.number().int().optional(),
    challengeCanvasSize: z.string().optional(),
    challengeIndicator: z.string().optional(),
    exemptionRequest: z.string().optional(),
    externalCardholderAuthenticationData: external.optional(),
    redirectionData: z.object({ returnUrl: z.string().optional() }).strict().optional(),
    skipAuthentication: z.boolean().optional(),
    skipSoftDecline: z.boolean().optional(),
  })
  .strict();
const cardInput = z
  .object({
    authorizationMode: z.enum(["FINAL_AUTHORIZATION", "PRE_AUTHORIZATION", "SALE"]).optional(),
    card: card.optional(),
    initialSchemeTransactionId: z.string().optional(),
    schemeReferenceData: z.string().optional(),
    isRecurring: z.boolean().optional(),
    recurring: z
      .object({ recurringPaymentSequenceIndicator: z.enum(["first", "recurring"]).optional() })
      .strict()
      .optional(),
    paymentProductId: z.number().int().optional(),
    returnUrl: z.string().optional(),
    skipAuthentication: z.boolean().optional(),
    threeDSecure: threeDSecure.optional(),
    token: z.string().optional(),
    tokenize: z.boolean().optional(),
    transactionChannel: z.enum(["ECOMMERCE", "MOTO"]).optional(),
    unscheduledCardOnFileRequestor: z.enum(["merchantInitiated", "cardholderInitiated"]).optional(),
    unscheduledCardOnFileSequenceIndicator: z.enum(["first", "subsequent"]).optional(),
  })
  .strict();
const createPayment = z
  .object({
    cardPaymentMethodSpecificInput: cardInput.optional(),
    order: z
      .object({
        amountOfMoney: amountOfMoney.optional(),
        references: references.optional(),
        customer: z.record(z.string(), z.unknown()).optional(),
        shipping: z.record(z.string(), z.unknown()).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
const operationReferences = z
  .object({ merchantReference: z.string().max(40).optional(), operationGroupReference: z.string().optional() })
  .strict();
const captureBody = z
  .object({
    amount: z.number().int().optional(),
    isFinal: z.boolean().optional(),
    operationReferences: operationReferences.optional(),
    references: references.optional(),
  })
  .strict();
const refundBody = z
  .object({
    amountOfMoney: amountOfMoney.optional(),
    isFinal: z.boolean().optional(),
    operationReferences: operationReferences.optional(),
    references: references.optional(),
    reason: z.string().optional(),
    captureId: z.string().optional(),
  })
  .strict();
const cancelBody = z
  .object({ amountOfMoney: amountOfMoney.optional(), isFinal: z.boolean().optional(), operationReferences: operationReferences.optional() })
  .strict();

/** The service's scenario decline codes in Direct's codes. */
const SHARED_DECLINES: Record<SandboxDeclineCode, DirectError> = {
  "05": DIRECT_DECLINES.declined,
  "14": DIRECT_DECLINES.invalidCardNumber,
  "51": DIRECT_DECLINES.insufficientFunds,
  "54": DIRECT_DECLINES.expiredCard,
  "1A": DIRECT_DECLINES.authenticationRequired,
  N7: DIRECT_DECLINES.cvcInvalid,
  // Direct's reference names no stop-order error of its own: the issuer's decline, as Direct answers it.
  R1: DIRECT_DECLINES.declined,
};

function errorBody(errors: readonly (DirectError & { propertyName?: string })[]): Record<string, unknown> {
  return { errorId: randomUUID(), errors: errors.map((entry) => ({ ...entry, retriable: entry.retriable ?? false })) };
}

function errorResponse(errors: readonly (DirectError & { propertyName?: string })[]): Response {
  return Response.json(errorBody(errors), { status: errors[0]!.httpStatusCode });
}

const withProperty = (entry: DirectError, propertyName: string) => ({ ...entry, propertyName });

/** A zod failure as Direct names it: a field the schema does not know, or a value of the wrong form. */
function schemaErrors(issues: z.ZodError["issues"]): (DirectError & { propertyName?: string })[] {
  return issues.slice(0, 10).map((issue) => {
    const path = issue.path.join(".");
    if (issue.code === "unrecognized_keys")
      return withProperty(
        { ...DIRECT_ERRORS.invalidValue, message: `not a property of this request: ${issue.keys.join(", ")}` },
        path || "body",
      );
    return withProperty({ ...DIRECT_ERRORS.invalidValue, message: issue.message }, path || "body");
  });
}

export function createWorldlineSandbox(options: WorldlineSandboxOptions = {}): WorldlineSandbox {
  const accounts = options.accounts ?? WORLDLINE_SANDBOX_ACCOUNTS;
  const hangMs = options.hangMs ?? DEFAULT_HANG_MS;
  const now = options.now ?? (() => new Date());
  const payments = new Map<string, Payment>();
  const ledger = new SandboxLedger();
  let nextPayment = randomInt(3_000_000_000, 3_900_000_000);
  /** Answers by (merchant, idempotence key): a promise while the first request runs. */
  const idempotent = new Map<string, { at: number; answer?: { status: number; headers: [string, string][]; body: string } }>();

  function authenticate(request: Request, merchantId: string): WorldlineSandboxAccount | Response {
    const url = new URL(request.url);
    const presented = parseV1HmacAuthorization(request.headers.get("authorization"));
    const account = presented ? accounts.find((candidate) => candidate.apiKeyId === presented.apiKeyId) : undefined;
    const date = request.headers.get("date");
    const sent = date ? Date.parse(date) : Number.NaN;
    if (!presented || !account || !date || Number.isNaN(sent) || Math.abs(now().getTime() - sent) > DATE_SKEW_MS)
      return errorResponse([DIRECT_ERRORS.authorization]);
    const expected = v1HmacSignature(
      {
        method: request.method,
        contentType: request.headers.get("content-type"),
        date,
        headers: request.headers,
        pathAndQuery: `${url.pathname}${url.search}`,
      },
      account.secretApiKey,
    );
    if (!sameSecret(presented.signature, expected)) return errorResponse([DIRECT_ERRORS.authorization]);
    // The API key belongs to one PSPID: another merchant id in the path is refused (PHP SDK: 403).
    if (account.merchantId !== merchantId) return errorResponse([DIRECT_ERRORS.authorization]);
    return account;
  }

  function paymentView(payment: Payment): Record<string, unknown> {
    const status = paymentStatus(payment);
    const open = payment.amount - payment.captured - payment.cancelled;
    return {
      id: payment.id,
      status: status.status,
      statusOutput: {
        ...(payment.errors.length ? { errors: payment.errors.map((entry) => ({ ...entry, retriable: false })) } : {}),
        isAuthorized: payment.approved && status === DIRECT_STATUS.pendingCapture,
        isCancellable: payment.approved && payment.mode !== "FINAL_AUTHORIZATION" && open > 0 && status !== DIRECT_STATUS.cancelled,
        isRefundable: payment.captured - payment.refunded > 0,
        statusCategory: status.statusCategory,
        statusCode: status.statusCode,
      },
      paymentOutput: {
        amountOfMoney: { amount: payment.amount, currencyCode: payment.currency },
        acquiredAmount: { amount: payment.captured, currencyCode: payment.currency },
        ...(payment.merchantReference ? { references: { merchantReference: payment.merchantReference } } : {}),
        paymentMethod: "card",
        cardPaymentMethodSpecificOutput: {
          paymentProductId: payment.card.productId,
          ...(payment.authorisationCode ? { authorisationCode: payment.authorisationCode } : {}),
          card: { cardNumber: payment.card.masked, expiryDate: payment.card.expiryDate, bin: payment.card.bin },
          fraudResults: { fraudServiceResult: "no-advice", avsResult: "0", cvvResult: "0" },
          ...(payment.threeDs
            ? {
                threeDSecureResults: {
                  eci: String(payment.threeDs.eci),
                  ...(payment.threeDs.version ? { version: payment.threeDs.version } : {}),
                },
              }
            : {}),
          ...(payment.schemeReferenceData ? { schemeReferenceData: payment.schemeReferenceData } : {}),
          ...(payment.approved && sandboxPar(payment.card.pan) ? { paymentAccountReference: sandboxPar(payment.card.pan) } : {}),
        },
      },
    };
  }

  function paymentStatus(payment: Payment) {
    if (payment.redirected) return DIRECT_STATUS.redirected;
    if (!payment.approved) return DIRECT_STATUS.rejected;
    if (payment.refunded > 0 && payment.refunded >= payment.captured) return DIRECT_STATUS.refunded;
    if (payment.captured > 0 && payment.captured + payment.cancelled >= payment.amount) return DIRECT_STATUS.captured;
    if (payment.cancelled > 0 && payment.captured === 0) return DIRECT_STATUS.cancelled;
    return DIRECT_STATUS.pendingCapture;
  }

  function operationView(payment: Payment, operation: Operation): Record<string, unknown> {
    return {
      id: operation.id,
      amountOfMoney: { amount: operation.amount, currencyCode: payment.currency },
      status: operation.status,
      statusOutput: { statusCode: operation.statusCode, statusCategory: operation.statusCategory },
      paymentMethod: "card",
      ...(operation.merchantReference ? { operationReferences: { merchantReference: operation.merchantReference } } : {}),
    };
  }

  function addOperation(payment: Payment, input: Omit<Operation, "id">): Operation {
    const operation = { ...input, id: `${payment.id.split("_")[0]}_${payment.nextOperation++}` };
    payment.operations.push(operation);
    return operation;
  }

  /** The properties CreatePayment cannot do without, each named (one error per missing property). */
  function missingProperties(body: z.infer<typeof createPayment>): string[] {
    const input = body.cardPaymentMethodSpecificInput;
    const missing: string[] = [];
    if (body.order?.amountOfMoney?.amount === undefined) missing.push("order.amountOfMoney.amount");
    if (!body.order?.amountOfMoney?.currencyCode) missing.push("order.amountOfMoney.currencyCode");
    if (!input) return [...missing, "cardPaymentMethodSpecificInput"];
    if (input.paymentProductId === undefined) missing.push("cardPaymentMethodSpecificInput.paymentProductId");
    if (!input.card?.cardNumber) missing.push("cardPaymentMethodSpecificInput.card.cardNumber");
    if (!input.card?.expiryDate) missing.push("cardPaymentMethodSpecificInput.card.expiryDate");
    // "cavv ... This is mandatory for ECI 2 and 5."
    const externalData = input.threeDSecure?.externalCardholderAuthenticationData;
    if (externalData && externalData.eci === undefined)
      missing.push("cardPaymentMethodSpecificInput.threeDSecure.externalCardholderAuthenticationData.eci");
    if (externalData && (externalData.eci === 2 || externalData.eci === 5) && !externalData.cavv)
      missing.push("cardPaymentMethodSpecificInput.threeDSecure.externalCardholderAuthenticationData.cavv");
    return missing;
  }

  /** An answer, and whether the caller hears it: "late" acted but answers only after the caller gave up; "hang" did nothing. */
  interface Outcome {
    response: Response;
    delivery?: "late" | "hang";
  }

  async function create(account: WorldlineSandboxAccount, json: unknown, request: Request): Promise<Outcome> {
    const parsed = createPayment.safeParse(json);
    if (!parsed.success) return { response: errorResponse(schemaErrors(parsed.error.issues)) };
    const body = parsed.data;
    const missing = missingProperties(body);
    if (missing.length) return { response: errorResponse(missing.map((name) => withProperty(DIRECT_ERRORS.parameterNotFound, name))) };
    const input = body.cardPaymentMethodSpecificInput!;
    const amount = body.order!.amountOfMoney!.amount!;
    const currency = body.order!.amountOfMoney!.currencyCode!;
    const pan = input.card!.cardNumber!;
    const expiry = input.card!.expiryDate!;
    if (!account.currencies.includes(currency))
      return { response: errorResponse([withProperty(DIRECT_ERRORS.currencyNotAccepted, "order.amountOfMoney.currencyCode")]) };
    if (!/^\d{12,19}$/.test(pan))
      return { response: errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "cardPaymentMethodSpecificInput.card.cardNumber")]) };
    if (!isLuhnValid(pan))
      return { response: errorResponse([withProperty(DIRECT_ERRORS.luhnCheck, "cardPaymentMethodSpecificInput.card.cardNumber")]) };
    if (!/^(0[1-9]|1[0-2])\d{2}$/.test(expiry))
      return { response: errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "cardPaymentMethodSpecificInput.card.expiryDate")]) };
    if (input.card!.cvv !== undefined && !/^\d{3,4}$/.test(input.card!.cvv))
      return { response: errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "cardPaymentMethodSpecificInput.card.cvv")]) };
    const expiryEnd = new Date(Date.UTC(2000 + Number(expiry.slice(2)), Number(expiry.slice(0, 2)), 1));
    if (expiryEnd <= now())
      return { response: errorResponse([withProperty(DIRECT_ERRORS.expired, "cardPaymentMethodSpecificInput.card.expiryDate")]) };
    const productId = input.paymentProductId!;
    if (!account.products.includes(productId))
      return {
        response: errorResponse([withProperty(DIRECT_ERRORS.brandNotSupported, "cardPaymentMethodSpecificInput.paymentProductId")]),
      };
    // "This property is not allowed if isRecurring is true."
    if (input.isRecurring && (input.unscheduledCardOnFileRequestor || input.unscheduledCardOnFileSequenceIndicator))
      return {
        response: errorResponse([
          withProperty(DIRECT_ERRORS.invalidValue, "cardPaymentMethodSpecificInput.unscheduledCardOnFileRequestor"),
        ]),
      };
    // A merchant-initiated payment continues a series: it is never its first.
    if (input.unscheduledCardOnFileRequestor === "merchantInitiated" && input.unscheduledCardOnFileSequenceIndicator !== "subsequent")
      return {
        response: errorResponse([
          withProperty(DIRECT_ERRORS.invalidValue, "cardPaymentMethodSpecificInput.unscheduledCardOnFileSequenceIndicator"),
        ]),
      };
    const merchantInitiated =
      input.unscheduledCardOnFileRequestor === "merchantInitiated" || input.recurring?.recurringPaymentSequenceIndicator === "recurring";
    const externalData = input.threeDSecure?.externalCardholderAuthenticationData;
    const skip = input.threeDSecure?.skipAuthentication ?? input.skipAuthentication ?? false;
    const mode: AuthorizationMode = input.authorizationMode ?? "PRE_AUTHORIZATION";
    const id = `${nextPayment++}_0`;
    const payment: Payment = {
      id,
      account,
      amount,
      currency,
      mode,
      merchantReference: body.order!.references?.merchantReference,
      approved: false,
      redirected: false,
      errors: [],
      card: { masked: `${"*".repeat(pan.length - 4)}${pan.slice(-4)}`, bin: pan.slice(0, 6), expiryDate: expiry, productId, pan },
      ...(externalData ? { threeDs: { eci: externalData.eci!, version: externalData.threeDSecureVersion } } : {}),
      captured: 0,
      refunded: 0,
      cancelled: 0,
      operations: [],
      nextOperation: 1,
    };
    // Neither a result of our own nor a skip: the platform authenticates the cardholder itself and
    // sends the merchant to redirect them. Nothing is authorized.
    if (!externalData && !skip && !merchantInitiated) {
      payment.redirected = true;
      payments.set(id, payment);
      // Sandbox-only: the platform's own 3-D Secure is not simulated; the redirect leads nowhere.
      return {
        response: Response.json({ payment: paymentView(payment), merchantAction: { actionType: "REDIRECT" } }, { status: 201 }),
      };
    }
    const decision = decide(pan, productId, amount, expiry, input.card!.cvv, externalData, merchantInitiated);
    if (decision.kind === "hang") return { response: new Response(null, { status: 504 }), delivery: "hang" };
    if (decision.kind === "decline") {
      payment.errors = [decision.error];
      payments.set(id, payment);
      ledger.record({
        id,
        account: account.merchantId,
        kind: "authorization",
        amount,
        currency,
        approved: false,
        requestId: payment.merchantReference,
      });
      const paymentResult = { payment: paymentView(payment) };
      return { response: Response.json({ ...errorBody([decision.error]), paymentResult }, { status: decision.error.httpStatusCode }) };
    }
    payment.approved = true;
    payment.authorisationCode = String(randomInt(100000, 999999));
    payment.schemeReferenceData = merchantInitiated
      ? (input.initialSchemeTransactionId ?? newSchemeTransactionId())
      : newSchemeTransactionId();
    payments.set(id, payment);
    ledger.record({
      id,
      account: account.merchantId,
      kind: "authorization",
      amount,
      currency,
      approved: true,
      authorizationCode: payment.authorisationCode,
      requestId: payment.merchantReference,
      storedCredential: Object.fromEntries(
        Object.entries({
          unscheduledCardOnFileRequestor: input.unscheduledCardOnFileRequestor,
          unscheduledCardOnFileSequenceIndicator: input.unscheduledCardOnFileSequenceIndicator,
          initialSchemeTransactionId: input.initialSchemeTransactionId,
          isRecurring: input.isRecurring === undefined ? undefined : String(input.isRecurring),
        }).filter((pair): pair is [string, string] => pair[1] !== undefined),
      ),
    });
    if (mode === "SALE") {
      payment.captured = amount;
      ledger.capture(account.merchantId, id, amount, currency);
    }
    const location = `${new URL(request.url).origin}/v2/${account.merchantId}/payments/${id}`;
    const response = Response.json({ payment: paymentView(payment) }, { status: 201, headers: { location } });
    // Processed now; the caller hears nothing (it gave up first), a repeat with the key does.
    return decision.kind === "late" ? { response, delivery: "late" } : { response };
  }

  type Decision = { kind: "approve" } | { kind: "late" } | { kind: "hang" } | { kind: "decline"; error: DirectError };

  function decide(
    pan: string,
    productId: number,
    amount: number,
    expiry: string,
    cvv: string | undefined,
    externalData: z.infer<typeof external> | undefined,
    merchantInitiated: boolean,
  ): Decision {
    // The product must be the card's: a number of another brand (or none) is no card of it.
    const scheme = schemeFromPan(pan);
    const documented = DIRECT_TEST_CARDS[pan];
    const productScheme = (Object.entries(DIRECT_PRODUCTS).find(([, id]) => id === productId)?.[0] ?? "") as
      keyof typeof DIRECT_PRODUCTS | "";
    const matchesProduct =
      productScheme === "dankort" ? /^(5019|4571)/.test(pan) : documented ? documented.product === productScheme : scheme === productScheme;
    if (!matchesProduct) return { kind: "decline", error: DIRECT_DECLINES.cardIncompatible };
    if (documented) return documented.approve ? { kind: "approve" } : { kind: "decline", error: DIRECT_DECLINES.declined };
    if (!options.sharedTestCards || !findTestCard(pan)) return { kind: "approve" };
    const decision = decideAuthorization({
      processor: "bambora",
      card: { pan, expMonth: Number(expiry.slice(0, 2)), expYear: 2000 + Number(expiry.slice(2)), securityCode: cvv },
      eci: externalData?.eci === undefined ? undefined : String(externalData.eci).padStart(2, "0"),
      authenticationValue: externalData?.cavv,
      merchantInitiated,
      amount,
      now: now(),
    });
    // Direct documents no partial approval.
    const outcome = withoutPartialApproval(decision);
    return outcome.kind === "decline" ? { kind: "decline", error: SHARED_DECLINES[outcome.code] } : outcome;
  }

  function capture(payment: Payment, json: unknown): Response {
    const parsed = captureBody.safeParse(json ?? {});
    if (!parsed.success) return errorResponse(schemaErrors(parsed.error.issues));
    const open = payment.amount - payment.captured - payment.cancelled;
    if (!payment.approved || paymentStatus(payment) !== DIRECT_STATUS.pendingCapture || open <= 0)
      return errorResponse([DIRECT_ERRORS.wrongStatus]);
    // "If left empty, the full amount will be captured and the request will be final."
    const amount = parsed.data.amount ?? open;
    if (amount <= 0) return errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "amount")]);
    // "The amount can be lower than the amount that was authorized, but not higher."
    if (amount > open) return errorResponse([withProperty(DIRECT_ERRORS.captureOverflow, "amount")]);
    // A final authorization "need[s] to be captured for the full amount".
    if (payment.mode === "FINAL_AUTHORIZATION" && amount !== open)
      return errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "amount")]);
    if (options.sharedTestCards && captureDeclineCode(payment.card.pan)) return errorResponse([DIRECT_DECLINES.declined]);
    const result = ledger.capture(payment.account.merchantId, payment.id, amount, payment.currency);
    if (!result.ok) return errorResponse([DIRECT_ERRORS.wrongStatus]);
    payment.captured += amount;
    // "If the full amount should not [be] captured but the property is set to true, the remaining amount will automatically be cancelled."
    if (parsed.data.isFinal && payment.amount - payment.captured - payment.cancelled > 0)
      payment.cancelled = payment.amount - payment.captured;
    const operation = addOperation(payment, {
      kind: "capture",
      amount,
      merchantReference: parsed.data.operationReferences?.merchantReference,
      ...DIRECT_STATUS.captureRequested,
    });
    return Response.json(
      {
        captureOutput: {
          amountOfMoney: { amount, currencyCode: payment.currency },
          ...(operation.merchantReference ? { operationReferences: { merchantReference: operation.merchantReference } } : {}),
          paymentMethod: "card",
        },
        id: operation.id,
        status: operation.status,
        statusOutput: { statusCode: operation.statusCode },
      },
      { status: 200 },
    );
  }

  function refund(payment: Payment, json: unknown): Response {
    const parsed = refundBody.safeParse(json ?? {});
    if (!parsed.success) return errorResponse(schemaErrors(parsed.error.issues));
    const money = parsed.data.amountOfMoney;
    const missing = [
      ...(money?.amount === undefined ? ["amountOfMoney.amount"] : []),
      ...(money?.currencyCode ? [] : ["amountOfMoney.currencyCode"]),
    ];
    if (missing.length) return errorResponse(missing.map((name) => withProperty(DIRECT_ERRORS.parameterNotFound, name)));
    if (money!.currencyCode !== payment.currency)
      return errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "amountOfMoney.currencyCode")]);
    const amount = money!.amount!;
    if (amount <= 0) return errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "amountOfMoney.amount")]);
    if (payment.captured === 0) return errorResponse([DIRECT_ERRORS.wrongStatus]);
    if (amount > payment.captured - payment.refunded)
      return errorResponse([withProperty(DIRECT_ERRORS.refundOverflow, "amountOfMoney.amount")]);
    const result = ledger.refund(payment.account.merchantId, payment.id, amount, payment.currency);
    if (!result.ok) return errorResponse([DIRECT_ERRORS.wrongStatus]);
    payment.refunded += amount;
    const operation = addOperation(payment, {
      kind: "refund",
      amount,
      merchantReference: parsed.data.operationReferences?.merchantReference,
      ...DIRECT_STATUS.refundRequested,
    });
    return Response.json(
      {
        id: operation.id,
        refundOutput: {
          amountOfMoney: { amount, currencyCode: payment.currency },
          ...(operation.merchantReference ? { operationReferences: { merchantReference: operation.merchantReference } } : {}),
          paymentMethod: "card",
        },
        status: operation.status,
        statusOutput: { isCancellable: false, statusCategory: operation.statusCategory, statusCode: operation.statusCode },
      },
      { status: 201 },
    );
  }

  function cancel(payment: Payment, json: unknown): Response {
    const parsed = cancelBody.safeParse(json ?? {});
    if (!parsed.success) return errorResponse(schemaErrors(parsed.error.issues));
    const open = payment.amount - payment.captured - payment.cancelled;
    // "Final authorizations can't be reversed."
    if (!payment.approved || payment.mode === "FINAL_AUTHORIZATION" || open <= 0 || paymentStatus(payment) !== DIRECT_STATUS.pendingCapture)
      return errorResponse([DIRECT_ERRORS.wrongStatus]);
    const money = parsed.data.amountOfMoney;
    if (money?.currencyCode !== undefined && money.currencyCode !== payment.currency)
      return errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "amountOfMoney.currencyCode")]);
    const amount = money?.amount ?? open;
    if (amount <= 0 || amount > open) return errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "amountOfMoney.amount")]);
    if (payment.captured === 0 && amount === open) {
      const result = ledger.void(payment.account.merchantId, payment.id);
      if (!result.ok) return errorResponse([DIRECT_ERRORS.wrongStatus]);
    }
    payment.cancelled += amount;
    addOperation(payment, {
      kind: "cancel",
      amount,
      merchantReference: parsed.data.operationReferences?.merchantReference,
      ...DIRECT_STATUS.cancelled,
    });
    return Response.json({ payment: paymentView(payment) }, { status: 200 });
  }

  /** Holds an answer the caller must not hear: until it gives up (or the hold's bound). */
  async function deliver(request: Request, outcome: Outcome): Promise<Response> {
    if (!outcome.delivery) return outcome.response;
    await holdUntilAborted(request.signal, hangMs);
    return new Response(null, { status: 504 });
  }

  /**
   * The idempotence key's slot ("Idempotent requests"): a repeat gets the first request's outcome,
   * "even with different payloads", with X-GCS-Idempotence-Request-Timestamp; while the first still
   * runs, 409. A request that did nothing (the acquirer never answered) leaves no outcome to replay.
   */
  async function idempotently(request: Request, account: WorldlineSandboxAccount, act: () => Promise<Outcome>): Promise<Response> {
    const key = request.headers.get("x-gcs-idempotence-key");
    if (key === null) return deliver(request, await act());
    // "Has a maximum length of 40 characters. Should be ASCII compliant."
    if (!/^[\x20-\x7e]{1,40}$/.test(key)) return errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "X-GCS-Idempotence-Key")]);
    const slot = `${account.merchantId}\n${key}`;
    const at = now().getTime();
    const existing = idempotent.get(slot);
    if (existing && at - existing.at < IDEMPOTENCE_PERIOD_MS) {
      if (!existing.answer) return errorResponse([DIRECT_ERRORS.idempotenceInProgress]);
      const headers = new Headers(existing.answer.headers);
      // "our response includes an additional header, X-GCS-Idempotence-Request-Timestamp" (ms since 1970).
      headers.set("x-gcs-idempotence-request-timestamp", String(existing.at));
      return new Response(existing.answer.body, { status: existing.answer.status, headers });
    }
    const entry: { at: number; answer?: { status: number; headers: [string, string][]; body: string } } = { at };
    idempotent.set(slot, entry);
    const outcome = await act();
    if (outcome.delivery === "hang") {
      const response = await deliver(request, outcome);
      idempotent.delete(slot);
      return response;
    }
    entry.answer = { status: outcome.response.status, headers: [...outcome.response.headers], body: await outcome.response.clone().text() };
    return deliver(request, outcome);
  }

  const handler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    const match = /^\/v2\/([^/]+)\/(payments|services)(?:\/([^/]+))?(?:\/([^/]+))?$/.exec(url.pathname);
    if (!match) return Response.json(errorBody([{ ...DIRECT_ERRORS.unknownPayment, message: "not found" }]), { status: 404 });
    const [, merchantId = "", resource, first, action] = match;
    const account = authenticate(request, decodeURIComponent(merchantId));
    if (account instanceof Response) return account;
    if (resource === "services") {
      if (first === "testconnection" && !action && request.method === "GET") return Response.json({ result: "OK" });
      return Response.json(errorBody([{ ...DIRECT_ERRORS.unknownPayment, message: "not found" }]), { status: 404 });
    }
    const isPost = request.method === "POST";
    let json: unknown = undefined;
    if (isPost) {
      if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json"))
        return errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "Content-Type")]);
      const text = await request.text();
      try {
        json = text ? JSON.parse(text) : {};
      } catch {
        return errorResponse([withProperty(DIRECT_ERRORS.invalidValue, "body")]);
      }
    }
    if (!first) {
      if (!isPost) return Response.json(errorBody([{ ...DIRECT_ERRORS.unknownPayment, message: "not found" }]), { status: 404 });
      return idempotently(request, account, () => create(account, json, request));
    }
    const payment = payments.get(first);
    if (!payment || payment.account !== account) return errorResponse([withProperty(DIRECT_ERRORS.unknownPayment, "paymentId")]);
    if (!isPost) {
      if (!action) return Response.json(paymentView(payment));
      if (action === "details")
        return Response.json({
          ...paymentView(payment),
          operations: payment.operations.map((operation) => operationView(payment, operation)),
        });
      if (action === "captures")
        return Response.json({
          captures: payment.operations
            .filter((operation) => operation.kind === "capture")
            .map((operation) => operationView(payment, operation)),
        });
      if (action === "refunds")
        return Response.json({
          refunds: payment.operations
            .filter((operation) => operation.kind === "refund")
            .map((operation) => operationView(payment, operation)),
        });
      return Response.json(errorBody([{ ...DIRECT_ERRORS.unknownPayment, message: "not found" }]), { status: 404 });
    }
    switch (action) {
      case "capture":
        return idempotently(request, account, async () => ({ response: capture(payment, json) }));
      case "refund":
        return idempotently(request, account, async () => ({ response: refund(payment, json) }));
      case "cancel":
        return idempotently(request, account, async () => ({ response: cancel(payment, json) }));
      default:
        return Response.json(errorBody([{ ...DIRECT_ERRORS.unknownPayment, message: "not found" }]), { status: 404 });
    }
  };

  return { handler, ledger };
}
