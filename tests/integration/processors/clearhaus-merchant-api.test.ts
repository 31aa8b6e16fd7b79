// The Clearhaus Merchant API client against its strict sandbox over HTTP, reached as test mode
// reaches it (reportingClientFor with the built-in sandboxes running): token, disputes paged, evidence
// and a refute that reach the sandbox (the file's bytes, the stamp), settlements and their lines, and
// refused credentials. Payments are made at the gateway sandbox first: the two share their ledger.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { ReportingApiError, type AcquirerReportingClient, type ProcessorConnector } from "@/lib/acquirers/contract";
import type { ClearhausMerchantApiCredentials } from "@/lib/acquirers/clearhaus/reporting/credentials";
import { forgetMerchantApiTokens } from "@/lib/acquirers/clearhaus/reporting/client";
import { reportingClientFor, reportingOf } from "@/lib/acquirers/reporting";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { MERCHANT_API_SANDBOX_CLIENTS } from "@/lib/sandboxes/acquirers/clearhaus/merchant-api/clients";
import { connectorAt, sandboxCredentials } from "@/tests/helpers/acquirer-accounts";
import { newId } from "@/lib/ids";
import { merchantApiSandboxAuth } from "@/tests/helpers/merchant-api-sandbox";

let sandboxes: RunningSandboxes;
let gateway: ProcessorConnector;
let client: AcquirerReportingClient<ClearhausMerchantApiCredentials>;
const credentials = { clientId: MERCHANT_API_SANDBOX_CLIENTS[0]!.clientId, clientSecret: MERCHANT_API_SANDBOX_CLIENTS[0]!.clientSecret };
const call = { credentials };

beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, extensions: true });
  gateway = connectorAt(sandboxes.urls.clearhaus!, sandboxCredentials("clearhaus"));
  client = reportingClientFor("clearhaus", "test") as AcquirerReportingClient<ClearhausMerchantApiCredentials>;
});
afterAll(async () => {
  await sandboxes.close();
  forgetMerchantApiTokens();
});

/** An approved authorization and its capture at the gateway sandbox: the capture's id is the Merchant API's transaction id. */
async function capturedPayment(amount: bigint): Promise<{ authorization: string; capture: string; operationId: string }> {
  const operationId = newId();
  const card = new CardDetails({ pan: "4111111111111111", expMonth: 12, expYear: new Date().getUTCFullYear() + 2, securityCode: "987" });
  const authorized = await gateway.authorize({ operationId, paymentId: newId(), amount, currency: "DKK", card });
  expect(authorized.status).toBe("approved");
  const captured = await gateway.capture({ operationId: newId(), amount, currency: "DKK", authorizationReference: authorized.processorReference! });
  expect(captured.status).toBe("approved");
  return { authorization: authorized.processorReference!, capture: captured.processorReference!, operationId };
}

async function scenario(path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await fetch(`${sandboxes.reportingUrls.clearhaus}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(answer.status, await answer.clone().text()).toBeLessThan(300);
  return (await answer.json()) as Record<string, unknown>;
}

describe("Clearhaus Merchant API client against its sandbox", () => {
  it("is test mode's reporting client while the sandboxes run, and live mode's only at the production entrypoint", () => {
    expect(client).toBeDefined();
    expect(reportingOf("clearhaus")?.endpoint("live", {})).toBe("https://merchant.clearhaus.com");
    expect(reportingOf("finaro")).toBeUndefined();
    expect(reportingClientFor("finaro", "test")).toBeUndefined();
  });

  it("checks the client's credentials with a token and the account, and reports refused ones as failing", async () => {
    const check = await client.checkCredentials(call);
    expect(check).toMatchObject({ ok: true, details: { merchant_id: "000000000000001", accounts: "1" } });
    const refused = await client.checkCredentials({ credentials: { ...credentials, clientSecret: "wrong-secret-123" } });
    expect(refused.ok).toBe(false);
    await expect(client.disputes({ openedOnOrAfter: "2024-01-01" }, { credentials: { ...credentials, clientSecret: "wrong-secret-123" } })).rejects.toSatisfy(
      (error) => error instanceof ReportingApiError && error.credentialsRefused,
    );
  });

  it("pages through disputes: every recent one and every unresolved older one, once each, with its transaction", async () => {
    const payments = [];
    for (let index = 0; index < 3; index++) payments.push(await capturedPayment(10_000n + BigInt(index)));
    const today = new Date().toISOString().slice(0, 10);
    // 55 recent disputes (more than one page of 50), one old open one, one old won one.
    for (let index = 0; index < 55; index++)
      await scenario("/sandbox/disputes", { transaction_id: payments[index % 3]!.capture, amount: 100 + index, reason: "fraud", reason_code: "10.4" });
    const oldOpen = await scenario("/sandbox/disputes", { transaction_id: payments[0]!.capture, reason: "duplicate", reason_code: "12.6.1", opened_at: "2020-01-02" });
    const oldWon = await scenario("/sandbox/disputes", { transaction_id: payments[1]!.capture, reason: "duplicate", reason_code: "12.6.1", opened_at: "2020-01-03" });
    await scenario(`/sandbox/disputes/${oldWon.id as string}/close`, { outcome: "won" });

    const disputes = await client.disputes({ openedOnOrAfter: today }, call);
    const ids = disputes.map((dispute) => dispute.disputeId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(oldOpen.id);
    expect(ids).not.toContain(oldWon.id);
    expect(disputes.filter((dispute) => dispute.openedOn === today)).toHaveLength(55);
    const first = disputes.find((dispute) => dispute.amount === 100n)!;
    expect(first).toMatchObject({ transactionId: payments[0]!.capture, kind: "chargeback", status: "open", reason: "fraud", reasonCode: "10.4", currency: "DKK", partial: true, answers: ["refute", "accept"] });
  });

  it("sends evidence and a refute that reach the sandbox: the file's bytes, the comment and the stamp", async () => {
    const payment = await capturedPayment(25_000n);
    const opened = await scenario("/sandbox/disputes", { transaction_id: payment.capture, reason: "product_not_provided", reason_code: "13.1" });
    const disputeId = opened.id as string;
    const pdf = new TextEncoder().encode("%PDF-1.4\n% delivery receipt\n%%EOF\n");
    await client.submitEvidence(disputeId, { files: [{ fileName: "receipt.pdf", contentType: "application/pdf", bytes: pdf }], comment: "Delivered, signed." }, call);
    const answered = await client.answerDispute(disputeId, "refute", call);
    expect(answered).toMatchObject({ disputeId, status: "under-review", answers: [], transactionId: payment.capture });
    await expect(client.answerDispute(disputeId, "accept", call)).rejects.toBeInstanceOf(ReportingApiError);

    // What reached the sandbox, read back through the API itself with a token of the same client.
    const root = sandboxes.reportingUrls.clearhaus!;
    const auth = await merchantApiSandboxAuth(root, credentials);
    const files = (await (await fetch(`${root}/disputes/${disputeId}/files`, { headers: auth })).json()) as {
      _embedded: { "ch:files": { name: string; content_type: string; _links: { "ch:data": { href: string; name: string }[] } }[] };
    };
    expect(files._embedded["ch:files"]).toHaveLength(1);
    const [file] = files._embedded["ch:files"];
    expect(file).toMatchObject({ name: "receipt.pdf", content_type: "application/pdf" });
    const download = file!._links["ch:data"].find((link) => link.name === "download")!.href;
    const bytes = new Uint8Array(await (await fetch(download, { headers: auth })).arrayBuffer());
    expect(Buffer.from(bytes).equals(Buffer.from(pdf))).toBe(true);
    const comments = (await (await fetch(`${root}/disputes/${disputeId}/comments`, { headers: auth })).json()) as { _embedded: { "ch:comments": { body: string }[] } };
    expect(comments._embedded["ch:comments"].map((comment) => comment.body)).toEqual(["Delivered, signed."]);
    expect((await client.dispute(disputeId, call)).status).toBe("under-review");
  });

  it("reads settlements and their lines: a matching one, a different amount and one the gateway never saw", async () => {
    const matching = await capturedPayment(30_000n);
    const differing = await capturedPayment(40_000n);
    const published = await scenario("/sandbox/settlements", {
      currency: "DKK",
      period: { start_date: "2031-01-05", end_date: "2031-01-11" },
      payout: { date: "2031-01-13", reference_number: "73423589061" },
      fees: { sales: -700, interchange: -100 },
      transactions: [
        { id: matching.capture, fees: -300 },
        { id: differing.capture, amount_gross: 39_000, fees: -400 },
        { new: { type: "capture", amount: 5_000, reference: "not-ours" }, fees: -100 },
      ],
    });
    const settlements = await client.settlements({ periodEndOnOrAfter: "2031-01-01" }, call);
    const settlement = settlements.find((candidate) => candidate.settlementId === published.id)!;
    expect(settlement).toMatchObject({
      settled: true,
      currency: "DKK",
      periodStart: "2031-01-05",
      periodEnd: "2031-01-11",
      fees: { sales: -700n, interchange: -100n },
      summary: { sales: 74_000n, fees: -800n, net: 73_200n },
      payout: { amount: 73_200n, date: "2031-01-13", reference: "73423589061" },
    });
    const lines = await client.settlementLines(settlement.settlementId, call);
    expect(lines).toHaveLength(3);
    expect(lines.find((line) => line.transactionId === matching.capture)).toMatchObject({
      type: "capture",
      reference: matching.operationId.slice(0, 30),
      amount: 30_000n,
      settled: { gross: 30_000n, fees: -300n, net: 29_700n, currency: "DKK" },
    });
    expect(lines.find((line) => line.transactionId === differing.capture)?.settled).toMatchObject({ gross: 39_000n });
    expect(lines.find((line) => line.reference === "not-ours")).toMatchObject({ amount: 5_000n, type: "capture" });
  });
});
