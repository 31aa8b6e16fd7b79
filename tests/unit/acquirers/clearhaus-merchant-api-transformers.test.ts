// The Clearhaus Merchant API's documented answers (lib/acquirers/clearhaus/reporting/fixtures/*.json)
// read as our disputes, settlements and lines; answers that are not as documented are refused.
import { describe, expect, it } from "vitest";
import { ReportingApiError } from "@/lib/acquirers/contract";
import {
  CLEARHAUS_DISPUTE_STATUSES,
  CLEARHAUS_DISPUTE_TYPES,
  disputeKindOf,
  disputeStatusOf,
  fromMerchantApiDispute,
  fromMerchantApiSettlement,
  fromMerchantApiTransaction,
  merchantApiDispute,
  merchantApiRoot,
  merchantApiSettlement,
  pagedCollection,
  readAnswer,
  transactionsPage,
} from "@/lib/acquirers/clearhaus/reporting/transformers";
import { expandUriTemplate } from "@/lib/acquirers/plumbing/uri-template";
import dispute from "@/lib/acquirers/clearhaus/reporting/fixtures/dispute.json";
import disputesList from "@/lib/acquirers/clearhaus/reporting/fixtures/disputes-list.json";
import settlement from "@/lib/acquirers/clearhaus/reporting/fixtures/settlement.json";
import transactions from "@/lib/acquirers/clearhaus/reporting/fixtures/transactions.json";
import root from "@/lib/acquirers/clearhaus/reporting/fixtures/root.json";

const text = (value: unknown) => JSON.stringify(value);

describe("Clearhaus Merchant API disputes", () => {
  it("reads the published dispute example as an open first chargeback in minor units", () => {
    const read = fromMerchantApiDispute(readAnswer(text(dispute.response.body), merchantApiDispute, "dispute"), "a51a3abe-8eee-4a92-b941-e89f18c5bf66");
    expect(read).toEqual({
      disputeId: "c6d9153b-32cb-472a-9dc9-553e9c79ea22",
      transactionId: "a51a3abe-8eee-4a92-b941-e89f18c5bf66",
      reference: "76305919047987300424222",
      kind: "chargeback",
      status: "open",
      reasonCode: "12.6.1",
      reason: "duplicate",
      amount: 58704n,
      currency: "DKK",
      partial: false,
      openedOn: "2016-02-28",
      dueOn: "2016-03-13",
      expiresOn: "2016-04-10",
      answers: [],
    });
  });

  it("offers as answers exactly the stamps the dispute links (the list example's refuted stamp)", () => {
    const list = readAnswer(text(disputesList.response.body), pagedCollection("ch:disputes", merchantApiDispute), "disputes");
    const [item] = list._embedded!["ch:disputes"]!;
    expect(fromMerchantApiDispute(item!).answers).toEqual(["refute"]);
    expect(fromMerchantApiDispute(item!).reasonCode).toBe("4837");
    const both = { ...item!, _links: { ...item!._links, "ch:stamps": [{ href: "x/refuted", name: "refuted" }, { href: "x/accepted", name: "accepted" }] } };
    expect(fromMerchantApiDispute(both).answers).toEqual(["refute", "accept"]);
  });

  it("maps every documented type and status to ours", () => {
    expect(CLEARHAUS_DISPUTE_TYPES.map(disputeKindOf)).toEqual(["retrieval-request", "chargeback", "second-chargeback"]);
    expect(CLEARHAUS_DISPUTE_STATUSES.map(disputeStatusOf)).toEqual(["open", "under-review", "refuted", "won", "lost"]);
  });

  it("refuses a dispute whose status, amount or body is not as documented, without quoting it", () => {
    const body = dispute.response.body;
    const attempts = [
      text({ ...body, status: "pending" }),
      text({ ...body, amount: 587.04 }),
      text({ ...body, type: "chargeback" }),
      text({ ...body, opened_at: "28/02/2016" }),
      "<html>secret-ish</html>",
    ];
    for (const attempt of attempts) {
      expect(() => readAnswer(attempt, merchantApiDispute, "the dispute")).toThrow(ReportingApiError);
      try {
        readAnswer(attempt, merchantApiDispute, "the dispute");
      } catch (error) {
        expect((error as ReportingApiError).credentialsRefused).toBe(false);
        expect((error as Error).message).not.toContain("secret-ish");
      }
    }
  });
});

describe("Clearhaus Merchant API settlements", () => {
  it("reads the published settlement example: summary, payout and reserve, and payout plus reserve is the net", () => {
    const read = fromMerchantApiSettlement(readAnswer(text(settlement.response.body), merchantApiSettlement, "settlement"));
    expect(read).toMatchObject({
      settlementId: "a11a7616-a0ae-5301-a83b-a9d6b8f62a56",
      settled: true,
      currency: "USD",
      periodStart: "2017-03-15",
      periodEnd: "2017-03-21",
      payout: { amount: 34979873n, date: "2017-03-23", reference: "73423589061" },
      reserve: { amount: 1841046n, date: "2017-06-20", reference: "73423589064" },
      summary: { sales: 43544215n, credits: -513250n, refunds: -2518314n, chargebacks: -15634n, fees: -1329828n, otherPostings: -2346270n, net: 36820919n },
      fees: {},
      otherPostings: [],
    });
    const { summary } = read;
    expect(summary.sales + summary.credits + summary.refunds + summary.chargebacks + summary.fees + summary.otherPostings).toBe(summary.net);
    expect(read.payout!.amount + read.reserve!.amount).toBe(summary.net);
  });

  it("keeps fees by their kind and other postings, and leaves out a fees.total that is no kind", () => {
    const body = {
      ...settlement.response.body,
      fees: { sales: -1000, interchange: -200, "3dsecure": -5, total: -1205 },
      other_postings: [{ date: "2017-03-20", text: "Reserve release", amount: 1500 }],
    };
    const read = fromMerchantApiSettlement(readAnswer(text(body), merchantApiSettlement, "settlement"));
    expect(read.fees).toEqual({ sales: -1000n, interchange: -200n, "3dsecure": -5n });
    expect(read.otherPostings).toEqual([{ date: "2017-03-20", text: "Reserve release", amount: 1500n }]);
  });

  it("reads an open settlement without payout or reserve, and refuses one without its summary", () => {
    const { payout: _payout, reserve: _reserve, ...open } = settlement.response.body;
    const read = fromMerchantApiSettlement(readAnswer(text({ ...open, settled: false }), merchantApiSettlement, "settlement"));
    expect(read.payout).toBeUndefined();
    expect(read.reserve).toBeUndefined();
    const { summary: _summary, ...noSummary } = settlement.response.body;
    expect(() => readAnswer(text(noSummary), merchantApiSettlement, "settlement")).toThrow(ReportingApiError);
  });

  it("reads a transaction of a settlement as a line with what the settlement counted for it", () => {
    const page = readAnswer(text(transactions.response.body), transactionsPage, "transactions");
    const [line] = page._embedded!["ch:transactions"]!.map(fromMerchantApiTransaction);
    expect(line).toEqual({
      transactionId: "a51a3abe-8eee-4a92-b941-e89f18c5bf66",
      type: "capture",
      reference: "order-1001",
      amount: 58704n,
      currency: "DKK",
      processedAt: new Date("2016-02-01T10:12:13Z"),
      settled: { gross: 58704n, fees: -880n, net: 57824n, currency: "DKK" },
    });
    const unknownType = { ...transactions.response.body, _embedded: { "ch:transactions": [{ ...transactions.response.body._embedded["ch:transactions"][0], type: "sale" }] } };
    expect(() => readAnswer(text(unknownType), transactionsPage, "transactions")).toThrow(ReportingApiError);
  });
});

describe("Clearhaus Merchant API links", () => {
  it("expands the root's templates as RFC 6570 says: unset variables drop out, query values are percent-encoded", () => {
    const links = readAnswer(text(root.response.body), merchantApiRoot, "root")._links;
    const disputes = (links["ch:disputes"] as { href: string }).href;
    expect(expandUriTemplate(disputes, { query: "opened:>=2024-01-31", page: 2, per_page: 50 })).toBe(
      "https://merchant.test.clearhaus.com/disputes?query=opened%3A%3E%3D2024-01-31&page=2&per_page=50",
    );
    expect(expandUriTemplate(disputes)).toBe("https://merchant.test.clearhaus.com/disputes");
    expect(expandUriTemplate("https://x/settlements{?query,page,per_page}", { query: "settled:false", per_page: 50 })).toBe(
      "https://x/settlements?query=settled%3Afalse&per_page=50",
    );
    expect(expandUriTemplate("https://x/a/{id}{?page}", { id: "a b/c" })).toBe("https://x/a/a%20b%2Fc");
    expect(() => expandUriTemplate("https://x/{+path}", { path: "a" })).toThrow();
  });
});
