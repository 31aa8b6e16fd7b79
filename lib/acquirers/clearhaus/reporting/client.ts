// Clearhaus Merchant API client (docs/acquirers.md, "Disputes and settlements"; source ids of
// /work/notes/merchant-api-references.md §1). A token from the client credentials grant, then every
// call by link relation from the root: "Use the link relations provided to interact with the API;
// don't rely on URLs" [S1]. The only URL built is the token endpoint's, {root}/oauth/token, as every
// published client does [C2-C5] (the root that names it, `oauth2-token` [S2], is itself behind the token).
// All HTTP goes through the connectors' one send() (lib/acquirers/plumbing/http.ts: time-out, abort).
import { createHash } from "node:crypto";
import type { z } from "zod";
import {
  ReportingApiError,
  type AcquirerDispute,
  type AcquirerReportingClient,
  type AcquirerSettlement,
  type AcquirerSettlementLine,
  type ConnectorCall,
} from "../../contract";
import { egressPolicy } from "../../../egress/egress-policy";
import { basicAuth, send } from "../../plumbing/http";
import { expandUriTemplate, type TemplateValues } from "../../plumbing/uri-template";
import type { ClearhausMerchantApiCredentials } from "./credentials";
import {
  fromMerchantApiDispute,
  fromMerchantApiSettlement,
  fromMerchantApiTransaction,
  linkOf,
  merchantApiAccount,
  merchantApiDispute,
  merchantApiFile,
  merchantApiRoot,
  merchantApiSettlement,
  merchantApiToken,
  merchantApiTransaction,
  namedLink,
  pagedCollection,
  readAnswer,
  transactionsPage,
  type HalLinks,
  type MerchantApiDispute,
} from "./transformers";

export interface MerchantApiClientSettings {
  /** The API root: https://merchant.clearhaus.com, https://merchant.test.clearhaus.com [S1], or our sandbox. */
  baseUrl: string;
  timeoutMs: number;
}

type Call = ConnectorCall<ClearhausMerchantApiCredentials>;

/** The largest page the clients ask for [C5]; the maximum per_page is not published. */
const PER_PAGE = 50;
/** A guard against a collection that never ends (a `next` that points back): 200 pages of 50. */
const MAX_PAGES = 200;
/** The label of an evidence file: dispute labels are not published [S14]; ours names what it is. */
export const EVIDENCE_LABEL = "dispute_evidence";

/**
 * Tokens by API root, client id and a hash of the secret (a rotated secret gets a token of its own),
 * until shortly before `expires_in` runs out. Process-wide: each poll would otherwise ask for one.
 */
const tokens = new Map<string, { accessToken: string; renewAt: number }>();

/** Renew a minute before expiry, or at half-life for short-lived tokens ([C4] renews 15 minutes early). */
function renewAt(expiresInSeconds: number, now: number): number {
  return now + Math.max(expiresInSeconds * 500, expiresInSeconds * 1000 - 60_000);
}

/**
 * The `self` hrefs of disputes and settlements seen in a listing, by API root and id: the API gives
 * no URL to build for one id and no id modifier in DQL or SQL [S6, S9], so one dispute or
 * settlement is read at the link it was listed with, else found again by listing.
 */
const selfLinks = new Map<string, string>();

/** Forgets every cached token and link (tests). */
export function forgetMerchantApiTokens(): void {
  tokens.clear();
  selfLinks.clear();
}

export function createClearhausMerchantApiClient(settings: MerchantApiClientSettings): AcquirerReportingClient<ClearhausMerchantApiCredentials> {
  const root = settings.baseUrl.replace(/\/+$/, "");
  const rootOrigin = new URL(root).origin;

  function cacheKey(credentials: ClearhausMerchantApiCredentials): string {
    return `${root}\n${credentials.clientId}\n${createHash("sha256").update(credentials.clientSecret).digest("hex")}`;
  }

  /** POST {root}/oauth/token, Basic client auth, `grant_type=client_credentials&audience={root}` [C2-C5]. */
  async function token(call: Call, { fresh = false } = {}): Promise<string> {
    const key = cacheKey(call.credentials);
    const cached = tokens.get(key);
    if (cached && !fresh && cached.renewAt > Date.now()) return cached.accessToken;
    const outcome = await send({
      url: `${root}/oauth/token`,
      method: "POST",
      headers: {
        authorization: basicAuth(call.credentials.clientId, call.credentials.clientSecret),
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({ grant_type: "client_credentials", audience: root }).toString(),
      timeoutMs: settings.timeoutMs,
      signal: call.signal,
    });
    if (outcome.kind !== "response") throw new ReportingApiError(`Clearhaus Merchant API token: no answer (${outcome.kind})`);
    // The error body is not published; RFC 6749 §5.2 names `invalid_client`, which one client reads [C3].
    if (outcome.status === 401 || outcome.status === 403 || /"error"\s*:\s*"invalid_client"/.test(outcome.text)) {
      tokens.delete(key);
      throw new ReportingApiError("Clearhaus Merchant API refused the client id and secret", true, outcome.status);
    }
    if (outcome.status !== 200) throw new ReportingApiError(`Clearhaus Merchant API token: HTTP ${outcome.status}`, false, outcome.status);
    const answer = readAnswer(outcome.text, merchantApiToken, "the token answer");
    tokens.set(key, { accessToken: answer.access_token, renewAt: renewAt(answer.expires_in, Date.now()) });
    return answer.access_token;
  }

  interface Request {
    method: "GET" | "POST" | "PUT";
    url: string;
    json?: unknown;
    bytes?: { data: Uint8Array; contentType: string };
  }

  /**
   * One authenticated call. A 401 with a cached token gets one more try with a fresh token (it may
   * have been revoked); a 401 or 403 then means the client's credentials are refused.
   */
  async function request({ method, url, json, bytes }: Request, call: Call, what: string): Promise<{ status: number; text: string }> {
    // The Bearer token goes only to the API's own origin: an upload link is a pre-signed URL on
    // another host [S14] that needs no token, and a token must not leak to it. A link to another
    // host is the answer's choice, not the operator's: it passes the egress guard first
    // (docs/decisions/0211-links-in-acquirer-answers-go-through-the-egress-guard.md).
    const sameOrigin = new URL(url).origin === rootOrigin;
    const egress = sameOrigin ? undefined : egressPolicy();
    for (let attempt = 0; attempt < 2; attempt++) {
      const headers: Record<string, string> = { accept: "application/hal+json, application/json" };
      if (sameOrigin) headers.authorization = `Bearer ${await token(call, { fresh: attempt > 0 })}`;
      if (json !== undefined) headers["content-type"] = "application/json";
      if (bytes) headers["content-type"] = bytes.contentType;
      const outcome = await send({
        url,
        method,
        headers,
        body: json !== undefined ? JSON.stringify(json) : bytes?.data,
        timeoutMs: settings.timeoutMs,
        signal: call.signal,
        egress,
      });
      if (outcome.kind === "refused")
        throw new ReportingApiError(`Clearhaus Merchant API ${what}: ${outcome.reason}`, false, undefined, { host: new URL(url).host, reason: outcome.reason });
      if (outcome.kind !== "response") throw new ReportingApiError(`Clearhaus Merchant API ${what}: no answer (${outcome.kind})`);
      if (outcome.status === 401 && sameOrigin && attempt === 0) continue;
      if (outcome.status === 401 || outcome.status === 403)
        throw new ReportingApiError(`Clearhaus Merchant API ${what}: HTTP ${outcome.status}, access refused`, true, outcome.status);
      if (outcome.status < 200 || outcome.status > 299)
        throw new ReportingApiError(`Clearhaus Merchant API ${what}: HTTP ${outcome.status}`, false, outcome.status);
      return outcome;
    }
    throw new ReportingApiError(`Clearhaus Merchant API ${what}: access refused`, true, 401);
  }

  async function get<T extends z.ZodType>(url: string, schema: T, what: string, call: Call): Promise<z.infer<T>> {
    const answer = await request({ method: "GET", url }, call, what);
    return readAnswer(answer.text, schema, what);
  }

  /** A link's target: hrefs are expanded even when not marked templated (the dispute example [S4] leaves `templated` out). */
  function target(links: HalLinks | undefined, relation: string, what: string, values: TemplateValues = {}): string {
    const link = linkOf(links, relation);
    if (!link) throw new ReportingApiError(`Clearhaus Merchant API: ${what} has no ${relation} link`);
    return resolve(expandUriTemplate(link.href, values));
  }

  /** Hrefs are absolute in every example; a relative one is read against the root. */
  function resolve(href: string): string {
    return new URL(href, `${root}/`).toString();
  }

  async function rootLinks(call: Call): Promise<HalLinks> {
    return (await get(root, merchantApiRoot, "the root resource", call))._links;
  }

  /**
   * Every item of a page-based collection (page/per_page, count [S5, S8]): pages are asked for by
   * the relation's template, until the count is reached or a page comes back short.
   */
  async function everyPage<T extends z.ZodType>(
    template: { links: HalLinks; relation: string; query?: string },
    embedded: string,
    item: T,
    call: Call,
  ): Promise<z.infer<T>[]> {
    const schema = pagedCollection(embedded, item);
    const items: z.infer<T>[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const url = target(template.links, template.relation, "the root resource", { query: template.query, page, per_page: PER_PAGE });
      const answer = await get(url, schema, `${embedded} page ${page}`, call);
      const found = (answer._embedded?.[embedded] ?? []) as z.infer<T>[];
      items.push(...found);
      const perPage = answer.per_page ?? PER_PAGE;
      if (found.length < perPage || (answer.count !== undefined && page * perPage >= answer.count)) return items;
    }
    throw new ReportingApiError(`Clearhaus Merchant API: ${embedded} has more than ${MAX_PAGES} pages`);
  }

  /** Every transaction of a cursor-based collection: follow `next` as given until it is gone [S11]. */
  async function everyTransaction(url: string, call: Call) {
    const items: z.infer<typeof merchantApiTransaction>[] = [];
    let next: string | undefined = url;
    for (let page = 1; next; page++) {
      if (page > MAX_PAGES) throw new ReportingApiError(`Clearhaus Merchant API: transactions have more than ${MAX_PAGES} pages`);
      const answer: z.infer<typeof transactionsPage> = await get(next, transactionsPage, `transactions page ${page}`, call);
      items.push(...(answer._embedded?.["ch:transactions"] ?? []));
      const link = linkOf(answer._links, "next");
      next = link ? resolve(link.href) : undefined;
    }
    return items;
  }

  /** Transaction ids by their resource's href: a dispute's transaction never changes. */
  const transactionIds = new Map<string, string>();

  /** The id of the dispute's transaction, from its `ch:transaction` resource (not taken apart from the href). */
  async function transactionIdOf(dispute: MerchantApiDispute, call: Call): Promise<string | undefined> {
    const link = linkOf(dispute._links, "ch:transaction");
    if (!link) return undefined;
    const href = resolve(expandUriTemplate(link.href));
    const known = transactionIds.get(href);
    if (known) return known;
    const transaction = await get(href, merchantApiTransaction, "the dispute's transaction", call);
    transactionIds.set(href, transaction.id);
    return transaction.id;
  }

  async function toDispute(dispute: MerchantApiDispute, call: Call): Promise<AcquirerDispute> {
    return fromMerchantApiDispute(dispute, await transactionIdOf(dispute, call));
  }

  function remember(kind: "dispute" | "settlement", resource: { id: string; _links?: HalLinks }): void {
    const self = linkOf(resource._links, "self");
    if (self) selfLinks.set(`${root}\n${kind}\n${resource.id}`, resolve(self.href));
  }

  /** The resource of one id: at its remembered `self` link, else found by listing with `queries` (undefined: every one). */
  async function resourceOf<T extends z.ZodType<{ id: string; _links?: HalLinks }>>(
    kind: "dispute" | "settlement",
    id: string,
    schema: T,
    queries: readonly (string | undefined)[],
    call: Call,
  ): Promise<z.infer<T>> {
    const self = selfLinks.get(`${root}\n${kind}\n${id}`);
    if (self) {
      const found = await get(self, schema, `the ${kind}`, call);
      if (found.id === id) return found;
    }
    const links = await rootLinks(call);
    const relation = kind === "dispute" ? "ch:disputes" : "ch:settlements";
    for (const query of queries) {
      const found = (await everyPage({ links, relation, query }, relation, schema, call)).find((candidate) => candidate.id === id);
      if (found) {
        remember(kind, found);
        return found;
      }
    }
    throw new ReportingApiError(`Clearhaus Merchant API: no ${kind} ${id}`, false, 404);
  }

  /** The dispute resource of `disputeId`: the unresolved ones first (the only ones that can be answered), then every one. */
  function disputeResource(disputeId: string, call: Call): Promise<MerchantApiDispute> {
    return resourceOf("dispute", disputeId, merchantApiDispute, [...UNRESOLVED_QUERIES, undefined], call);
  }

  async function refresh(dispute: MerchantApiDispute, call: Call): Promise<MerchantApiDispute> {
    return get(target(dispute._links, "self", "the dispute"), merchantApiDispute, "the dispute", call);
  }

  return {
    async checkCredentials(call) {
      try {
        const links = await rootLinks(call);
        const accounts = await everyPage({ links, relation: "ch:accounts" }, "ch:accounts", merchantApiAccount, call);
        const first = accounts[0];
        const details: Record<string, string> = { accounts: String(accounts.length) };
        for (const key of ["merchant_id", "name", "currency", "country", "mcc", "descriptor"] as const) {
          const value = first?.[key];
          if (value) details[key] = value;
        }
        return { ok: true, message: `Merchant API: token accepted, ${accounts.length} account(s) visible`, details };
      } catch (error) {
        if (error instanceof ReportingApiError)
          return { ok: false, message: error.credentialsRefused ? "Merchant API: the client id and secret are refused" : error.message };
        return { ok: false, message: "Merchant API: the check failed" };
      }
    },

    async disputes({ openedOnOrAfter }, call) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(openedOnOrAfter)) throw new ReportingApiError(`not a date: ${openedOnOrAfter}`);
      const links = await rootLinks(call);
      // Modifiers in one query narrow each other [S6: "status:open due:today reason:fraud"], and
      // comma lists are documented for reason and reason_code only: the opened ones and each
      // unresolved status are separate queries, merged by id.
      const byId = new Map<string, MerchantApiDispute>();
      for (const query of [`opened:>=${openedOnOrAfter}`, ...UNRESOLVED_QUERIES]) {
        for (const dispute of await everyPage({ links, relation: "ch:disputes", query }, "ch:disputes", merchantApiDispute, call))
          byId.set(dispute.id, dispute);
      }
      for (const dispute of byId.values()) remember("dispute", dispute);
      const disputes: AcquirerDispute[] = [];
      for (const dispute of byId.values()) disputes.push(await toDispute(dispute, call));
      return disputes;
    },

    async dispute(disputeId, call) {
      return toDispute(await disputeResource(disputeId, call), call);
    },

    async submitEvidence(disputeId, { files, comment }, call) {
      const dispute = await disputeResource(disputeId, call);
      for (const file of files) {
        // POST the metadata to the dispute's ch:files (label and content_type required [S14]), then
        // PUT the bytes to the file's `upload` link [C1].
        const created = await request(
          {
            method: "POST",
            url: target(dispute._links, "ch:files", "the dispute"),
            json: { label: EVIDENCE_LABEL, name: file.fileName, content_type: file.contentType, size: file.bytes.byteLength },
          },
          call,
          "file creation",
        );
        const metadata = readAnswer(created.text, merchantApiFile, "the created file");
        const upload = namedLink(metadata._links, "ch:data", "upload");
        if (!upload) throw new ReportingApiError("Clearhaus Merchant API: the created file has no upload link");
        await request({ method: "PUT", url: resolve(upload.href), bytes: { data: file.bytes, contentType: file.contentType } }, call, "file upload");
      }
      // A comment is POSTed as { body } to ch:comments [C1]; the dashboard keeps comments internal [S17].
      if (comment?.trim())
        await request({ method: "POST", url: target(dispute._links, "ch:comments", "the dispute"), json: { body: comment } }, call, "comment");
    },

    async answerDispute(disputeId, decision, call) {
      const dispute = await disputeResource(disputeId, call);
      const name = decision === "refute" ? "refuted" : "accepted";
      const stamp = namedLink(dispute._links, "ch:stamps", name);
      if (!stamp)
        throw new ReportingApiError(`Clearhaus Merchant API: dispute ${disputeId} (${dispute.status}) offers no ${name} stamp`, false, 409);
      // A PUT without a body on the named stamp [C1]; its answer is not published, so the dispute is read again.
      await request({ method: "PUT", url: resolve(expandUriTemplate(stamp.href)) }, call, `${name} stamp`);
      return toDispute(await refresh(dispute, call), call);
    },

    async settlements({ periodEndOnOrAfter }, call): Promise<AcquirerSettlement[]> {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(periodEndOnOrAfter)) throw new ReportingApiError(`not a date: ${periodEndOnOrAfter}`);
      const links = await rootLinks(call);
      // SQL [S9]: `period.end_date:>=D`, and the open ones `settled:false`, as two queries (modifiers narrow).
      const byId = new Map<string, z.infer<typeof merchantApiSettlement>>();
      for (const query of [`period.end_date:>=${periodEndOnOrAfter}`, "settled:false"]) {
        for (const settlement of await everyPage({ links, relation: "ch:settlements", query }, "ch:settlements", merchantApiSettlement, call))
          byId.set(settlement.id, settlement);
      }
      for (const settlement of byId.values()) remember("settlement", settlement);
      return [...byId.values()].map(fromMerchantApiSettlement);
    },

    async settlementLines(settlementId, call): Promise<AcquirerSettlementLine[]> {
      const settlement = await resourceOf("settlement", settlementId, merchantApiSettlement, ["settled:false", undefined], call);
      const url = target(settlement._links, "ch:transactions", "the settlement", { per_page: PER_PAGE });
      return (await everyTransaction(url, call)).map(fromMerchantApiTransaction);
    },
  };
}

/** The disputes not yet closed, one DQL status each [S6]. */
const UNRESOLVED_QUERIES = ["status:open", "status:under_review", "status:refuted"] as const;
