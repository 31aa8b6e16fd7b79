// Item 3 of the security issue: a 3-D Secure challenge result authorizes only the card (PAN and
// expiry), amount and currency that were authenticated. Over real HTTP against the cardholder route
// handlers, the acquirer sandboxes and the 3-D Secure sandbox (its challenge completed the way a
// cardholder does it, code and all).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createOriginBinding } from "@/lib/cardholder/origin-binding";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { SANDBOX_CHALLENGE_CODE } from "@/lib/sandboxes/threeds/directory-server";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { completeSandboxChallenge } from "@/tests/helpers/challenge-pages";
import { startHostedFieldsServer, type HostedFieldsServer } from "../helpers/hosted-fields-server";
import { createTestMerchant, createTestSession } from "../helpers/session-factory";

useTestDatabase();

const MERCHANT_ORIGIN = "http://shop.example";
const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);
const CHALLENGE_VISA = { pan: "4000000000003220", expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" };
const FRICTIONLESS_MASTERCARD = { pan: "5555555555554444", expmonth: "12", expyear: NEXT_YEAR, securitycode: "123" };

let server: HostedFieldsServer;
let sandboxes: RunningSandboxes;
let merchantId: string;

beforeAll(async () => {
  sandboxes = await startSandboxes({ extensions: true });
  server = await startHostedFieldsServer();
  merchantId = (await createTestMerchant("3DS binding shop")).id;
});
afterAll(async () => {
  await server?.close();
  await sandboxes?.close();
});

async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.origin },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Record<string, unknown>;
}

/** The cardholder completes the challenge: our page, the ACS page with the code, the CRes posted back to us. */
async function completeChallenge(sessionId: string, url: string): Promise<void> {
  const notify = await completeSandboxChallenge({ origin: server.origin, url, binding: createOriginBinding(sessionId, MERCHANT_ORIGIN), code: SANDBOX_CHALLENGE_CODE });
  expect(/"outcome":"(\w+)"/.exec(await notify.text())?.[1]).toBe("completed");
}

async function challengedPayment() {
  const session = await createTestSession(merchantId, { set3ds: "FORCE_3DS", notificationUrl: "http://127.0.0.1:9/notify" });
  const started = await post(`/dynamic/${session.id}/payments`, {});
  const paymentId = String(started.paymentid);
  const binding = createOriginBinding(session.id, MERCHANT_ORIGIN);
  const authorize = (card: Record<string, string>) => post(`/dynamic/${session.id}/payments/${paymentId}/authorize`, { card, binding });
  const first = await authorize(CHALLENGE_VISA);
  expect(first.result).toBe("challenge");
  await completeChallenge(session.id, String(first.url));
  return { sessionId: session.id, paymentId, authorize };
}

describe("item 3: a 3-D Secure challenge result is bound to the authenticated card", () => {
  it("item 3: a challenge passed with 4000000000003220 does not authorize 5555555555554444 with its result (sca=Y, ECI 05)", async () => {
    const { paymentId, authorize } = await challengedPayment();
    const challenged = await db().threeDsAuthentication.findFirstOrThrow({ where: { paymentId } });

    const other = await authorize(FRICTIONLESS_MASTERCARD);

    // The mastercard went through its own authentication (frictionless at the sandbox): a second row,
    // and the authorization carries that authentication's values, never the visa challenge's.
    const authentications = await db().threeDsAuthentication.findMany({ where: { paymentId }, orderBy: { createdAt: "asc" } });
    expect(authentications).toHaveLength(2);
    expect(authentications[1]!.cardFingerprint).not.toBe(challenged.cardFingerprint);
    const operations = await db().operation.findMany({ where: { paymentId, type: "authorize" } });
    expect(operations.every((operation) => operation.eci !== challenged.eci)).toBe(true);
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    if (other.result === "approved") {
      expect(payment.eci).toBe(authentications[1]!.eci);
      expect(payment.eci).not.toBe("05");
    } else {
      expect(payment.sca).toBeNull();
    }
  });

  it("item 3: the same number with another expiry after the challenge is authenticated again (a new challenge)", async () => {
    const { paymentId, authorize } = await challengedPayment();
    const otherExpiry = await authorize({ ...CHALLENGE_VISA, expmonth: "11" });
    expect(otherExpiry.result).toBe("challenge");
    expect(await db().threeDsAuthentication.count({ where: { paymentId } })).toBe(2);
    expect(await db().operation.count({ where: { paymentId, type: "authorize" } })).toBe(0);
  });

  it("item 3: the card that passed the challenge is authorized with its result, and the fingerprint is not the PAN", async () => {
    const { paymentId, authorize } = await challengedPayment();
    const same = await authorize(CHALLENGE_VISA);
    expect(same.result).toBe("approved");
    const authentications = await db().threeDsAuthentication.findMany({ where: { paymentId } });
    expect(authentications).toHaveLength(1);
    const [authentication] = authentications;
    expect(authentication!.cardFingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(authentication, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain("3220");
    expect(authentication!.amount).toBe(12500n);
    expect(authentication!.currency).toBe("DKK");
    const payment = await db().payment.findUniqueOrThrow({ where: { id: paymentId } });
    expect(payment.sca).toBe("Y");
    expect(payment.eci).toBe("05");
  });

  it("item 3: a challenge result recorded for another amount or currency is not used", async () => {
    const { paymentId, authorize } = await challengedPayment();
    // The payment's amount cannot change inside a session; a result recorded for another amount (an
    // old row, or one written by a bug elsewhere) must still not authorize this one.
    await db().threeDsAuthentication.updateMany({ where: { paymentId }, data: { amount: 1n } });
    const again = await authorize(CHALLENGE_VISA);
    expect(again.result).toBe("challenge");
    await db().threeDsAuthentication.updateMany({ where: { paymentId }, data: { amount: 12500n, currency: "EUR" } });
    const once = await authorize(CHALLENGE_VISA);
    expect(once.result).toBe("challenge");
    expect(await db().operation.count({ where: { paymentId, type: "authorize" } })).toBe(0);
  });
});
