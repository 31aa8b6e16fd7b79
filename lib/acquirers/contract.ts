// The connector contract every acquirer module implements (./<name>/client.ts), and the module
// itself (AcquirerModule, registered in ./index.ts). Requests are in our shape; each connector maps
// them to its acquirer's wire format and the answer back to ProcessorResult. Connectors are
// stateless plumbing (./plumbing) around pure transformers. An optional method is a capability: a
// connector without it has an acquirer that does not offer it, and the bound connector answers the
// one default refusal (refusalOf) instead.
import type { z } from "zod";
import type { Mode } from "../mode";
import type { CardDetails } from "../cards/card-details";
import type { AcquirerName } from "./names";

/** Integer minor units with an ISO 4217 alpha-3 currency. */
export interface Money {
  amount: bigint;
  currency: string;
}

/** The MIT kinds of the spec (`paymenttype` of /api/mit). */
export type MitPaymentType = "incremental" | "scheduled" | "unscheduled";

/**
 * Stored-credential ("credential on file") framing of an authorization.
 * - A cardholder payment whose card is kept for later sends `{ initiator: "cardholder", storeCredential: true }`;
 *   one paid by the cardholder with an already stored card sends `{ initiator: "cardholder", storeCredential: false, usesStoredCredential: true }`.
 * - A merchant-initiated payment sends `{ initiator: "merchant", paymentType, previousSchemeTransactionId }`.
 */
export type CredentialOnFile =
  | {
      initiator: "cardholder";
      storeCredential: boolean;
      usesStoredCredential?: boolean;
      /** The acquirer's own id of the stored-credential series, when the series started on the same account (Bambora NA `series_id`). */
      previousCredentialSeriesId?: string;
    }
  | {
      initiator: "merchant";
      paymentType: MitPaymentType;
      /** The scheme's transaction id of the first (cardholder-authenticated) payment of the series. */
      previousSchemeTransactionId?: string;
      /** The acquirer's own id of the latest approved authorization in the series, when it was this acquirer. */
      previousProcessorReference?: string;
    };

/** The outcome of an EMV 3-D Secure authentication, as passed on to the acquirer. */
export interface ThreeDsResult {
  /** 2 digits: 05/06 (Visa, Amex) or 02/01 (Mastercard). */
  eci: string;
  /** CAVV / AAV, base64. Absent only for transStatus values that carry none. */
  authenticationValue?: string;
  dsTransId?: string;
  threeDsServerTransId?: string;
  acsTransId?: string;
  /** EMV 3DS message version, e.g. "2.2.0". */
  version: string;
  /** Y or A (only those are sent to an acquirer). */
  transStatus: "Y" | "A";
  /** The message the result came in: the ARes (frictionless) or the RReq (after a challenge). */
  messageType: "ARes" | "RReq";
  /** The ARes or RReq whole, as JSON text (no card data): Clearhaus takes it as `card[3dsecure][v2][ares|rreq]`. */
  message?: string;
  /** The acquirer account whose BIN and merchant id the AReq carried: the only one this result may authorize at. */
  acquirerAccountId?: string;
  /** Our ThreeDsAuthentication row: the attempt that uses the result names it. */
  authenticationId?: string;
}

/** What we know of the cardholder (or, for a payout, the recipient): the spec's `customer` object, the payout's names. */
export interface CustomerData {
  email?: string;
  firstName?: string;
  surname?: string;
}

export interface AuthorizeRequest extends Money {
  /** Our operation id; sent as the acquirer's request/order reference so a time-out can be reconciled. */
  operationId: string;
  /** Our payment id (the acquirer's order reference). */
  paymentId: string;
  /** Card data in memory; for a stored card the caller decrypts it into the same type (no security code). */
  card: CardDetails;
  credentialOnFile?: CredentialOnFile;
  threeDs?: ThreeDsResult;
  /** The payment's own text on the cardholder's statement (absent: the account's descriptor applies). */
  textOnStatement?: string;
  /** The acquirer account's descriptor (the merchant's name as the cardholder sees it, Finaro's DBA). */
  descriptor?: string;
  /** The cardholder's IP address: their browser's for a CIT, the request's `customer.ipaddress` for an MIT. */
  customerIp?: string;
  customer?: CustomerData;
}

/** An earlier operation of ours that a follow-up names at the acquirer (Finaro: g2 its reference, g3 its code, g4 its a1). */
export interface ReferencedOperation {
  /** Our operation id: what it was sent with (Finaro a1). */
  operationId: string;
  /** The acquirer's id of it. */
  processorReference: string;
  /** The approval code its answer carried. */
  authorizationCode?: string;
}

export interface CaptureRequest extends Money {
  operationId: string;
  /** The acquirer's id of the authorization (Operation.processorReference of the approved authorize). */
  authorizationReference: string;
  authorizationCode?: string;
  /** Our operation id of the authorization (what it was sent with). */
  authorizationOperationId?: string;
  textOnStatement?: string;
  /** The cardholder's IP address when the payment recorded one. */
  customerIp?: string;
}

export interface RefundRequest extends Money {
  operationId: string;
  authorizationReference: string;
  /** The acquirer's id of the capture, for acquirers that refund a capture rather than an authorization. */
  captureReference?: string;
  /**
   * The capture this refund names, for acquirers whose refunds name one capture (Finaro): the latest
   * approved capture that can still take the whole amount back; absent when none can.
   */
  capture?: ReferencedOperation;
  authorizationCode?: string;
  authorizationOperationId?: string;
  textOnStatement?: string;
  customerIp?: string;
}

export interface VoidRequest extends Money {
  operationId: string;
  authorizationReference: string;
  authorizationCode?: string;
  authorizationOperationId?: string;
  customerIp?: string;
}

/** Sends money to a card (an original credit). Payouts never carry the security code. */
export interface PayoutRequest extends Money {
  operationId: string;
  paymentId: string;
  card: CardDetails;
  textOnStatement?: string;
  descriptor?: string;
  customerIp?: string;
  /** The recipient: the payout's email, firstname and surename. */
  customer?: CustomerData;
}

/**
 * How a non-approved result is to be treated.
 * - declined: the issuer or acquirer said no; a repeat with the same data will say no again.
 * - retryable: nothing happened at the acquirer (connection refused, 5xx before processing); safe to try again or elsewhere.
 * - indeterminate: we do not know whether the acquirer acted (time-out, connection reset after sending).
 *   A time-out is never a decline.
 */
export type FailureClass = "declined" | "retryable" | "indeterminate";

export type ProcessorStatus = "approved" | "declined" | "failed";

/**
 * What an answer means for the routing (docs/acquirers.md, "Decline classes"; decision 0190): each
 * acquirer module classes every response code its public reference documents.
 * - approved: the authorization holds the amount.
 * - declined-soft: the issuer or acquirer said no, but may approve elsewhere or later (05, 51, 91, 96 ...);
 *   a code without a public meaning is declined-soft too, and says so.
 * - technical: nothing was decided about the card (a time-out, a 5xx, a refused or malformed
 *   request, a system error); with `failure` indeterminate the acquirer may still have acted.
 * - authentication-required: a soft decline for strong customer authentication (1A): 3-D Secure may win it.
 * - declined-hard: the card schemes forbid re-attempts (lost, stolen, closed, invalid number, expired, "do not try again").
 * - stop-recurring: the cardholder's stop order (R0, R1, R3, Clearhaus 40420): no merchant-initiated payment on this card again.
 */
export const DECLINE_CLASSES = [
  "approved",
  "declined-soft",
  "technical",
  "authentication-required",
  "declined-hard",
  "stop-recurring",
] as const;
export type DeclineClass = (typeof DECLINE_CLASSES)[number];

/** One response code an acquirer's reference documents, with its class and that reference. */
export interface DeclineCodeMeaning {
  /** The acquirer's own code, as ProcessorResult.acquirerCode carries it (Clearhaus 40416, Finaro Z6=1A, Bambora 938). */
  code: string;
  class: DeclineClass;
  /** What the reference says it means. */
  meaning: string;
  /** Where: a reference key of docs/acquirers.md with the file (and, for the class, the rule it follows). */
  source: string;
}

/** Scheme data an acquirer returned with an authorization. */
export interface SchemeData {
  scheme?: "visa" | "mastercard" | "amex";
  /** The network's transaction id, needed for later merchant-initiated payments of the series. */
  schemeTransactionId?: string;
}

/** Every connector call resolves to this; connectors never throw for acquirer answers or network failures. */
export interface ProcessorResult {
  status: ProcessorStatus;
  /** Set when status is not approved. */
  failure?: FailureClass;
  /** ISO 8583 field 39 style, 2 or 3 characters: "00" approved, "05", "51", "54", "1A", "68" (time-out), "91", "96"... */
  responsecode: string;
  /** 1 to 8 characters; present on approvals. */
  authorizationcode?: string;
  /** The acquirer's id of this transaction; follow-up operations refer to it. */
  processorReference?: string;
  eci?: string;
  /** Payment Account Reference, 29 alphanumeric characters, when the acquirer returned one. */
  par?: string;
  scheme?: SchemeData;
  /**
   * The acquirer's own id of the stored-credential series this approval started or continued
   * (Bambora NA `card_on_file.series_id`): later payments of the series on the same account send it.
   */
  credentialSeriesId?: string;
  /** The acquirer's own code, verbatim (e.g. Clearhaus 40413, Finaro Z2/Z6), for the back office. */
  acquirerCode?: string;
  /**
   * What the answer means for the routing, from the acquirer module's table of its codes. Absent on
   * results no code came with (time-outs, refusals before sending): lib/routing/decline-class.ts
   * reads those from `status` and `failure`.
   */
  declineClass?: DeclineClass;
  /** Human text for the back office; never contains card data. */
  message?: string;
}

/** A card the acquirer's account updater reports as changed (life cycle management). */
export interface CardUpdate {
  /** The acquirer's id of the update, for de-duplication. */
  updateId: string;
  /** Which card: the PAR is stable across reissues, so it identifies the stored card. */
  par: string;
  /** The card behind it changed: new expiry, new number, or closed. */
  kind: "expiry" | "pan" | "closed";
  newExpMonth?: number;
  newExpYear?: number;
  /** The new card number, when the PAN changed (held as CardDetails so it cannot be printed). */
  newCard?: CardDetails;
  updatedAt: Date;
}

export interface CardUpdateFeedRequest {
  /** Updates reported strictly after this time. */
  since: Date;
}

/**
 * The operations that follow an approved authorization and refer to it (capture, refund, void); the
 * product rules of each are lib/payments/follow-ups/kinds.ts, held equal to this list by its type.
 */
export const FOLLOW_UP_OPERATIONS = ["capture", "refund", "void"] as const;
export type FollowUpOperation = (typeof FOLLOW_UP_OPERATIONS)[number];

/** What can be looked up after an answer was lost: every operation we send. */
export const LOOKUP_KINDS = ["authorize", ...FOLLOW_UP_OPERATIONS, "payout"] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

/** Any operation we sent, found again by our own reference (its operation id) after its answer was lost. */
export interface LookupOperationRequest {
  kind: LookupKind;
  /** The operation id the request was sent with (Finaro a1, Bambora order_number; in the sandboxes also Clearhaus reference). */
  operationId: string;
  /**
   * For a capture, refund or void: the acquirer's id of the payment's authorization, where the
   * acquirer finds the operation only through it (Bambora NA: a completion keeps the
   * pre-authorization's order number; Worldline Direct: every operation is in the payment's details).
   */
  authorizationReference?: string;
}

/**
 * What an acquirer's look-up of one kind of operation is worth (docs/decisions/0105-unknown-outcomes-when-not-found-is-trusted-what.md).
 * - `lookup`: the acquirer offers a look-up by our reference. Without one, an unknown outcome waits
 *   for an operator (who checks the acquirer's own reports) and keeps its reservation.
 * - `notFoundIsProof`: its "not found" proves the acquirer never received the request (once the
 *   grace period after the call has passed). When false a "not found" settles nothing.
 * - `source`: where that is documented (docs/acquirers.md), or why it is not.
 */
export interface LookupCapability {
  lookup: boolean;
  notFoundIsProof: boolean;
  source: string;
}

export type LookupCapabilities = Record<LookupKind, LookupCapability>;

/** The same capability for every kind of operation. */
export function everyLookupKind(capability: LookupCapability): LookupCapabilities {
  return Object.fromEntries(LOOKUP_KINDS.map((kind) => [kind, capability])) as LookupCapabilities;
}

/** Thrown by a connector asked for a look-up its acquirer does not offer (see LookupCapability). */
export class LookupNotOfferedError extends Error {
  constructor(processor: AcquirerName, kind: LookupKind) {
    super(`${processor} offers no look-up of its ${kind} operations by our reference`);
    this.name = "LookupNotOfferedError";
  }
}

export interface CallOptions {
  /** Aborts the call (the caller's own deadline). The connector also applies its configured time-out. */
  signal?: AbortSignal;
}

/** One call of a connector: the credentials of the acquirer account it goes out under, every time. */
export interface ConnectorCall<TCredentials> extends CallOptions {
  credentials: TCredentials;
}

/** The answer of a harmless authenticated call ("test connection" of an acquirer account). */
export interface ConnectionCheck {
  /** The acquirer accepted the credentials. */
  ok: boolean;
  /** What was called and what it answered, in words (never a credential). */
  message: string;
  /** Account facts the acquirer reported (Clearhaus GET /account: merchant_id, mcc, descriptor ...). */
  details?: Record<string, string>;
}

/**
 * What each acquirer connector implements: stateless plumbing around pure transformers. It knows the
 * acquirer's address and time-out; the account's credentials come with every call (the module's
 * credentials schema), so one connector serves every merchant's account at that acquirer.
 * `payout` and `cardUpdates` are capabilities: left out where the acquirer does not offer them
 * (the module's `capabilities` says the same, and the conformance kit holds the two equal).
 */
export interface AcquirerConnector<TCredentials> {
  readonly name: AcquirerName;
  authorize(request: AuthorizeRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult>;
  capture(request: CaptureRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult>;
  refund(request: RefundRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult>;
  void(request: VoidRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult>;
  /** Card payouts (original credits). */
  payout?(request: PayoutRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult>;
  /** Cards updated by their issuers since a time (account updater), for the account of `call`. */
  cardUpdates?(request: CardUpdateFeedRequest, call: ConnectorCall<TCredentials>): Promise<CardUpdate[]>;
  /**
   * What this acquirer's look-up is worth, per kind of operation. The connectors of the real
   * gateways and of our sandboxes differ: a sandbox serves look-ups the real API lacks (sandbox-only
   * extensions), which production code never relies on against a real base URL.
   */
  readonly lookups: LookupCapabilities;
  /**
   * What became of one request of ours whose answer was lost (time-out, 5xx, connection reset):
   * the acquirer's answer to it, or undefined when the acquirer has no such request (what that is
   * worth: `lookups[kind].notFoundIsProof`). Throws when the look-up itself gets no usable answer
   * (the outcome stays unknown; try again later), and LookupNotOfferedError when `lookups[kind].lookup` is false.
   */
  lookupOperation(request: LookupOperationRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult | undefined>;
  /** One harmless authenticated call that changes nothing at the acquirer; never throws. */
  checkConnection(call: ConnectorCall<TCredentials>): Promise<ConnectionCheck>;
}

/** The capabilities a connector has as optional methods, and what their absence is called. */
export const OPTIONAL_OPERATIONS = { payout: "card payouts", cardUpdates: "account-updater feed" } as const;
export type OptionalOperation = keyof typeof OPTIONAL_OPERATIONS;

/**
 * The one default refusal of an operation the acquirer does not offer, without a call: a payout is
 * declined (58, not permitted: the same request would be refused again), a card-update feed fails.
 */
export function refusalOf(name: AcquirerName, label: string, operation: OptionalOperation): ProcessorResult {
  return { status: "failed", failure: "declined", responsecode: "58", message: `${name}: ${label} has no ${OPTIONAL_OPERATIONS[operation]}` };
}

/**
 * A connector bound to one acquirer account (lib/routing/accounts/account-connector.ts): what the
 * use cases call. Every call goes out under that account's credentials; an operation the acquirer
 * does not offer answers the default refusal (refusalOf).
 */
export interface ProcessorConnector {
  readonly name: AcquirerName;
  /** The acquirer account whose credentials every call carries. */
  readonly accountId: string;
  /** The account's mode: which endpoint the calls go to (lib/acquirers/registry.ts). */
  readonly mode: Mode;
  authorize(request: AuthorizeRequest, options?: CallOptions): Promise<ProcessorResult>;
  capture(request: CaptureRequest, options?: CallOptions): Promise<ProcessorResult>;
  refund(request: RefundRequest, options?: CallOptions): Promise<ProcessorResult>;
  void(request: VoidRequest, options?: CallOptions): Promise<ProcessorResult>;
  payout(request: PayoutRequest, options?: CallOptions): Promise<ProcessorResult>;
  cardUpdates(request: CardUpdateFeedRequest, options?: CallOptions): Promise<CardUpdate[]>;
  /** What the acquirer's look-up is worth per kind of operation (AcquirerConnector.lookups). */
  readonly lookups: LookupCapabilities;
  lookupOperation(request: LookupOperationRequest, options?: CallOptions): Promise<ProcessorResult | undefined>;
  checkConnection(options?: CallOptions): Promise<ConnectionCheck>;
}

/** Response codes our connectors use for failures that have no issuer answer. */
export const RESPONSE_CODES = {
  approved: "00",
  doNotHonour: "05",
  insufficientFunds: "51",
  expiredCard: "54",
  scaRequired: "1A",
  /** Response received too late: our time-out. */
  timeout: "68",
  /** Issuer or acquirer unavailable: connection refused, 5xx. */
  unavailable: "91",
  /** System malfunction: an answer we could not read. */
  systemError: "96",
  invalidTransaction: "12",
  invalidAmount: "13",
  /** Invalid card number: also a published test card in live mode, refused before any acquirer call. */
  invalidCardNumber: "14",
} as const;

/** A field of an acquirer's credentials, as the back-office form and the CLI ask for it. */
export interface CredentialField {
  /** The key in the credentials object (and the form field / CLI option after "credential-"). */
  key: string;
  label: string;
  /** Secrets are entered in password fields; identifiers in text fields. All are write-only once saved. */
  secret: boolean;
  optional?: boolean;
  multiline?: boolean;
  hint?: string;
}

/**
 * What an acquirer's API can do where acquirers differ (docs/acquirers.md). Routing skips an
 * acquirer for what it cannot do, a request that names it for that is refused up front, and the
 * follow-up rules refuse what its API would refuse, so nothing is sent only to fail. `payouts` and
 * `cardUpdates` are the connector's optional methods, said here so that they are known without an
 * endpoint. The look-up after a lost answer is not here: it differs between an acquirer's real API
 * and our sandbox of it, so each connector declares it (`lookups`).
 */
export interface AcquirerCapabilities {
  /** Card payouts (original credits): the connector has `payout`. */
  payouts: boolean;
  /** Merchant-initiated authorizations (api/mit): an authorization captured later. */
  merchantInitiated: boolean;
  /** More than one capture of one authorization. */
  severalCaptures: boolean;
  /** An account-updater feed of changed cards: the connector has `cardUpdates`. */
  cardUpdates: boolean;
}

/**
 * An acquirer's rules for the account fields it shares with every acquirer (lib/routing/accounts):
 * each answers why a value is refused, or undefined. Printable ASCII is checked before they run.
 */
export interface AccountRules {
  /** The statement descriptor, under the acquirer's limits. */
  descriptorProblem(descriptor: string): string | undefined;
  /** The acquirer's merchant id, as the schemes and 3-D Secure know it. */
  acquirerMerchantIdProblem(value: string): string | undefined;
  /** The currencies an account takes. */
  currenciesProblem(value: { anyCurrency: boolean; currencies: readonly string[] }): string | undefined;
  /** The only currencies an account can take, where the acquirer limits them (shown with its name in the form). */
  onlyCurrencies?: readonly string[];
  /** What the back-office form says under the merchant id and descriptor fields for this acquirer. */
  hints: { acquirerMerchantId: string; descriptor: string };
}

/** Where a connector sends its calls, and how: what the registry gives a module's createConnector. */
export interface ConnectorSettings<TVariables> {
  /** The acquirer's endpoint for the account's mode, or our sandbox of it. */
  baseUrl: string;
  timeoutMs: number;
  /** Set when baseUrl is a sandbox this process started: whether its sandbox-only extensions are on. */
  sandbox?: { extensions: boolean };
  /** The module's own environment variables, validated by its `environment.variables` schema. */
  variables: TVariables;
}

/**
 * Environment variables of an acquirer besides its endpoints (<NAME>_BASE_URL, <NAME>_TEST_BASE_URL,
 * <NAME>_TIMEOUT_MS, which every acquirer has: lib/env.ts): read through lib/acquirers/environment.ts.
 */
export interface AcquirerEnvironment<TVariables> {
  /** Settings of the acquirer's own, validated at start. */
  variables?: z.ZodType<TVariables>;
  /**
   * The process-wide credentials of earlier versions (credential key → variable): the local demo's
   * sandbox accounts and `accounts import-env` read them; a production start refuses them.
   */
  legacyCredentials?: Readonly<Record<string, string>>;
  /** Variables of earlier versions that are read for nothing: a production start refuses them, with `reason`. */
  retired?: { variables: readonly string[]; reason: string };
}

/** What `accounts import-env` needs from an acquirer whose process-wide credentials become accounts. */
export interface LegacyImport<TCredentials> {
  /**
   * The acquirer merchant id the schemes know the shared account by: from the credentials, the
   * operator's option, or asked from the acquirer with `check` (a connection check of the credentials).
   */
  acquirerMerchantId(
    credentials: TCredentials,
    given: string | undefined,
    check: () => Promise<ConnectionCheck>,
  ): Promise<string>;
  /** Whether the operator may (or must) give the merchant id as `--<name>-merchant-id`, and its form. */
  merchantIdOption?: string;
}

/**
 * One acquirer, whole: everything the rest of the gateway knows of it comes from here (through
 * ./index.ts, the only registration point). Its label is in ./names.ts.
 */
export interface AcquirerModule<TCredentials = unknown, TVariables = unknown> {
  readonly name: AcquirerName;
  readonly credentials: { readonly schema: z.ZodType<TCredentials>; readonly fields: readonly CredentialField[] };
  readonly accountRules: AccountRules;
  readonly capabilities: AcquirerCapabilities;
  /** Card numbers the acquirer publishes for testing (with its reference): live mode refuses them, test mode takes them. */
  readonly testCards: readonly string[];
  /** Its place in a new merchant's primary routing order (1 first); the secondary order is the reverse. */
  readonly routingRank: number;
  /**
   * Every response code its public reference documents, each with its decline class and the
   * reference (./<name>/decline-classes.ts; the tables of docs/acquirers.md, "Decline classes", are held equal to it).
   */
  readonly declineCodes: readonly DeclineCodeMeaning[];
  readonly environment?: AcquirerEnvironment<TVariables>;
  readonly legacyImport?: LegacyImport<TCredentials>;
  createConnector(settings: ConnectorSettings<TVariables>): AcquirerConnector<TCredentials>;
  /**
   * The acquirer's other APIs, for an acquirer reached by more than one (bambora: Worldline Direct
   * beside Bambora North America; docs/decisions/0193-an-acquirer-with-more-than-one-platform.md),
   * by the key an account names (`AcquirerAccount.platform`). Everything above is its first
   * platform's, whose label is `firstPlatformLabel`. The processor name stays the module's in the API,
   * notifications and back office; the account decides which API is spoken. The first platform's key
   * (`firstPlatformKey`) is what the CLI and the form call it; an account on it stores no platform.
   */
  readonly platforms?: {
    readonly firstPlatformKey: string;
    readonly firstPlatformLabel: string;
    readonly others: Readonly<Record<string, AcquirerPlatform<TVariables>>>;
  };
  /**
   * Its reporting API for disputes and settlements, where the acquirer publishes one (Clearhaus
   * Merchant API); absent: nothing to import, and the account and back office say so.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the reporting API has its own credentials type
  readonly reporting?: AcquirerReporting<any, TVariables>;
}

/** One more API of an acquirer (AcquirerModule.platforms): what differs from its first platform. */
export interface AcquirerPlatform<TVariables = unknown> {
  readonly label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each platform has its own credentials type
  readonly credentials: { readonly schema: z.ZodType<any>; readonly fields: readonly CredentialField[] };
  readonly accountRules: AccountRules;
  readonly capabilities: AcquirerCapabilities;
  /**
   * Its configured endpoint for `mode`'s accounts, from the module's own variables (their names in
   * `endpointVariables`); undefined for test: the built-in sandbox of this platform, when it runs.
   */
  endpoint(mode: Mode, variables: TVariables): string | undefined;
  readonly endpointVariables: { readonly live: string; readonly test: string };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each platform has its own credentials type
  createConnector(settings: ConnectorSettings<TVariables>): AcquirerConnector<any>;
}

// ---------------------------------------------------------------------------------------------------
// Disputes and settlements (issue 40): an acquirer's reporting API beside its gateway API (Clearhaus
// Merchant API: OAuth2 client credentials, HAL resources; docs/acquirers.md, "Disputes and
// settlements"). A module without `reporting` has an acquirer that publishes none: the gateway says
// so on the account and in the back office instead of importing anything.

/** Calendar date as the acquirer gives it, YYYY-MM-DD (its own time zone; never turned into an instant). */
export type CalendarDate = string;

export const DISPUTE_KINDS = ["retrieval-request", "chargeback", "second-chargeback"] as const;
/** Retrieval request (a copy is asked for, no money moves yet), first chargeback, second chargeback (pre-arbitration). */
export type DisputeKind = (typeof DISPUTE_KINDS)[number];

export const DISPUTE_STATUSES = ["open", "under-review", "refuted", "accepted", "won", "lost"] as const;
/**
 * Our statuses of a dispute. open: waiting for the merchant's answer, until `dueOn`; under-review:
 * the acquirer reviews the evidence; refuted: the evidence went to the issuer; accepted: the merchant
 * gave up the amount; won / lost: closed.
 */
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** One dispute as the acquirer reports it, in our shape. */
export interface AcquirerDispute {
  /** The acquirer's id of the dispute: with the account, what makes an import idempotent. */
  disputeId: string;
  /** The acquirer's id of the disputed transaction (Clearhaus `ch:transaction`): matched to Operation.processorReference. */
  transactionId?: string;
  /** The scheme's reference the acquirer gives (Clearhaus `reference`, an ARN), shown, never matched on. */
  reference?: string;
  kind: DisputeKind;
  status: DisputeStatus;
  /** The scheme's reason code, verbatim ("4837", "12.6.1"). */
  reasonCode: string;
  /** The acquirer's reason category, verbatim ("fraud", "duplicate", ...). */
  reason: string;
  amount: bigint;
  currency: string;
  /** Part of the transaction's amount only. */
  partial: boolean;
  openedOn: CalendarDate;
  /** The last day the merchant can answer. */
  dueOn?: CalendarDate;
  expiresOn?: CalendarDate;
  /** The answers the acquirer offers now (Clearhaus: the dispute's stamps). */
  answers: readonly DisputeDecision[];
}

export type DisputeDecision = "refute" | "accept";

/** One evidence file for a dispute, checked against the module's `evidence` rules before it is sent. */
export interface DisputeEvidenceFile {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** Money an acquirer reports per settlement, in minor units, deductions negative (Clearhaus `summary`). */
export interface SettlementSummary {
  sales: bigint;
  credits: bigint;
  refunds: bigint;
  chargebacks: bigint;
  fees: bigint;
  otherPostings: bigint;
  /** The sum of the above: what the period earned, before the reserve is held back. */
  net: bigint;
}

/** One settlement (a payout of a period) as the acquirer reports it, in our shape. */
export interface AcquirerSettlement {
  settlementId: string;
  /** Closed: its figures and lines no longer change. */
  settled: boolean;
  currency: string;
  periodStart: CalendarDate;
  periodEnd: CalendarDate;
  payout?: { amount: bigint; date: CalendarDate; reference?: string; cancelledOn?: CalendarDate };
  reserve?: { amount: bigint; date?: CalendarDate; reference?: string };
  summary: SettlementSummary;
  /** Fees by the acquirer's kind ("interchange", "scheme", "3dsecure" ...), minor units, negative. */
  fees: Readonly<Record<string, bigint>>;
  /** Postings besides transactions (corrections, reserve releases), as the acquirer lists them. */
  otherPostings: readonly { date: CalendarDate; text: string; amount: bigint }[];
}

/** One transaction a settlement pays or charges (Clearhaus: the settlement's `ch:transactions`). */
export interface AcquirerSettlementLine {
  /** The acquirer's id of the transaction. */
  transactionId: string;
  type: "authorization" | "capture" | "refund" | "credit" | "void" | "debit";
  /** The merchant reference the transaction carried (what the connector sent: AcquirerReporting.lineReference). */
  reference?: string;
  /** The transaction's amount and currency. */
  amount: bigint;
  currency: string;
  processedAt: Date;
  /** What the settlement counted for it, in the settlement's currency: gross, fees (negative) and net. */
  settled?: { gross: bigint; fees: bigint; net: bigint; currency: string };
}

/**
 * The client of an acquirer's reporting API, bound per call to one account's reporting credentials.
 * Every method throws ReportingApiError for an answer it cannot use (the poller backs off and
 * alerts); lists page through the acquirer's pagination themselves.
 */
export interface AcquirerReportingClient<TCredentials> {
  /** One harmless authenticated call (token, then the account): `accounts test` and the account page; never throws. */
  checkCredentials(call: ConnectorCall<TCredentials>): Promise<ConnectionCheck>;
  /**
   * The disputes opened on or after `openedOnOrAfter`, and every one not yet closed, whenever
   * opened: the poller's cursor is the earliest date it must read again.
   */
  disputes(request: { openedOnOrAfter: CalendarDate }, call: ConnectorCall<TCredentials>): Promise<AcquirerDispute[]>;
  /** One dispute, fresh. */
  dispute(disputeId: string, call: ConnectorCall<TCredentials>): Promise<AcquirerDispute>;
  /** Sends evidence files and, when given, a comment to an open dispute (not yet an answer). */
  submitEvidence(
    disputeId: string,
    evidence: { files: readonly DisputeEvidenceFile[]; comment?: string },
    call: ConnectorCall<TCredentials>,
  ): Promise<void>;
  /** Refutes or accepts the dispute; the dispute as the acquirer reports it afterwards. */
  answerDispute(disputeId: string, decision: DisputeDecision, call: ConnectorCall<TCredentials>): Promise<AcquirerDispute>;
  /** The settlements whose period ends on or after `periodEndOnOrAfter`, and every one not yet settled. */
  settlements(request: { periodEndOnOrAfter: CalendarDate }, call: ConnectorCall<TCredentials>): Promise<AcquirerSettlement[]>;
  /** The transactions one settlement counts. */
  settlementLines(settlementId: string, call: ConnectorCall<TCredentials>): Promise<AcquirerSettlementLine[]>;
}

/** An answer of a reporting API the client cannot use: refused credentials, an error status, an unreadable body. */
export class ReportingApiError extends Error {
  constructor(
    message: string,
    /** The credentials were refused (401/403 or the token endpoint said invalid_client): shown on the account as failing. */
    readonly credentialsRefused = false,
    /** The HTTP status, when there was one. */
    readonly status?: number,
    /**
     * A link of the answer pointed where the egress policy refuses to go (lib/egress): the host it
     * named and why; nothing was sent there.
     */
    readonly refusedDestination?: { host: string; reason: string },
  ) {
    super(message);
    this.name = "ReportingApiError";
  }
}

/**
 * How the `reference` of the acquirer's settlement lines names our operations: what the module's
 * connector sends (docs/decisions/0208-settlement-lines-matched-by-the-reference-the-connector-sends.md).
 */
export interface SettlementLineReference {
  /**
   * The reference the connector sends with our operation `operationId`: the id itself, or its first
   * characters where the acquirer takes fewer (Clearhaus: 30 of our 32). Always a prefix of the id,
   * of at least 16 characters (tests/unit/acquirers/settlement-line-references.test.ts).
   */
  of(operationId: string): string;
  /**
   * Which of our operations carry one. `every-operation`: each is sent with its own, so a line's
   * reference names the line's operation. `first-operation`: only a payment's authorization (or a
   * payout) is sent with one, and the acquirer reports it on that transaction's captures, refunds
   * and voids too: a line's reference names the payment, and the line's type picks the operation.
   */
  sentOn: "every-operation" | "first-operation";
}

/** An acquirer's reporting API (AcquirerModule.reporting): its own credentials, endpoint and evidence rules. */
export interface AcquirerReporting<TCredentials = unknown, TVariables = unknown> {
  /** What it is called ("Clearhaus Merchant API"). */
  readonly label: string;
  /** Its credentials (sealed on the account beside the gateway's), and their form fields. */
  readonly credentials: { readonly schema: z.ZodType<TCredentials>; readonly fields: readonly CredentialField[] };
  /** The evidence files it takes, and where that is documented (or decided: docs/decisions/). */
  readonly evidence: { readonly contentTypes: readonly string[]; readonly maxBytes: number; readonly maxFiles: number; readonly source: string };
  /** What its settlement lines' `reference` is: what the module's connector sends, to match a line to our operation. */
  readonly lineReference: SettlementLineReference;
  /** Its configured endpoint for `mode`'s accounts, from the module's variables; undefined for test: the built-in sandbox. */
  endpoint(mode: Mode, variables: TVariables): string | undefined;
  readonly endpointVariables: { readonly live: string; readonly test: string };
  createClient(settings: ConnectorSettings<TVariables>): AcquirerReportingClient<TCredentials>;
}
