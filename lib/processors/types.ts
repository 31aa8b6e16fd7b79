// The ONE connector interface every acquirer connector implements (finaro, clearhaus, bambora).
// Requests are in our shape; each connector maps them to its acquirer's wire format and maps the
// answer back to ProcessorResult. Connectors are stateless plumbing around pure transformers.
import type { Mode } from "../mode";
import type { CardDetails } from "../cards/card-details";

/** The processors the spec names; the same values as the Prisma enum `Processor`. */
export const PROCESSOR_NAMES = ["finaro", "clearhaus", "bambora"] as const;
export type ProcessorName = (typeof PROCESSOR_NAMES)[number];

export function isProcessorName(value: string): value is ProcessorName {
  return (PROCESSOR_NAMES as readonly string[]).includes(value);
}

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

/** What can be looked up after an answer was lost: every operation we send. */
export const LOOKUP_KINDS = ["authorize", "capture", "refund", "void", "payout"] as const;
export type LookupKind = (typeof LOOKUP_KINDS)[number];

/** Any operation we sent, found again by our own reference (its operation id) after its answer was lost. */
export interface LookupOperationRequest {
  kind: LookupKind;
  /** The operation id the request was sent with (Finaro a1, Bambora order_number; in the sandboxes also Clearhaus reference). */
  operationId: string;
  /**
   * For a capture: the acquirer's id of the authorization it completes, where the acquirer finds a
   * capture only through it (Bambora NA: a completion keeps the pre-authorization's order number).
   */
  authorizationReference?: string;
}

/**
 * What an acquirer's look-up of one kind of operation is worth (docs/decisions.md, "Unknown outcomes").
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
  constructor(processor: ProcessorName, kind: LookupKind) {
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
 * What each acquirer connector implements (finaro, clearhaus, bambora): stateless plumbing around
 * pure transformers. It knows the acquirer's address and time-out; the account's credentials come
 * with every call (lib/processors/credentials.ts has their schema per processor), so one connector
 * serves every merchant's account at that acquirer.
 */
export interface AcquirerConnector<TCredentials> {
  readonly name: ProcessorName;
  authorize(request: AuthorizeRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult>;
  capture(request: CaptureRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult>;
  refund(request: RefundRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult>;
  void(request: VoidRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult>;
  payout(request: PayoutRequest, call: ConnectorCall<TCredentials>): Promise<ProcessorResult>;
  /** Cards updated by their issuers since a time (account updater), for the account of `call`. */
  cardUpdates(request: CardUpdateFeedRequest, call: ConnectorCall<TCredentials>): Promise<CardUpdate[]>;
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

/**
 * A connector bound to one acquirer account (lib/processors/accounts/account-connector.ts): what
 * the use cases call. Every call goes out under that account's credentials.
 */
export interface ProcessorConnector {
  readonly name: ProcessorName;
  /** The acquirer account whose credentials every call carries. */
  readonly accountId: string;
  /** The account's mode: which endpoint the calls go to (lib/processors/registry.ts). */
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

export type FollowUpOperation = "capture" | "refund" | "void";

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
