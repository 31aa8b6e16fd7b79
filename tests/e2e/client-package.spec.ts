// The typed client (packages/client) as a merchant's server uses it, against the real service: every
// merchant API call goes through createPaymentClient, every notification through verifyNotification
// on a local receiver (node:http on 127.0.0.1). The cardholder pays in Chromium through the hosted
// fields on the demo shop's page (another origin than the fields), opened with the client's session.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createPaymentClient, PaymentApiError, verifyNotification, type VerifiedNotification } from "../../packages/client/src/index";
import { FIELDS_ORIGIN, SHOP_ORIGIN, payWithCard, testCard, waitForCallback } from "../helpers/e2e/cardholder";
import { demoCredentials } from "../helpers/e2e/demo-service";
import { eventually } from "../helpers/eventually";
import { freePort } from "../helpers/service-process";

interface Delivery {
  path: string;
  /** What verifyNotification answered, or why it refused. */
  verified?: VerifiedNotification;
  refusal?: string;
}

/**
 * The merchant's notification endpoint, written as the client's README says: verify the raw body
 * with verifyNotification before anything else, answer 200 only when it returned.
 */
async function startVerifyingReceiver(secret: string) {
  const deliveries: Delivery[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const verified = verifyNotification({ secret, headers: req.headers, body: Buffer.concat(chunks) });
      deliveries.push({ path: req.url ?? "/", verified });
      res.writeHead(200).end("ok");
    } catch (error) {
      deliveries.push({ path: req.url ?? "/", refusal: String(error) });
      res.writeHead(400).end("bad signature");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (name: string) => `${base}/${name}`,
    async next(name: string, timeoutMs = 30_000): Promise<VerifiedNotification> {
      return eventually(
        () => {
          const found = deliveries.find((delivery) => delivery.path === `/${name}`);
          if (found && !found.verified) throw new Error(`notification at /${name} refused: ${found.refusal}`);
          return found?.verified;
        },
        { what: `a notification at /${name}`, timeoutMs, intervalMs: 200 },
      );
    },
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The receiver's next notification at /`kind`, checked to be of that kind (and typed as it). */
async function nextOfKind<K extends VerifiedNotification["kind"]>(
  receiver: { next(name: string): Promise<VerifiedNotification> },
  kind: K,
): Promise<Extract<VerifiedNotification, { kind: K }>> {
  const notification = await receiver.next(kind);
  expect(notification.kind).toBe(kind);
  if (notification.kind !== kind) throw new Error("unreachable");
  return notification as Extract<VerifiedNotification, { kind: K }>;
}

test("a full integration with @cps/client only: init, pay in Chromium, verified completion, capture and refund with verified notifications", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const demo = demoCredentials();
  // The merchant copies its signing secret from the back office (Settings → API-key): an owner
  // reveals it with their password (it is stored encrypted; review 3, M3).
  await page.goto("/backoffice/sign-in");
  await page.getByLabel("Email").fill(demo.email);
  await page.getByLabel("Password").fill(demo.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/backoffice$/);
  await page.goto("/backoffice/settings/api-key");
  await page.getByRole("button", { name: "Reveal", exact: true }).click();
  await page.locator("#reveal-secret-current-password").fill(demo.password);
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByTestId("notification-secret")).toHaveText(/^whsec_/);
  const secret = (await page.getByTestId("notification-secret").textContent())!;
  expect(secret).toMatch(/^whsec_/);
  const receiver = await startVerifyingReceiver(secret);
  const client = createPaymentClient({ baseUrl: FIELDS_ORIGIN, apiKey: demo.apiKey });
  try {
    const merchantpaymentid = `client${Date.now()}`;
    const session = await client.initDynamic(
      {
        merchantid: demo.merchantId,
        merchantpaymentid,
        amount: 12500,
        currency: "DKK",
        reference: "client-package",
        set3ds: "SKIP_3DS",
        notificationurl: receiver.url("completion"),
      },
      { traceApi: `client-e2e-${merchantpaymentid}`, idempotencyKey: `init-${merchantpaymentid}` },
    );
    expect(session.sessionid).toMatch(/^[a-f0-9]{32}$/);
    expect(session.dfurlscriptinclude).toMatch(/^http/);

    // A refusal comes back as the typed error with the spec's body and status.
    const refusal = await client
      // @ts-expect-error the generated type says what the service wants: an integer of minor units
      .initDynamic({ merchantid: demo.merchantId, amount: "12.50", currency: "DKK" })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PaymentApiError);
    expect((refusal as PaymentApiError).status).toBe(400);
    expect((refusal as PaymentApiError).body).toEqual({ error: "INVALID_PARAMETER", errordescription: expect.stringContaining("amount") });

    // The cardholder pays on the merchant's page with the hosted fields.
    const query = new URLSearchParams({ sessionid: session.sessionid, amount: "12500", currency: "DKK", reference: "client-package" });
    await page.goto(`${SHOP_ORIGIN}/demo-shop?${query}`);
    await waitForCallback(page, "jsinitsuccess");
    await payWithCard(page, testCard("4111111111111111"));
    const success = await waitForCallback(page, "jspaymentsuccess");
    const paymentid = success.payload.paymentid as string;

    const completion = await nextOfKind(receiver, "completion");
    expect(completion.body).toMatchObject({
      sessionid: session.sessionid,
      paymentid,
      merchantpaymentid,
      status: "approved",
      responsecode: "00",
    });
    expect(completion.body.tcardnumber).toBe("411111xxxxxx1111");

    // Capture part, then refund part of the capture: each answer's responseid comes back in its notification.
    const capture = await client.capture(
      paymentid,
      { amount: 5000, notificationurl: receiver.url("capture") },
      { idempotencyKey: `capture-${paymentid}` },
    );
    const captured = await nextOfKind(receiver, "capture");
    expect(captured.body).toMatchObject({ responseid: capture.responseid, paymentid, merchantpaymentid, status: "approved" });

    const refund = await client.refund(
      paymentid,
      { amount: 1000, notificationurl: receiver.url("refund") },
      { idempotencyKey: `refund-${paymentid}` },
    );
    const refunded = await nextOfKind(receiver, "refund");
    expect(refunded.body).toMatchObject({ responseid: refund.responseid, paymentid, status: "approved" });

    // The record agrees: 50.00 captured, 10.00 of it refunded, 40.00 held.
    const record = await client.getPayment(paymentid, { merchantid: demo.merchantId });
    expect(record).toMatchObject({ paymentid, merchantpaymentid, amount: 12500, balance: 4000, currency: "DKK" });

    // Every notification the receiver got was genuine and verified.
    expect(receiver.deliveries.filter((delivery) => delivery.refusal)).toEqual([]);
    expect(receiver.deliveries.map((delivery) => delivery.verified?.kind)).toEqual(["completion", "capture", "refund"]);
  } finally {
    await receiver.close();
  }
});

test("N7: the README's example, run as written for the demo merchant, captures and refunds a payment it opened", async ({ page }) => {
  test.setTimeout(180_000);
  const readme = readFileSync(path.resolve("packages/client/README.md"), "utf8");
  const example = /## Example[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(example, "the README's example").toBeDefined();
  // Inside the repository the package is imported by path (README); the example goes where the
  // README says scripts of one's own go: scratch/.
  const file = path.resolve("scratch", `readme-example-${Date.now()}.ts`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, example!.replace('from "@cps/client"', 'from "../packages/client/src/index.ts"'));
  const demo = demoCredentials();
  const port = await freePort();
  const child = spawn(path.resolve("node_modules/.bin/tsx"), [file], {
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      CPS_BASE_URL: FIELDS_ORIGIN,
      CPS_API_KEY: demo.apiKey,
      CPS_MERCHANT_ID: demo.merchantId,
      CPS_SIGNING_SECRET: demo.notificationSecret ?? "",
      CPS_NOTIFY_URL: `http://127.0.0.1:${port}/`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const waitFor = async (pattern: RegExp, what: string) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const match = pattern.exec(output);
      if (match) return match;
      if (Date.now() > deadline) throw new Error(`the README example printed no ${what}; output:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  try {
    expect(demo.notificationSecret, ".data/demo.json holds the signing secret the example verifies with").toMatch(/^whsec_/);
    const [, sessionid] = await waitFor(/payment window: ([0-9a-f]{32}) /, "payment window");
    await page.goto(`${SHOP_ORIGIN}/demo-shop?${new URLSearchParams({ sessionid: sessionid! })}`);
    await waitForCallback(page, "jsinitsuccess");
    await payWithCard(page, testCard("4111111111111111"));
    const success = await waitForCallback(page, "jspaymentsuccess");
    // Completion → capture → its notification → refund → its notification, all through the example's own receiver.
    await waitFor(new RegExp(`refunded ${String(success.payload.paymentid)} approved`), "refund");
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
    rmSync(file, { force: true });
  }
});
