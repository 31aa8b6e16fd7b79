// The demo merchant that `npm start` creates on first run, so a fresh clone can be tried at once.
// Its credentials are kept in DATA_DIR/demo.json (git-ignored, mode 0600), which the start banner
// names instead of printing them (a log is no place for a password or a live key): the database
// itself only holds hashes. Its key is a test-mode key (sandboxes, test cards) and its test-mode
// default notification address is the service's own demo receiver.
// Never called in production (lib/sandboxes/prepare-demo.ts).
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { db } from "../db";
import { config } from "../env";
import { createMerchant } from "../merchants/create-merchant";
import { createUser } from "../users/create-user";
import { activeSigningSecrets } from "../notifications/signing-secrets";
import { addSandboxAccounts, addSandboxReportingCredentials } from "./sandbox-merchant-accounts";

const demoSchema = z.object({
  merchantId: z.string(),
  merchantName: z.string(),
  apiKey: z.string(),
  email: z.string(),
  password: z.string(),
  /**
   * The `whsec_` secret the demo merchant's test notifications are signed with, so that the README's
   * notifications can be verified without a back-office visit. Absent in files of older versions:
   * added on the next start.
   */
  notificationSecret: z.string().optional(),
});

export type DemoCredentials = z.infer<typeof demoSchema>;

export const DEMO_EMAIL = "demo@example.com";

/** The service's own demo receiver (lib/sandboxes/demo-receiver.ts): the demo merchant's default notification address. */
export const DEMO_RECEIVER_PATH = "/demo-shop/notifications";

export function demoReceiverUrl(publicBaseUrl: string = config().publicBaseUrl): string {
  return `${publicBaseUrl.replace(/\/+$/, "")}${DEMO_RECEIVER_PATH}`;
}

/**
 * A data folder started again on another port or host name would keep notifying the old address:
 * the demo receiver's address follows the current base URL. An address the merchant chose (or
 * cleared) in the back office is left alone.
 */
async function keepDemoReceiverCurrent(merchantId: string): Promise<void> {
  const current = demoReceiverUrl();
  await db().merchant.updateMany({
    where: { id: merchantId, testDefaultNotificationUrl: { endsWith: DEMO_RECEIVER_PATH, not: current } },
    data: { testDefaultNotificationUrl: current },
  });
}

/** Where the demo merchant's credentials are kept (mode 0600). */
export function demoCredentialsFile(): string {
  return path.resolve(config().DATA_DIR, "demo.json");
}

/** Returns the demo merchant's credentials, creating the merchant first when it does not exist. */
export async function seedDemo(): Promise<{ created: boolean; demo: DemoCredentials }> {
  const file = demoCredentialsFile();
  if (existsSync(file)) {
    chmodSync(file, 0o600); // files written by older versions may be wider
    const saved = demoSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (saved.success && (await db().merchant.findUnique({ where: { id: saved.data.merchantId }, select: { id: true } }))) {
      await keepDemoReceiverCurrent(saved.data.merchantId);
      const [current] = await activeSigningSecrets({ merchantId: saved.data.merchantId, mode: "test" });
      if (current && saved.data.notificationSecret !== current.secret) {
        // Added to files of older versions; after a roll in the back office, updated at the next start.
        saved.data.notificationSecret = current.secret;
        writeFileSync(file, JSON.stringify(saved.data, null, 2), { mode: 0o600 });
      }
      // A data folder from before acquirer accounts: the demo merchant gets its sandbox accounts now.
      await addSandboxAccounts(saved.data.merchantId);
      // And, from before issue 40, its reporting API credentials: the pollers import from the sandbox.
      await addSandboxReportingCredentials(saved.data.merchantId);
      return { created: false, demo: saved.data };
    }
  }
  const existingUser = await db().user.findUnique({ where: { email: DEMO_EMAIL }, select: { id: true } });
  const email = existingUser ? `demo+${randomBytes(3).toString("hex")}@example.com` : DEMO_EMAIL;
  const password = randomBytes(9).toString("base64url");
  const demo = await db().$transaction(async (tx) => {
    const { merchant, apiKey } = await createMerchant({ name: "Demo Shop", apiKeyModes: ["test"], tx });
    // Somewhere sensible for its notifications from the first minute: the README's capture, refund
    // and void commands (and the demo shop's own windows) are notified and shown in Developers.
    await tx.merchant.update({ where: { id: merchant.id }, data: { testDefaultNotificationUrl: demoReceiverUrl() } });
    await createUser({ merchantId: merchant.id, email, name: "Demo Owner", password, role: "OWNER", tx });
    // The README's payout example works at once: the demo may pay out up to 10,000 per payout and
    // 50,000 a day in its usual currencies (a real merchant's owner sets its own, Settings → Payouts).
    await tx.payoutLimit.createMany({
      data: ["DKK", "EUR", "SEK", "NOK", "USD", "GBP"].map((currency) => ({ merchantId: merchant.id, currency, perPayout: 1_000_000n, perDay: 5_000_000n })),
    });
    return { merchantId: merchant.id, merchantName: merchant.name, apiKey: apiKey!, email, password, notificationSecret: merchant.testNotificationSecret };
    // The owner's password is hashed (argon2id) inside: on a busy machine, on the first start, that
    // alone took longer than Prisma's default 5 s and the start failed.
  }, { timeout: 60_000, maxWait: 60_000 });
  await addSandboxAccounts(demo.merchantId);
  await addSandboxReportingCredentials(demo.merchantId);
  writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return { created: true, demo };
}
