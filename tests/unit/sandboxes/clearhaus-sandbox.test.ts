// The strict Clearhaus sandbox answers what the Gateway API docs and ActiveMerchant's recordings
// show (lib/acquirers/clearhaus/fixtures/*.json, each naming its source), for requests built by
// hand from those references, not by our connector.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createClearhausSandbox } from "@/lib/sandboxes/acquirers/clearhaus";
import { CLEARHAUS_SANDBOX_ACCOUNTS } from "@/lib/sandboxes/acquirers/clearhaus/accounts";

const FIXTURES = path.resolve(import.meta.dirname, "../../../lib/acquirers/clearhaus/fixtures");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fixture = (name: string): any => JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8"));

const account = CLEARHAUS_SANDBOX_ACCOUNTS[0]!;
const basic = (key = account.apiKey) => `Basic ${Buffer.from(`${key}:`).toString("base64")}`;
const nextYear = String(new Date().getUTCFullYear() + 1);

function call(
  handler: (request: Request) => Promise<Response>,
  method: string,
  pathname: string,
  { form, body, headers = {} }: { form?: Record<string, string>; body?: string; headers?: Record<string, string> } = {},
) {
  const text = body ?? (form ? new URLSearchParams(form).toString() : undefined);
  return handler(
    new Request(`http://clearhaus.test${pathname}`, {
      method,
      headers: { authorization: basic(), ...(text ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...headers },
      body: text,
    }),
  );
}

/** The docs' authorization example with this year's expiry ("06/2022" in the docs is long expired). */
const docsAuthorization = (): Record<string, string> => ({ ...fixture("authorize-approved").request.form, "card[expire_year]": nextYear });

describe("strict clearhaus sandbox", () => {
  it("answers an unknown API key with 401 and no body, as documented", async () => {
    const { handler } = createClearhausSandbox();
    const response = await handler(
      new Request("http://clearhaus.test/", { headers: { authorization: basic("00000000-0000-4000-8000-000000000000") } }),
    );
    expect(response.status).toBe(fixture("error-unauthorized").response.httpStatus);
    expect(await response.text()).toBe("");
  });

  it("serves only the documented resources: discovery, account; 404 for the rest (look-up, card updates, GET transactions)", async () => {
    const { handler } = createClearhausSandbox();
    const discovery = await call(handler, "GET", "/");
    expect(await discovery.json()).toEqual(fixture("discovery").response.body);
    const accountAnswer = await (await call(handler, "GET", "/account")).json();
    expect(Object.keys(accountAnswer)).toEqual(expect.arrayContaining(Object.keys(fixture("account").response.body)));
    for (const [method, pathname] of [
      ["GET", "/transactions?reference=x"],
      ["GET", "/card_updates"],
      ["GET", "/authorizations/84412a34-fa29-4369-a098-0165a80e8fda"],
      ["POST", "/sandbox/card-updates"],
      ["POST", "/payouts"],
    ] as const) {
      expect((await call(handler, method, pathname, method === "POST" ? { form: {} } : {})).status, pathname).toBe(404);
    }
  });

  it("approves the docs' authorization example; CSC 987 and only 987 matches", async () => {
    const { handler } = createClearhausSandbox();
    const approved = await call(handler, "POST", "/authorizations", { form: docsAuthorization() });
    expect(approved.status).toBe(201);
    expect(approved.headers.get("content-type")).toMatch(/^application\/vnd\.clearhaus-gateway\.hal\+json; version=0\.10\.0/);
    const body = await approved.json();
    expect(body).toMatchObject({ status: { code: 20000 }, csc: { present: true, matches: false } });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).not.toHaveProperty("authorization_code");
    const matching = await (
      await call(handler, "POST", "/authorizations", { form: { ...docsAuthorization(), "card[csc]": "987" } })
    ).json();
    expect(matching.csc).toEqual({ present: true, matches: true });
  });

  it("refuses a missing parameter with the docs' own answer (HTTP 400, status 40000, no id)", async () => {
    const { handler } = createClearhausSandbox();
    const missing = fixture("authorize-error-missing-amount");
    const response = await call(handler, "POST", "/authorizations", { form: { ...missing.request.form, "card[expire_year]": nextYear } });
    expect(response.status).toBe(missing.response.httpStatus);
    expect(await response.json()).toEqual(missing.response.body);
  });

  it("answers the recorded test-gateway decisions: 4200000000000000 with amount 100 is 40110, currency ABC is 40140", async () => {
    const { handler } = createClearhausSandbox();
    const invalidCard = fixture("authorize-declined-invalid-card-number");
    const card = await (
      await call(handler, "POST", "/authorizations", { form: { ...invalidCard.request.form, "card[expire_year]": nextYear } })
    ).json();
    expect(card.status).toMatchObject(invalidCard.response.body.status);
    const currency = fixture("authorize-declined-invalid-currency");
    const wrongCurrency = await (
      await call(handler, "POST", "/authorizations", { form: { ...currency.request.form, "card[expire_year]": nextYear } })
    ).json();
    expect(wrongCurrency.status).toEqual(currency.response.body.status);
  });

  it("refuses raw 3-D Secure data with only eci and av (what main sent): trans_status is required", async () => {
    const { handler } = createClearhausSandbox();
    const form = {
      ...docsAuthorization(),
      "card[3dsecure][v2][raw][eci]": "05",
      "card[3dsecure][v2][raw][av]": "mK225wGt2bLnnLB0UlRky0oHLnU=",
    };
    const response = await call(handler, "POST", "/authorizations", { form });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      status: { code: 40000, message: "parameter 'card[3dsecure][v2][raw][trans_status]' is required" },
    });
    const complete = { ...fixture("authorize-3ds-raw").request.form, "card[expire_year]": nextYear };
    expect((await (await call(handler, "POST", "/authorizations", { form: complete })).json()).status).toEqual({ code: 20000 });
    // A Mastercard needs ds_trans_id.
    const { "card[3dsecure][v2][raw][ds_trans_id]": _dsTransId, ...withoutDsTransId } = { ...complete, "card[pan]": "2221000000000009" };
    expect(await (await call(handler, "POST", "/authorizations", { form: withoutDsTransId })).json()).toEqual({
      status: { code: 40000, message: "parameter 'card[3dsecure][v2][raw][ds_trans_id]' is required" },
    });
  });

  it("answers a follow-up on an unknown authorization id with the recorded 'invalid transaction id'", async () => {
    const { handler } = createClearhausSandbox();
    for (const name of ["capture-error-unknown-authorization", "refund-error-unknown-authorization", "void-error-unknown-authorization"]) {
      const recorded = fixture(name);
      const response = await call(handler, "POST", recorded.request.path, { form: recorded.request.form });
      expect(response.status, name).toBe(400);
      expect((await response.json()).status, name).toMatchObject(recorded.response.body.status);
    }
  });

  it("verifies the docs' RS256 signature over the raw body; a signing key it does not know reads 'invalid signing api-key'", async () => {
    const { handler } = createClearhausSandbox();
    const docs = fixture("signature-docs-example").request;
    const signed = await call(handler, "POST", "/authorizations", {
      body: docs.rawBody,
      headers: { signature: docs.expectedSignatureHeader.replace(/^Signature: /, "") },
    });
    // Accepted (the docs' card expired in 2022: a 201 transaction, not a signature refusal).
    expect(signed.status).toBe(201);
    expect((await signed.json()).status.code).toBe(40135);
    const tampered = await call(handler, "POST", "/authorizations", {
      body: docs.rawBody.replace("amount=2050", "amount=2051"),
      headers: { signature: docs.expectedSignatureHeader.replace(/^Signature: /, "") },
    });
    expect(await tampered.json()).toEqual({ status: { code: 40000, message: "invalid signature" } });
    const unknownKey = fixture("signature-activemerchant").request;
    const foreign = await call(handler, "POST", "/authorizations", {
      body: unknownKey.rawBody,
      headers: { signature: unknownKey.expectedSignatureHeader.replace(/^Signature: /, "") },
    });
    expect((await foreign.json()).status).toMatchObject(fixture("error-invalid-signing-key").response.body.status);
  });

  it("keeps a series: series[previous][id] must name an approved first-in-series of the same card; no CSC after it", async () => {
    const { handler } = createClearhausSandbox();
    const first = await (
      await call(handler, "POST", "/authorizations", {
        form: {
          ...fixture("authorize-series-first-recurring").request.form,
          "card[3dsecure][v2][rreq]": "",
          "card[expire_year]": nextYear,
        },
      })
    ).json();
    // The docs' placeholder "<some-rreq-value>" is no RReq: the sandbox wants the whole message.
    expect(first.status.code).toBe(40000);
    const started = await (
      await call(handler, "POST", "/authorizations", {
        form: { amount: "2050", currency: "EUR", "series[type]": "recurring", ...cardOf(), "card[csc]": "123" },
      })
    ).json();
    expect(started).toMatchObject({ status: { code: 20000 }, series: { type: "recurring" } });
    expect(started.series.tid).toMatch(/^\d{15}$/);
    const subsequent = { amount: "2050", currency: "EUR", "series[previous][id]": started.id, ...cardOf() };
    expect((await (await call(handler, "POST", "/authorizations", { form: subsequent })).json()).status).toEqual({ code: 20000 });
    expect(await (await call(handler, "POST", "/authorizations", { form: { ...subsequent, "card[csc]": "123" } })).json()).toMatchObject({
      status: { code: 40000 },
    });
    expect(
      await (await call(handler, "POST", "/authorizations", { form: { ...subsequent, "series[type]": "recurring" } })).json(),
    ).toMatchObject({ status: { code: 40000 } });
    expect(
      await (await call(handler, "POST", "/authorizations", { form: { ...subsequent, "card[pan]": "2221000000000009" } })).json(),
    ).toEqual({ status: { code: 40000, message: "parameter 'series[previous][id]' is invalid" } });
  });

  it("asks for card[name] on a Mastercard credit, and takes the docs' payout example", async () => {
    const { handler } = createClearhausSandbox();
    const example = { ...fixture("credit-approved").request.form, "card[expire_year]": nextYear };
    expect((await (await call(handler, "POST", "/credits", { form: example })).json()).status).toEqual({ code: 20000 });
    const mastercard = { ...example, "card[pan]": "2221000000000009" };
    expect(await (await call(handler, "POST", "/credits", { form: mastercard })).json()).toEqual({
      status: { code: 40000, message: "parameter 'card[name]' is required" },
    });
    expect((await (await call(handler, "POST", "/credits", { form: { ...mastercard, "card[name]": "Jane Doe" } })).json()).status).toEqual({
      code: 20000,
    });
  });

  it("holds a 50000 authorization until it is voided (voids are allowed on them)", async () => {
    const { handler, ledger } = createClearhausSandbox();
    const form = { amount: "50000", currency: "EUR", ...cardOf("4200000000000000"), "card[csc]": "123" };
    const error = await (await call(handler, "POST", "/authorizations", { form })).json();
    expect(error.status).toEqual({ code: 50000 });
    expect(ledger.byId(error.id)).toMatchObject({ approved: false, holds: true, voided: false });
    const voided = await (await call(handler, "POST", `/authorizations/${error.id}/voids`)).json();
    expect(voided.status).toEqual({ code: 20000 });
    expect(ledger.byId(error.id)!.voided).toBe(true);
  });
});

function cardOf(pan = "4111111111111111"): Record<string, string> {
  return { "card[pan]": pan, "card[expire_month]": "06", "card[expire_year]": nextYear };
}
