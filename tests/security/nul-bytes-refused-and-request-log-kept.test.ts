// Security review 4, M3: PostgreSQL refuses U+0000 in text. One raw NUL byte in any merchant's request
// body failed the request log's batched INSERT, so every merchant's rows of that batch were lost (the
// responseid trail merchants use for disputes and support); a NUL in `customer` (or any other free
// text) reached an INSERT and answered 500; a receiver whose answer held a NUL made the back office's
// test notification fail. Through the merchant API's route handlers over HTTP and a real database:
// the other merchant's rows are kept, the bad request's own row too; every string field with a NUL is
// refused 400 INVALID_PARAMETER naming it; the receiver's answer is recorded; a back-office form with
// a NUL gets a field message.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flushApiRequestLog, recordApiRequest } from "@/lib/api/api-request-log";
import { formObject, runAction } from "@/lib/backoffice/action-result";
import { acceptInvitation } from "@/lib/backoffice/actions/accept-invitation";
import { sendTestNotification } from "@/lib/backoffice/actions/send-test-notification";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { newUserToken } from "@/lib/users/user-tokens";
import { startMerchantApi, type MerchantApiHarness } from "@/tests/helpers/merchant-api-harness";
import { createTestMerchant, createTestPayment, type TestMerchant } from "@/tests/helpers/merchant-factories";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const NUL = "\u0000";
let api: MerchantApiHarness;
let merchantA: TestMerchant;
let merchantB: TestMerchant;
let flooder: TestMerchant;

beforeAll(async () => {
  api = await startMerchantApi();
  merchantA = await createTestMerchant({ name: "NUL sender" });
  merchantB = await createTestMerchant({ name: "Bystander" });
  // The flood has its own merchant, so that its requests never count against merchant A's rate limit.
  flooder = await createTestMerchant({ name: "NUL flooder" });
});
afterAll(async () => {
  await api?.close();
});

describe("M3: one bad row never drops other merchants' request-log rows", () => {
  it("M3: merchant B's requests are logged while merchant A keeps sending bodies with a raw NUL byte", async () => {
    let sending = true;
    const aAnswers: Array<{ status: number }> = [];
    // A sends `{"merchantid":"<NUL>"` (not even JSON) again and again from two loops, so that B's rows
    // share a batch (50 ms) with A's. Each loop rests 10 ms between requests: unpaced, a fast machine
    // sent more than the API key's 100 requests per second and was answered 429 RATE_LIMITED.
    const loop = async () => {
      while (sending) {
        aAnswers.push(await api.call("POST", "/api/initdynamic", { apiKey: flooder.apiKey, rawBody: `{"merchantid":"${NUL}"` }));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const flood = Promise.all([loop(), loop()]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const trace = `bystander-${newId()}`;
    const answers = await Promise.all([
      api.call("POST", "/api/initdynamic", {
        apiKey: merchantB.apiKey,
        body: { merchantid: merchantB.merchantId, amount: 100, currency: "DKK", notificationurl: "http://127.0.0.1:9/hook" },
        headers: { TraceApi: trace },
      }),
      api.call("GET", "/api/0000000000000000000000000000000/payment", { apiKey: merchantB.apiKey, headers: { TraceApi: trace } }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 150));
    sending = false;
    await flood;
    expect(aAnswers.every((answer) => answer.status === 400)).toBe(true);
    // Whatever B was answered (a busy database may say 503), each request is in B's log.
    expect(answers.map((answer) => answer.status)).not.toContain(500);
    await flushApiRequestLog();
    expect(await db().apiRequest.count({ where: { merchantId: merchantB.merchantId, traceApi: trace } })).toBe(2);
    // A's own rows are kept too, the NUL shown as a replacement character.
    const aRows = await db().apiRequest.findMany({ where: { merchantId: flooder.merchantId }, select: { requestBody: true } });
    expect(aRows.length).toBe(aAnswers.length);
    for (const row of aRows) expect(row.requestBody).not.toContain(NUL);
  });

  it("M3: a batch holding a row PostgreSQL refuses still stores every other row of it", async () => {
    const good = newId();
    const bad = newId();
    const row = (id: string, merchantId: string, path: string) => ({
      id,
      merchantId,
      mode: "test" as const,
      method: "POST",
      path,
      traceApi: null,
      statusCode: 400,
      errorCode: "INVALID_PARAMETER",
      durationMs: 1,
      createdAt: new Date(),
      errorDescription: null,
      requestBody: null,
      responseBody: null,
      apiKeyId: null,
      idempotencyKey: null,
      idempotentReplay: false,
    });
    // A row no sanitizing can save (its merchant does not exist: a foreign key refuses it).
    recordApiRequest(row(bad, "no-such-merchant", "/api/initdynamic"));
    recordApiRequest(row(good, merchantB.merchantId, "/api/initdynamic"));
    await flushApiRequestLog();
    expect(await db().apiRequest.count({ where: { id: good } })).toBe(1);
    expect(await db().apiRequest.count({ where: { id: bad } })).toBe(0);
  });
});

describe("M3: a NUL in any string field is refused 400 INVALID_PARAMETER, never 500", () => {
  const initdynamic = (extra: Record<string, unknown>) => ({
    merchantid: merchantA.merchantId,
    amount: 100,
    currency: "DKK",
    notificationurl: "http://127.0.0.1:9/hook",
    ...extra,
  });

  it.each([
    ["customer.firstname", { customer: { firstname: `a${NUL}b` } }],
    ["customer.surename", { customer: { surename: `${NUL}` } }],
    ["customer.email", { customer: { email: `a${NUL}@example.com` } }],
    ["merchantdata", { merchantdata: `data${NUL}` }],
    ["merchantpaymentid", { merchantpaymentid: `order${NUL}1` }],
  ])("M3: initdynamic with a NUL in %s", async (field, extra) => {
    const answer = await api.call("POST", "/api/initdynamic", { apiKey: merchantA.apiKey, body: initdynamic(extra) });
    expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 400, error: "INVALID_PARAMETER" });
    expect(String(answer.body.errordescription)).toMatch(new RegExp(`^${field.replace(".", "\\.")}: `));
  });

  it("M3: capture with a NUL in note, and MIT with a NUL in customer.surename", async () => {
    const { paymentId } = await createTestPayment({ merchantId: merchantA.merchantId, status: "AUTHORIZED" });
    const capture = await api.call("POST", `/api/${paymentId}/capture`, {
      apiKey: merchantA.apiKey,
      body: { amount: 100, note: `n${NUL}`, notificationurl: "http://127.0.0.1:9/hook" },
    });
    expect({ status: capture.status, error: capture.body.error, text: String(capture.body.errordescription).split(":")[0] }).toEqual({
      status: 400,
      error: "INVALID_PARAMETER",
      text: "note",
    });
    const mit = await api.call("POST", "/api/mit", {
      apiKey: merchantA.apiKey,
      body: { merchantid: merchantA.merchantId, paymentid: paymentId, amount: 100, currency: "DKK", notificationurl: "http://127.0.0.1:9/hook", customer: { surename: `x${NUL}` } },
    });
    expect({ status: mit.status, error: mit.body.error, text: String(mit.body.errordescription).split(":")[0] }).toEqual({
      status: 400,
      error: "INVALID_PARAMETER",
      text: "customer.surename",
    });
  });
});

describe("M3: NUL bytes from receivers and back-office forms", () => {
  it("M3: a receiver answering with a NUL byte: the test notification's attempt is recorded and its answer shown", async () => {
    const receiver = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(200, { "content-type": "text/plain" }).end(`ok${NUL}nul`));
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const actor = { userId: "system", merchantId: merchantA.merchantId, role: "OWNER" as const, mode: "test" as const };
      const result = await sendTestNotification({ actor, input: { url } });
      expect(result.delivered).toBe(true);
      expect(result.responseBody).toMatch(/^ok.nul$/);
      expect(result.responseBody).not.toContain(NUL);
    } finally {
      receiver.close();
    }
  });

  it("M3: a back-office form field with a NUL byte gets a field message, not an error page", async () => {
    // A real invitation: the name is the only thing wrong with the form.
    const { token, tokenHash } = newUserToken();
    await db().userToken.create({
      data: { id: newId(), merchantId: merchantA.merchantId, kind: "invitation", email: `nul-${newId()}@example.com`, tokenHash, role: "VIEWER", expiresAt: new Date(Date.now() + 3_600_000) },
    });
    const form = new FormData();
    form.set("token", token);
    form.set("name", `Mallory${NUL}`);
    form.set("password", "a long enough password 1");
    const state = await runAction(async () => {
      await acceptInvitation({ input: formObject(form) });
      return { message: "accepted" };
    });
    expect(state.status).toBe("error");
    expect(state.fieldErrors?.name).toMatch(/NUL/);
  });
});
