// Clearhaus Merchant API sandbox (issue 40), written only from the published reference
// (/work/notes/merchant-api-references.md §1; its source ids [S1]-[S17], clients [C1]-[C5]) and
// never from our client. What it follows:
// - [DOC] the root and its links [S2]; Bearer auth on every call [S1]; the account [S3], dispute [S4],
//   settlement [S7] and transaction [S10] fields and enums; page/per_page collections with count
//   [S5, S8] and the cursor-paged transactions with an opaque `next` [S11]; DQL/SQL/TQL modifiers
//   with 400 for unknown ones [S6, S9, S12]; `ch:stamps` as an array of named links [S5]; files as
//   metadata with `ch:data` upload and download links [S14]; comments with a body [S15].
// - [CLIENT] the token request (Basic client auth, grant_type=client_credentials, audience=root) and
//   its access_token/expires_in answer [C2-C5]; stamps as a PUT without body, comments POSTed as
//   {body}, the file bytes PUT to the upload link [C1].
// - The sandbox's own choices, where nothing is published (each marked "choice" below): the error
//   bodies and the codes of stamp, file and comment creation; that only an open dispute offers
//   stamps; the status after a stamp; the maximum per_page; that the Merchant API's transaction ids
//   are the Gateway API's authorization, capture, refund and credit ids and carry the `reference`
//   the authorization was sent with (the reference does not say so: it is this sandbox's assumption).
//
// It shares its ledger with the Clearhaus gateway sandbox (../index.ts): the approved transactions
// that sandbox processed are this API's transactions. Disputes and settlements exist only through
// the sandbox-only extensions (off unless `extensions`), under /sandbox/: open a dispute on a
// transaction, close one as won or lost, publish a settlement over chosen transactions, add a
// transaction another system made on the account. None of them exists at Clearhaus.
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import type { SandboxLedger } from "../../ledger";
import { sameSecret, type FetchHandler } from "../../serve";
import { CLEARHAUS_SANDBOX_ACCOUNTS } from "../accounts";
import { MERCHANT_API_SANDBOX_CLIENTS, type MerchantApiSandboxClient } from "./clients";
import { dateCondition, oneOf, parseQuery, QueryError, type ModifierTable } from "./queries";

/** The gateway sandbox's accounts by merchant_id: the Merchant API's account facts are theirs. */
const gatewayAccounts = new Map(CLEARHAUS_SANDBOX_ACCOUNTS.map((account) => [account.merchantId, account]));

const CURIES = [{ href: "https://developer.clearhaus.com/rels/{rel}", templated: true, name: "ch" }];
/** The defaults every example shows (page 1, per_page 20 [S5, S8]); the maximum is not published: 100 is a choice. */
const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;
/** Token lifetime: not published (choice). */
const TOKEN_SECONDS = 3600;
/** How long an upload link stays valid: [S14] shows an expiring pre-signed link; the length is a choice. */
const UPLOAD_LINK_SECONDS = 900;

/** "One of: fraud, unrecognised, ..." [S4 footnote 2]. */
const REASONS = [
  "fraud",
  "unrecognised",
  "product_not_provided",
  "credit_not_processed",
  "duplicate",
  "subscription_cancelled",
  "incorrect_amount_or_currency",
  "general",
  "product_unacceptable",
] as const;
const DISPUTE_TYPES = ["retrieval_request", "1st_chargeback", "2nd_chargeback"] as const;
const DISPUTE_STATUSES = ["open", "under_review", "refuted", "won", "lost"] as const;
type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
const TRANSACTION_TYPES = ["authorization", "capture", "refund", "credit", "void", "debit"] as const;
type TransactionType = (typeof TRANSACTION_TYPES)[number];

interface SandboxDispute {
  id: string;
  merchantId: string;
  transactionId: string;
  reference: string;
  amount: number;
  currency: string;
  partial: boolean;
  openedAt: string;
  dueAt: string;
  expiresAt: string;
  status: DisputeStatus;
  reasonCode: string;
  reason: string;
  type: (typeof DISPUTE_TYPES)[number];
  stamps: string[];
}

interface SandboxFile {
  id: string;
  disputeId: string;
  label: string;
  name: string;
  contentType: string;
  size?: number;
  uploadSecret: string;
  uploadExpires: number;
  uploaded?: { bytes: Uint8Array; contentType: string };
}

interface SandboxComment {
  id: string;
  disputeId: string;
  body: string;
  createdAt: string;
}

/** A transaction as this API lists it. */
interface ApiTransaction {
  id: string;
  merchantId: string;
  type: TransactionType;
  processedAt: Date;
  amount: number;
  currency: string;
  reference?: string;
}

interface SettledFigures {
  amountGross: number;
  fees: number;
  amountNet: number;
}

interface SandboxSettlement {
  id: string;
  merchantId: string;
  settled: boolean;
  currency: string;
  period: { start_date: string; end_date: string };
  payout?: { amount: number; date: string; reference_number?: string; descriptor?: string };
  summary: { sales: number; credits: number; refunds: number; chargebacks: number; fees: number; other_postings: number; net: number };
  reserve?: { amount: number; date?: string; reference_number?: string };
  fees: Record<string, number>;
  otherPostings: { date: string; text: string; amount: number }[];
  /** The transactions it counts, in order, with what it counted for each. */
  lines: { transactionId: string; figures: SettledFigures }[];
}

/** The sandbox's error body: not published (choice); 400s say what was wrong. */
function problem(status: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: status === 400 ? "bad_request" : status === 401 ? "unauthorized" : "error", message }, { status, headers });
}

function hal(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/hal+json" } });
}

const notFound = () => new Response(null, { status: 404 });

/** The extension scenarios' bodies. */
const openDisputeBody = z
  .object({
    transaction_id: z.string().min(1),
    amount: z.number().int().positive().optional(),
    reason: z.enum(REASONS),
    reason_code: z.string().min(1).max(10),
    type: z.enum(DISPUTE_TYPES).default("1st_chargeback"),
    reference: z.string().regex(/^\d{23}$/).optional(),
    opened_at: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
    due_at: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
    expires_at: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  })
  .strict();
const closeDisputeBody = z.object({ outcome: z.enum(["won", "lost"]) }).strict();
/** A transaction another system made on the account (the gateway sandbox never saw it): what a dispute "none of ours" concerns. */
const newTransactionBody = z
  .object({
    merchant_id: z.string().min(1),
    type: z.enum(TRANSACTION_TYPES).default("capture"),
    amount: z.number().int().positive(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    reference: z.string().optional(),
    processed_at: z.iso.datetime().optional(),
  })
  .strict();
const figures = { amount_gross: z.number().int().optional(), fees: z.number().int().optional(), amount_net: z.number().int().optional() };
const settlementBody = z
  .object({
    merchant_id: z.string().optional(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    period: z.object({ start_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), end_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
    settled: z.boolean().default(true),
    payout: z.object({ amount: z.number().int().optional(), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), reference_number: z.string().optional() }).optional(),
    reserve: z.object({ amount: z.number().int(), date: z.string().optional(), reference_number: z.string().optional() }).optional(),
    fees: z.record(z.string(), z.number().int()).default({}),
    chargebacks: z.number().int().default(0),
    other_postings: z.array(z.object({ date: z.string(), text: z.string(), amount: z.number().int() })).default([]),
    transactions: z.array(
      z.union([
        z.object({ id: z.string().min(1), ...figures }).strict(),
        // A transaction the gateway sandbox never saw (made by another system on the same account).
        z
          .object({
            new: z.object({ type: z.enum(TRANSACTION_TYPES), amount: z.number().int(), reference: z.string().optional(), processed_at: z.iso.datetime().optional() }),
            ...figures,
          })
          .strict(),
      ]),
    ),
  })
  .strict();

const fileBody = z.object({ label: z.string().min(1), content_type: z.string().min(1), name: z.string().min(1).optional(), size: z.number().int().nonnegative().optional() });
const commentBody = z.object({ body: z.string().min(1), tags: z.array(z.string().regex(/^[a-zA-Z0-9_\-:+.]+$/)).optional() });

export interface MerchantApiSandboxOptions {
  /** The gateway sandbox's ledger: its transactions are this API's. */
  ledger: SandboxLedger;
  extensions: boolean;
  clients?: readonly MerchantApiSandboxClient[];
}

export function createClearhausMerchantApiSandbox({ ledger, extensions, clients = MERCHANT_API_SANDBOX_CLIENTS }: MerchantApiSandboxOptions): {
  handler: FetchHandler;
} {
  const tokens = new Map<string, { client: MerchantApiSandboxClient; expires: number }>();
  const disputes = new Map<string, SandboxDispute>();
  const files = new Map<string, SandboxFile>();
  const comments: SandboxComment[] = [];
  const settlements = new Map<string, SandboxSettlement>();
  /** Transactions only the extensions made (a settlement's line, or a transaction of another system, the gateway sandbox never saw). */
  const extraTransactions = new Map<string, ApiTransaction>();
  /** Each transaction's settlement, once one counts it. */
  const settledIn = new Map<string, { settlementId: string; figures: SettledFigures; currency: string }>();
  const uploadKey = randomBytes(32);

  /** The gateway ledger's approved transactions and follow-ups, then the extensions' own, oldest first. */
  function transactions(): ApiTransaction[] {
    const listed: ApiTransaction[] = [];
    for (const transaction of ledger.transactions()) {
      if (!transaction.approved) continue;
      const common = { merchantId: transaction.account, currency: transaction.currency, reference: transaction.requestId };
      listed.push({
        ...common,
        id: transaction.id,
        type: transaction.kind === "payout" ? "credit" : "authorization",
        processedAt: transaction.createdAt,
        amount: transaction.amount,
      });
      for (const child of transaction.children)
        listed.push({ ...common, id: child.id, type: child.kind, processedAt: child.createdAt, amount: child.kind === "void" ? transaction.amount : child.amount });
    }
    listed.push(...extraTransactions.values());
    return listed.sort((a, b) => a.processedAt.getTime() - b.processedAt.getTime());
  }

  function transactionById(id: string): ApiTransaction | undefined {
    return transactions().find((transaction) => transaction.id === id);
  }

  function clientOf(request: Request): MerchantApiSandboxClient | undefined {
    const match = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "");
    const found = match ? tokens.get(match[1]!) : undefined;
    return found && found.expires > Date.now() ? found.client : undefined;
  }

  /** POST /oauth/token: the client credentials grant only (the password grant is "only available for legacy integrations" [S16]). */
  async function token(request: Request, root: string): Promise<Response> {
    // RFC 6749 §5.2 error codes: the reference publishes no token error body (choice).
    const header = request.headers.get("authorization") ?? "";
    const decoded = header.startsWith("Basic ") ? Buffer.from(header.slice(6), "base64").toString() : "";
    const separator = decoded.indexOf(":");
    const client =
      separator > 0
        ? clients.find((candidate) => sameSecret(decoded.slice(0, separator), candidate.clientId) && sameSecret(decoded.slice(separator + 1), candidate.clientSecret))
        : undefined;
    if (!client) return Response.json({ error: "invalid_client" }, { status: 401, headers: { "www-authenticate": 'Basic realm="token"' } });
    if (!(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded"))
      return Response.json({ error: "invalid_request" }, { status: 400 });
    const form = new URLSearchParams(await request.text());
    if (form.get("grant_type") !== "client_credentials") return Response.json({ error: "unsupported_grant_type" }, { status: 400 });
    // The audience is the API root [C2, C5].
    if ((form.get("audience") ?? "").replace(/\/+$/, "") !== root) return Response.json({ error: "invalid_request" }, { status: 400 });
    const accessToken = randomBytes(24).toString("base64url");
    tokens.set(accessToken, { client, expires: Date.now() + TOKEN_SECONDS * 1000 });
    return Response.json({ access_token: accessToken, token_type: "Bearer", expires_in: TOKEN_SECONDS });
  }

  /** page/per_page of a page-based collection, or a 400. */
  function paging(url: URL): { page: number; perPage: number } | Response {
    const page = url.searchParams.get("page") ?? "1";
    const perPage = url.searchParams.get("per_page") ?? String(DEFAULT_PER_PAGE);
    if (!/^[1-9]\d{0,5}$/.test(page)) return problem(400, "invalid page");
    if (!/^[1-9]\d{0,3}$/.test(perPage) || Number(perPage) > MAX_PER_PAGE) return problem(400, `invalid per_page (1 to ${MAX_PER_PAGE})`);
    return { page: Number(page), perPage: Number(perPage) };
  }

  /** A page-based collection [S5, S8]: count, page, per_page, self/first/last and prev/next where they exist. */
  function pagedAnswer<T>(url: URL, relation: string, items: T[], represent: (item: T) => unknown, page: number, perPage: number): Response {
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const at = (number: number) => {
      const href = new URL(url);
      href.searchParams.set("page", String(number));
      href.searchParams.set("per_page", String(perPage));
      return { href: href.toString() };
    };
    return hal({
      count: items.length,
      page,
      per_page: perPage,
      _links: {
        self: { href: url.toString() },
        first: at(1),
        last: at(last),
        ...(page > 1 ? { prev: at(page - 1) } : {}),
        ...(page < last ? { next: at(page + 1) } : {}),
        curies: CURIES,
      },
      _embedded: { [relation]: items.slice((page - 1) * perPage, page * perPage).map(represent) },
    });
  }

  /** The opaque cursor of the transactions collection [S11]: the offset, sealed so a client cannot make one. */
  function cursor(offset: number): string {
    const payload = Buffer.from(String(offset)).toString("base64url");
    return `${payload}.${createHmac("sha256", uploadKey).update(`cursor:${payload}`).digest("base64url").slice(0, 16)}`;
  }
  function offsetOf(value: string): number | undefined {
    const [payload, mac] = value.split(".");
    if (!payload || !mac || createHmac("sha256", uploadKey).update(`cursor:${payload}`).digest("base64url").slice(0, 16) !== mac) return undefined;
    const offset = Number(Buffer.from(payload, "base64url").toString());
    return Number.isSafeInteger(offset) && offset >= 0 ? offset : undefined;
  }

  /** A cursor-paged transactions answer [S11]: per_page, self, first, and next until the end. */
  function transactionsAnswer(url: URL, items: ApiTransaction[], root: string): Response {
    const perPage = url.searchParams.get("per_page") ?? String(DEFAULT_PER_PAGE);
    if (!/^[1-9]\d{0,3}$/.test(perPage) || Number(perPage) > MAX_PER_PAGE) return problem(400, `invalid per_page (1 to ${MAX_PER_PAGE})`);
    if (url.searchParams.has("page")) return problem(400, "transactions are paged by cursor: follow next");
    const next = url.searchParams.get("next");
    const offset = next === null ? 0 : offsetOf(next);
    if (offset === undefined) return problem(400, "invalid next cursor");
    const size = Number(perPage);
    const link = (extra: Record<string, string>) => {
      const href = new URL(url);
      href.search = "";
      const query = url.searchParams.get("query");
      if (query) href.searchParams.set("query", query);
      href.searchParams.set("per_page", perPage);
      for (const [key, value] of Object.entries(extra)) href.searchParams.set(key, value);
      return { href: href.toString() };
    };
    return hal({
      per_page: size,
      _links: {
        self: { href: url.toString() },
        first: link({}),
        ...(offset + size < items.length ? { next: link({ next: cursor(offset + size) }) } : {}),
        curies: CURIES,
      },
      _embedded: { "ch:transactions": items.slice(offset, offset + size).map((transaction) => representTransaction(transaction, root)) },
    });
  }

  function accountOf(client: MerchantApiSandboxClient, root: string) {
    const self = `${root}/accounts/${client.accountId}`;
    const gateway = clientAccount(client);
    return {
      id: client.accountId,
      name: gateway.name,
      country: gateway.country,
      currency: gateway.currency,
      mcc: gateway.mcc,
      merchant_id: client.merchantId,
      descriptor: gateway.descriptor,
      timezone: "Europe/Copenhagen",
      transaction_rules: "",
      metadata: { state: "live" },
      _links: {
        self: { href: self },
        "ch:transactions": { href: `${self}/transactions{?query,per_page}`, templated: true },
        "ch:disputes": { href: `${self}/disputes{?query,page,per_page}`, templated: true },
        "ch:settlements": { href: `${self}/settlements{?query,page,per_page}`, templated: true },
        curies: CURIES,
      },
    };
  }

  /** The gateway account's facts, by the client's merchant id (the clients are made from those accounts). */
  function clientAccount(client: MerchantApiSandboxClient) {
    return gatewayAccounts.get(client.merchantId) ?? { name: "", country: "", currency: "", mcc: "", descriptor: "" };
  }

  function representDispute(dispute: SandboxDispute, root: string) {
    const self = `${root}/disputes/${dispute.id}`;
    return {
      id: dispute.id,
      reference: dispute.reference,
      amount: dispute.amount,
      currency: dispute.currency,
      partial: dispute.partial,
      opened_at: dispute.openedAt,
      due_at: dispute.dueAt,
      expires_at: dispute.expiresAt,
      status: dispute.status,
      reason_code: dispute.reasonCode,
      reason: dispute.reason,
      type: dispute.type,
      _links: {
        self: { href: self },
        "ch:transaction": { href: `${root}/transactions/${dispute.transactionId}` },
        "ch:account": { href: `${root}/accounts/${clients.find((client) => client.merchantId === dispute.merchantId)?.accountId ?? ""}` },
        // As the rels example writes them [S4]: a template without `templated`.
        "ch:files": { href: `${self}/files{?page,per_page}` },
        "ch:comments": { href: `${self}/comments{?page,per_page}` },
        // "Presence depends on status" [S4]: offered while the dispute is open (choice).
        ...(dispute.status === "open"
          ? { "ch:stamps": ["refuted", "accepted"].map((name) => ({ href: `${self}/stamps/${name}`, name })) }
          : {}),
        curies: CURIES,
      },
    };
  }

  function representTransaction(transaction: ApiTransaction, root: string) {
    const settled = settledIn.get(transaction.id);
    return {
      id: transaction.id,
      type: transaction.type,
      processed_at: transaction.processedAt.toISOString(),
      amount: transaction.amount,
      currency: transaction.currency,
      ...(transaction.reference ? { reference: transaction.reference } : {}),
      status: { code: 20000 },
      ...(settled
        ? {
            settlement: {
              amount_gross: settled.figures.amountGross,
              amount_net: settled.figures.amountNet,
              fees: settled.figures.fees,
              currency: settled.currency,
            },
          }
        : {}),
      _links: {
        self: { href: `${root}/transactions/${transaction.id}` },
        // The transaction's links are not readable [S10]; a client's type shows these two [C2].
        "ch:account": { href: `${root}/accounts/${clients.find((client) => client.merchantId === transaction.merchantId)?.accountId ?? ""}` },
        ...(settled ? { "ch:settlement": { href: `${root}/settlements/${settled.settlementId}` } } : {}),
        curies: CURIES,
      },
    };
  }

  function representSettlement(settlement: SandboxSettlement, root: string) {
    const self = `${root}/settlements/${settlement.id}`;
    return {
      id: settlement.id,
      settled: settlement.settled,
      currency: settlement.currency,
      period: settlement.period,
      ...(settlement.payout ? { payout: settlement.payout } : {}),
      summary: settlement.summary,
      ...(settlement.reserve ? { reserve: settlement.reserve } : {}),
      fees: settlement.fees,
      other_postings: settlement.otherPostings,
      _links: {
        self: { href: self },
        "ch:account": { href: `${root}/accounts/${clients.find((client) => client.merchantId === settlement.merchantId)?.accountId ?? ""}` },
        "ch:transactions": { href: `${self}/transactions{?query,per_page}`, templated: true },
        curies: CURIES,
      },
    };
  }

  function representFile(file: SandboxFile, root: string) {
    const upload = new URL(`${root}/uploads/${file.id}`);
    upload.searchParams.set("expires", String(file.uploadExpires));
    upload.searchParams.set("signature", file.uploadSecret);
    return {
      label: file.label,
      name: file.name,
      content_type: file.contentType,
      ...(file.size !== undefined ? { size: file.size } : {}),
      _links: {
        self: { href: `${root}/files/${file.id}` },
        "ch:dispute": { href: `${root}/disputes/${file.disputeId}` },
        "ch:data": [
          { href: upload.toString(), name: "upload" },
          { href: `${root}/files/${file.id}/content`, name: "download" },
        ],
        curies: CURIES,
      },
    };
  }

  /** DQL [S6]; `status` takes one value: the page shows no comma list for it (choice). */
  const DQL: ModifierTable<SandboxDispute> = {
    status: (value) => ((DISPUTE_STATUSES as readonly string[]).includes(value) ? (dispute) => dispute.status === value : `'${value}'`),
    reason: (value) => {
      const reasons = oneOf(value, REASONS);
      return typeof reasons === "string" ? reasons : (dispute) => reasons.includes(dispute.reason);
    },
    reason_code: (value) => {
      const codes = oneOf(value, /^[0-9A-Za-z.]{1,10}$/);
      return typeof codes === "string" ? codes : (dispute) => codes.includes(dispute.reasonCode);
    },
    ...dateModifiers(["opened", "opened_at"], (dispute: SandboxDispute) => dispute.openedAt),
    ...dateModifiers(["due", "due_at"], (dispute: SandboxDispute) => dispute.dueAt),
    // "Merchant ID — Also known as account number or MID" [S6]; `mid:2000001` in the examples [S5].
    mid: (value) => (dispute) => dispute.merchantId === value,
  };

  /** SQL [S9]; `mid` and `merchant_id` as the clients send them [C2, C5]. */
  const SQL: ModifierTable<SandboxSettlement> = {
    settled: (value) =>
      ["true", "t"].includes(value) ? (settlement) => settlement.settled : ["false", "f"].includes(value) ? (settlement) => !settlement.settled : `'${value}'`,
    currency: (value) => {
      const currencies = oneOf(value, /^[A-Z]{3}$/);
      return typeof currencies === "string" ? currencies : (settlement) => currencies.includes(settlement.currency);
    },
    ...dateModifiers(["period.start_date"], (settlement: SandboxSettlement) => settlement.period.start_date),
    ...dateModifiers(["period.end_date"], (settlement: SandboxSettlement) => settlement.period.end_date),
    ...dateModifiers(["payout.date"], (settlement: SandboxSettlement) => settlement.payout?.date),
    ...dateModifiers(["reserve.date"], (settlement: SandboxSettlement) => settlement.reserve?.date),
    mid: (value) => (settlement) => settlement.merchantId === value,
    merchant_id: (value) => (settlement) => settlement.merchantId === value,
  };

  /** TQL [S12], the readable part; no `reference` or `id` modifier is published, so none is taken. */
  const TQL: ModifierTable<ApiTransaction> = {
    is: (value) => {
      const types = oneOf(value, TRANSACTION_TYPES);
      return typeof types === "string" ? types : (transaction) => types.includes(transaction.type);
    },
    // Only approved transactions are listed (the shared ledger keeps no status code of a declined one).
    status: (value) => (value === "approved" || value === "20000" ? () => true : value === "declined" || /^\d{5}(,\d{5})*$/.test(value) ? () => false : `'${value}'`),
    currency: (value) => {
      const currencies = oneOf(value, /^[A-Z]{3}$/);
      return typeof currencies === "string" ? currencies : (transaction) => currencies.includes(transaction.currency);
    },
    ...dateModifiers(["date"], (transaction: ApiTransaction) => transaction.processedAt.toISOString().slice(0, 10)),
    mid: (value) => (transaction) => transaction.merchantId === value,
    merchant_id: (value) => (transaction) => transaction.merchantId === value,
  };

  function filtered<T>(url: URL, table: ModifierTable<T>, items: T[]): T[] | Response {
    try {
      return items.filter(parseQuery(url.searchParams.get("query"), table));
    } catch (error) {
      if (error instanceof QueryError) return problem(400, error.message);
      throw error;
    }
  }

  /** Query parameters a collection does not take are refused, like unknown modifiers (choice). */
  function unknownParameter(url: URL, allowed: readonly string[]): Response | undefined {
    const unknown = [...url.searchParams.keys()].find((key) => !allowed.includes(key));
    return unknown ? problem(400, `unknown parameter '${unknown}'`) : undefined;
  }

  const visibleDisputes = (client: MerchantApiSandboxClient) => [...disputes.values()].filter((dispute) => dispute.merchantId === client.merchantId);
  const visibleSettlements = (client: MerchantApiSandboxClient) =>
    [...settlements.values()].filter((settlement) => settlement.merchantId === client.merchantId);
  const visibleTransactions = (client: MerchantApiSandboxClient) => transactions().filter((transaction) => transaction.merchantId === client.merchantId);

  function listDisputes(url: URL, client: MerchantApiSandboxClient, root: string): Response {
    const rejected = unknownParameter(url, ["query", "page", "per_page"]);
    if (rejected) return rejected;
    const pages = paging(url);
    if (pages instanceof Response) return pages;
    const found = filtered(url, DQL, visibleDisputes(client));
    if (found instanceof Response) return found;
    return pagedAnswer(url, "ch:disputes", found, (dispute) => representDispute(dispute, root), pages.page, pages.perPage);
  }

  function listSettlements(url: URL, client: MerchantApiSandboxClient, root: string): Response {
    const rejected = unknownParameter(url, ["query", "page", "per_page"]);
    if (rejected) return rejected;
    const pages = paging(url);
    if (pages instanceof Response) return pages;
    const found = filtered(url, SQL, visibleSettlements(client));
    if (found instanceof Response) return found;
    return pagedAnswer(url, "ch:settlements", found, (settlement) => representSettlement(settlement, root), pages.page, pages.perPage);
  }

  function listTransactions(url: URL, items: ApiTransaction[], root: string): Response {
    const rejected = unknownParameter(url, ["query", "per_page", "next", "page"]);
    if (rejected) return rejected;
    const found = filtered(url, TQL, items);
    if (found instanceof Response) return found;
    return transactionsAnswer(url, found, root);
  }

  async function jsonBody<T extends z.ZodType>(request: Request, schema: T): Promise<z.infer<T> | Response> {
    if (!(request.headers.get("content-type") ?? "").includes("json")) return problem(400, "the body must be JSON");
    let json: unknown;
    try {
      json = JSON.parse(await request.text());
    } catch {
      return problem(400, "the body is not JSON");
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return problem(400, `${issue?.path.join(".") || "body"}: ${issue?.message}`);
    }
    return parsed.data;
  }

  /** The API proper: every path behind a Bearer token. */
  async function api(request: Request, url: URL, path: string, root: string): Promise<Response> {
    const client = clientOf(request);
    if (!client) return problem(401, "a valid Bearer token is required", { "www-authenticate": 'Bearer realm="merchant-api"' });
    const method = request.method;
    const segments = path.split("/").filter(Boolean);
    if (method === "GET" && segments.length === 0) {
      return hal({
        _links: {
          self: { href: root },
          "oauth2-token": { href: `${root}/oauth/token` },
          "ch:accounts": { href: `${root}/accounts{?query,page,per_page}`, templated: true },
          "ch:settlements": { href: `${root}/settlements{?query,page,per_page}`, templated: true },
          "ch:transactions": { href: `${root}/transactions{?query,per_page}`, templated: true },
          "ch:disputes": { href: `${root}/disputes{?query,page,per_page}`, templated: true },
          curies: CURIES,
        },
      });
    }
    const [collection, id, sub, subId] = segments;
    if (collection === "accounts") {
      if (method !== "GET") return notFound();
      if (!id) {
        const rejected = unknownParameter(url, ["query", "page", "per_page"]);
        if (rejected) return rejected;
        const pages = paging(url);
        if (pages instanceof Response) return pages;
        // No account query language is readable: only `mid:` (choice); anything else is refused.
        const found = filtered(url, { mid: (value) => () => value === client.merchantId }, [client]);
        if (found instanceof Response) return found;
        return pagedAnswer(url, "ch:accounts", found, (each) => accountOf(each, root), pages.page, pages.perPage);
      }
      if (id !== client.accountId) return notFound();
      if (!sub) return hal(accountOf(client, root));
      if (segments.length !== 3) return notFound();
      if (sub === "disputes") return listDisputes(url, client, root);
      if (sub === "settlements") return listSettlements(url, client, root);
      if (sub === "transactions") return listTransactions(url, visibleTransactions(client), root);
      return notFound();
    }
    if (collection === "disputes") {
      if (!id) return method === "GET" ? listDisputes(url, client, root) : notFound();
      const dispute = disputes.get(id);
      if (!dispute || dispute.merchantId !== client.merchantId) return notFound();
      if (!sub) return method === "GET" ? hal(representDispute(dispute, root)) : notFound();
      if (sub === "stamps" && subId && segments.length === 4) {
        if (method !== "PUT") return notFound();
        if (subId !== "refuted" && subId !== "accepted") return notFound();
        // Stamps are "removable: false" and offered only while open (choice): a second one is a conflict.
        if (dispute.status !== "open") return problem(409, `the dispute is ${dispute.status}: no stamp can be applied`);
        dispute.stamps.push(subId);
        // After a refute the dispute is under review ([S17]: "moved to the Under review state after
        // selecting Refute"); after an accept the merchant has given up the amount: lost (choice).
        dispute.status = subId === "refuted" ? "under_review" : "lost";
        return new Response(null, { status: 204 });
      }
      if (sub === "files" && segments.length === 3) {
        if (method === "GET") {
          const pages = paging(url);
          if (pages instanceof Response) return pages;
          const list = [...files.values()].filter((file) => file.disputeId === dispute.id);
          return pagedAnswer(url, "ch:files", list, (file) => representFile(file, root), pages.page, pages.perPage);
        }
        if (method !== "POST") return notFound();
        const body = await jsonBody(request, fileBody);
        if (body instanceof Response) return body;
        const file: SandboxFile = {
          id: randomUUID(),
          disputeId: dispute.id,
          label: body.label,
          // "Same as label, if unspecified" [S14].
          name: body.name ?? body.label,
          contentType: body.content_type,
          size: body.size,
          uploadExpires: Math.floor(Date.now() / 1000) + UPLOAD_LINK_SECONDS,
          uploadSecret: "",
        };
        file.uploadSecret = createHmac("sha256", uploadKey).update(`${file.id}:${file.uploadExpires}`).digest("hex");
        files.set(file.id, file);
        return hal(representFile(file, root), 201);
      }
      if (sub === "comments" && segments.length === 3) {
        if (method === "GET") {
          const pages = paging(url);
          if (pages instanceof Response) return pages;
          const list = comments.filter((comment) => comment.disputeId === dispute.id);
          return pagedAnswer(url, "ch:comments", list, (comment) => representComment(comment, root), pages.page, pages.perPage);
        }
        if (method !== "POST") return notFound();
        const body = await jsonBody(request, commentBody);
        if (body instanceof Response) return body;
        const comment: SandboxComment = { id: randomUUID(), disputeId: dispute.id, body: body.body, createdAt: new Date().toISOString() };
        comments.push(comment);
        return hal(representComment(comment, root), 201);
      }
      return notFound();
    }
    if (collection === "files" && id) {
      const file = files.get(id);
      const owner = file ? disputes.get(file.disputeId) : undefined;
      if (!file || owner?.merchantId !== client.merchantId || method !== "GET") return notFound();
      if (!sub) return hal(representFile(file, root));
      if (sub === "content" && segments.length === 3) {
        if (!file.uploaded) return notFound();
        return new Response(new Uint8Array(file.uploaded.bytes), { status: 200, headers: { "content-type": file.contentType } });
      }
      return notFound();
    }
    if (collection === "settlements") {
      if (method !== "GET") return notFound();
      if (!id) return listSettlements(url, client, root);
      const settlement = settlements.get(id);
      if (!settlement || settlement.merchantId !== client.merchantId) return notFound();
      if (!sub) return hal(representSettlement(settlement, root));
      if (sub === "transactions" && segments.length === 3) {
        const counted = settlement.lines.flatMap((line) => transactionById(line.transactionId) ?? []);
        return listTransactions(url, counted, root);
      }
      return notFound();
    }
    if (collection === "transactions") {
      if (method !== "GET") return notFound();
      if (!id) return listTransactions(url, visibleTransactions(client), root);
      const transaction = transactionById(id);
      if (!transaction || transaction.merchantId !== client.merchantId || sub) return notFound();
      return hal(representTransaction(transaction, root));
    }
    return notFound();
  }

  function representComment(comment: SandboxComment, root: string) {
    return {
      id: comment.id,
      body: comment.body,
      created_at: comment.createdAt,
      _links: { self: { href: `${root}/comments/${comment.id}` }, "ch:dispute": { href: `${root}/disputes/${comment.disputeId}` }, curies: CURIES },
    };
  }

  /** PUT to a file's upload link: pre-signed and expiring like the S3 link of [S14], so no Bearer token. */
  async function upload(request: Request, url: URL, fileId: string): Promise<Response> {
    const file = files.get(fileId);
    const expires = Number(url.searchParams.get("expires"));
    const signature = url.searchParams.get("signature") ?? "";
    if (!file || !sameSecret(signature, file.uploadSecret) || expires !== file.uploadExpires) return problem(403, "the upload link is not valid");
    if (Date.now() / 1000 > file.uploadExpires) return problem(403, "the upload link has expired");
    file.uploaded = { bytes: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get("content-type") ?? "" };
    return new Response(null, { status: 200 });
  }

  // ---- Sandbox-only extensions (not at Clearhaus): scenarios for tests, under /sandbox/. ----

  async function openDispute(request: Request, root: string): Promise<Response> {
    const body = await jsonBody(request, openDisputeBody);
    if (body instanceof Response) return body;
    const transaction = transactionById(body.transaction_id);
    if (!transaction) return problem(400, `no transaction ${body.transaction_id}`);
    const opened = body.opened_at ?? new Date().toISOString().slice(0, 10);
    const plus = (days: number) => new Date(Date.parse(`${opened}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const amount = body.amount ?? transaction.amount;
    const dispute: SandboxDispute = {
      id: randomUUID(),
      merchantId: transaction.merchantId,
      transactionId: transaction.id,
      // 23 digits, the shape of the example's reference (an ARN) [S4].
      reference: body.reference ?? Array.from({ length: 23 }, () => String(randomBytes(1)[0]! % 10)).join(""),
      amount,
      currency: transaction.currency,
      partial: amount < transaction.amount,
      openedAt: opened,
      // The example's spacing: due 14 days and expiry 42 days after opening [S4].
      dueAt: body.due_at ?? plus(14),
      expiresAt: body.expires_at ?? plus(42),
      status: "open",
      reasonCode: body.reason_code,
      reason: body.reason,
      type: body.type,
      stamps: [],
    };
    disputes.set(dispute.id, dispute);
    return hal(representDispute(dispute, root), 201);
  }

  async function addTransaction(request: Request, root: string): Promise<Response> {
    const body = await jsonBody(request, newTransactionBody);
    if (body instanceof Response) return body;
    if (!gatewayAccounts.has(body.merchant_id)) return problem(400, `no account ${body.merchant_id}`);
    const transaction: ApiTransaction = {
      id: randomUUID(),
      merchantId: body.merchant_id,
      type: body.type,
      processedAt: body.processed_at ? new Date(body.processed_at) : new Date(),
      amount: body.amount,
      currency: body.currency,
      reference: body.reference,
    };
    extraTransactions.set(transaction.id, transaction);
    return hal(representTransaction(transaction, root), 201);
  }

  async function closeDispute(request: Request, id: string, root: string): Promise<Response> {
    const dispute = disputes.get(id);
    if (!dispute) return notFound();
    const body = await jsonBody(request, closeDisputeBody);
    if (body instanceof Response) return body;
    dispute.status = body.outcome;
    return hal(representDispute(dispute, root));
  }

  async function publishSettlement(request: Request, root: string): Promise<Response> {
    const body = await jsonBody(request, settlementBody);
    if (body instanceof Response) return body;
    const lines: SandboxSettlement["lines"] = [];
    let merchantId = body.merchant_id;
    for (const entry of body.transactions) {
      let transaction: ApiTransaction | undefined;
      if ("id" in entry) {
        transaction = transactionById(entry.id);
        if (!transaction) return problem(400, `no transaction ${entry.id}`);
      } else {
        if (!merchantId) return problem(400, "merchant_id is needed for a new transaction");
        transaction = {
          id: randomUUID(),
          merchantId,
          type: entry.new.type,
          processedAt: entry.new.processed_at ? new Date(entry.new.processed_at) : new Date(),
          amount: entry.new.amount,
          currency: body.currency,
          reference: entry.new.reference,
        };
        extraTransactions.set(transaction.id, transaction);
      }
      merchantId ??= transaction.merchantId;
      if (transaction.merchantId !== merchantId) return problem(400, "a settlement's transactions belong to one account");
      // Money out of the merchant's pocket (refunds, credits) is negative, as the settlement example's deductions are [S7].
      const sign = transaction.type === "refund" || transaction.type === "credit" ? -1 : 1;
      const gross = entry.amount_gross ?? sign * transaction.amount;
      const fees = entry.fees ?? 0;
      lines.push({ transactionId: transaction.id, figures: { amountGross: gross, fees, amountNet: entry.amount_net ?? gross + fees } });
    }
    if (!merchantId) return problem(400, "merchant_id or a transaction is needed");
    const sum = (types: TransactionType[]) =>
      lines.filter((line) => types.includes(transactionById(line.transactionId)!.type)).reduce((total, line) => total + line.figures.amountGross, 0);
    const feeKinds = Object.values(body.fees);
    const fees = feeKinds.length > 0 ? feeKinds.reduce((a, b) => a + b, 0) : lines.reduce((total, line) => total + line.figures.fees, 0);
    const otherPostings = body.other_postings.reduce((total, posting) => total + posting.amount, 0);
    const summary = {
      sales: sum(["capture", "debit"]),
      credits: sum(["credit"]),
      refunds: sum(["refund"]),
      chargebacks: body.chargebacks,
      fees,
      other_postings: otherPostings,
      net: 0,
    };
    // "summary.net = sum of the other summary fields"; "payout.amount + reserve.amount = summary.net" (the example's figures [S7]).
    summary.net = summary.sales + summary.credits + summary.refunds + summary.chargebacks + summary.fees + summary.other_postings;
    const settlement: SandboxSettlement = {
      id: randomUUID(),
      merchantId,
      settled: body.settled,
      currency: body.currency,
      period: body.period,
      payout: body.payout
        ? { amount: body.payout.amount ?? summary.net - (body.reserve?.amount ?? 0), date: body.payout.date, reference_number: body.payout.reference_number }
        : undefined,
      summary,
      reserve: body.reserve,
      fees: body.fees,
      otherPostings: body.other_postings,
      lines,
    };
    settlements.set(settlement.id, settlement);
    for (const line of lines) settledIn.set(line.transactionId, { settlementId: settlement.id, figures: line.figures, currency: settlement.currency });
    return hal(representSettlement(settlement, root), 201);
  }

  async function extension(request: Request, path: string, root: string): Promise<Response | undefined> {
    if (request.method !== "POST") return undefined;
    if (path === "/sandbox/disputes") return openDispute(request, root);
    const close = /^\/sandbox\/disputes\/([^/]+)\/close$/.exec(path);
    if (close) return closeDispute(request, decodeURIComponent(close[1]!), root);
    if (path === "/sandbox/settlements") return publishSettlement(request, root);
    if (path === "/sandbox/transactions") return addTransaction(request, root);
    return undefined;
  }

  const handler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    const root = url.origin;
    const path = url.pathname.replace(/\/+$/, "") || "/";
    if (path === "/oauth/token") return request.method === "POST" ? token(request, root) : notFound();
    const uploadPath = /^\/uploads\/([^/]+)$/.exec(path);
    if (uploadPath) return request.method === "PUT" ? upload(request, url, decodeURIComponent(uploadPath[1]!)) : notFound();
    if (path.startsWith("/sandbox/")) {
      const answer = extensions ? await extension(request, path, root) : undefined;
      return answer ?? notFound();
    }
    return api(request, url, path === "/" ? "" : path, root);
  };
  return { handler };
}

/** `[names]:date-condition` modifiers reading `date` of an item. */
function dateModifiers<T>(names: string[], date: (item: T) => string | undefined): ModifierTable<T> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      (value: string, now: Date) => {
        const condition = dateCondition(value, now);
        return typeof condition === "string" ? condition : (item: T) => condition(date(item));
      },
    ]),
  );
}
