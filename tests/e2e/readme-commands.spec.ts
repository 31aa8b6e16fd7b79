// The README's merchant-API commands, copied from README.md and run with bash as written against
// the fresh `npm start` of this suite: initdynamic (twice: order1001 is captured and refunded,
// order1002 is voided, as the README says), the cardholder pays both windows in Chromium, then
// capture, refund and void. Only BASE, KEY, MID and NOTIFY_URL are set (the README's variables), and
// the only change to the text is the order numbers, made unique per run (a merchantpaymentid is
// unique per merchant). Each command must exit 0 with a responseid and be notified at the local
// receiver with the right X-CPS-Notification-Kind.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { notified, useReadmeReceiver } from "../helpers/e2e/readme-receiver";
import { NEXT_YEAR, SHOP_ORIGIN, pay, typeCard, waitForCallback } from "../helpers/e2e/cardholder";

const run = promisify(execFile);

/** The ```bash blocks that follow the paragraph starting with `heading` in the merchant-API section. */
function bashBlockAfter(readme: string, heading: string): string {
  const section = readme.slice(readme.indexOf("<!-- section:walkthrough -->"), readme.indexOf("<!-- /section:walkthrough -->"));
  const start = section.indexOf(heading);
  expect(start, `README walkthrough section has "${heading}"`).toBeGreaterThan(-1);
  const block = /```bash\n([\s\S]*?)```/.exec(section.slice(start));
  expect(block, `a bash block after "${heading}"`).not.toBeNull();
  return block![1]!;
}

/** Splits a block into its commands: each starts with `curl` at the start of a line; comment lines are dropped. */
function commands(block: string): string[] {
  const lines = block.split("\n").filter((line) => !line.startsWith("#") && line.trim() !== "");
  const result: string[] = [];
  for (const line of lines) {
    if (line.startsWith("curl ")) result.push(line);
    else result[result.length - 1] += `\n${line}`;
  }
  return result;
}

async function bash(command: string, env: Record<string, string>): Promise<Record<string, unknown>> {
  // Nothing of this process's environment but PATH: the README's four variables only.
  // (Next's types make NODE_ENV required in ProcessEnv; bash and curl do not need it.)
  const childEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } as unknown as NodeJS.ProcessEnv;
  const { stdout } = await run("bash", ["-c", command], { env: childEnv });
  const answer = JSON.parse(stdout) as Record<string, unknown>;
  expect(answer, `${command}\n→ ${stdout}`).not.toHaveProperty("error");
  return answer;
}

const readmeReceiver = useReadmeReceiver();

test("the README's initdynamic, capture, refund and void commands work as written and are notified", async ({ page }) => {
  test.setTimeout(180_000);
  const readme = readFileSync(path.resolve("README.md"), "utf8");
  const [init] = commands(bashBlockAfter(readme, "**Open a payment window**"));
  const operations = commands(bashBlockAfter(readme, "**Capture, refund, void**"));
  expect(init).toContain("/api/initdynamic");
  expect(operations.map((command) => /\/api\/order\d+\/(\w+)/.exec(command)?.[1])).toEqual(["capture", "refund", "void"]);

  const receiver = readmeReceiver.current();
  const env = readmeReceiver.environment();
  const unique = Date.now().toString(36);
  const orders: Record<string, string> = { order1001: `order1001x${unique}`, order1002: `order1002x${unique}` };
  const withOrders = (command: string) => command.replace(/order100[12]/g, (order) => orders[order]!);

  // Two windows from the same init command: as written for order1001, and for order1002 (the void's).
  for (const order of ["order1001", "order1002"]) {
    const session = await bash(init!.replace(/order1001/g, orders[order]!), env);
    expect(session.merchantpaymentid).toBe(orders[order]);
    expect(String(session.dfurlscriptinclude)).toContain(`/dynamic/${String(session.sessionid)}/dynamic.js`);
    // The cardholder pays it on the demo shop (another origin than the fields).
    await page.goto(`${SHOP_ORIGIN}/demo-shop?${new URLSearchParams({ sessionid: String(session.sessionid), amount: "12500", currency: "DKK", reference: "Order 1001" })}`);
    await waitForCallback(page, "jsinitsuccess");
    await typeCard(page, { pan: "4111111111111111", month: "12", year: NEXT_YEAR, cvc: "123" });
    await pay(page);
    await waitForCallback(page, "jspaymentsuccess");
    const completion = await notified(
      receiver,
      (n) => n.headers["x-cps-notification-kind"] === "completion" && n.body.merchantpaymentid === orders[order],
      `completion for ${order}`,
    );
    expect(completion.body.status).toBe("approved");
  }

  // Capture, refund, void: each answers a responseid and is notified with its kind; the next one
  // runs after the previous one's notification, as a merchant's server would.
  for (const [index, kind] of (["capture", "refund", "void"] as const).entries()) {
    const answer = await bash(withOrders(operations[index]!), env);
    expect(answer.responseid, `${kind}: ${JSON.stringify(answer)}`).toEqual(expect.any(String));
    const notification = await notified(receiver, (n) => n.body.responseid === answer.responseid, kind);
    expect(notification.headers["x-cps-notification-kind"]).toBe(kind);
    expect(notification.body.status, `${kind}: ${notification.rawBody}`).toBe("approved");
  }
  await receiver.waitFor(receiver.received.length); // every notification seen is checked against the OpenAPI webhooks
});
