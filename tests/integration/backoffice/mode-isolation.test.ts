// Test mode and live mode in the back office (docs/decisions/0108-test-mode-and-live-mode.md),
// in the style of merchant-isolation.test.ts: one merchant with data in both modes, and every query
// behind a back-office page or export, and every action, called in each mode. Each shows and
// changes only its own mode's payments, notifications, request log, keys and notification
// addresses, whatever ids it is handed; an owner can keep live mode to owners.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { ForbiddenError, NotFoundError, type Actor } from "@/lib/auth/actor";
import { createUser } from "@/lib/users/create-user";
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { Mode } from "@/lib/mode";
import { getPaymentDetailOrThrow } from "@/lib/backoffice/queries/get-payment-detail";
import { listPayments } from "@/lib/backoffice/queries/list-payments";
import { exportPaymentsCsv } from "@/lib/backoffice/queries/export-payments-csv";
import { getOverviewStats } from "@/lib/backoffice/queries/overview-stats";
import { getCachedOverviewStats } from "@/lib/backoffice/queries/get-cached-overview-stats";
import { listNotifications } from "@/lib/backoffice/queries/list-notifications";
import { listApiRequests } from "@/lib/backoffice/queries/list-api-requests";
import { getApiRequestOrThrow } from "@/lib/backoffice/queries/get-api-request";
import { getMerchantSettings } from "@/lib/backoffice/queries/get-merchant-settings";
import { getHostedIntegrationOrThrow } from "@/lib/backoffice/queries/list-hosted-integrations";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { saveHostedIntegration } from "@/lib/backoffice/actions/save-hosted-integration";
import { updateNotificationUrls } from "@/lib/backoffice/actions/update-notification-urls";
import { operateOnPayment } from "@/lib/backoffice/actions/operate-on-payment";
import { resendNotification } from "@/lib/backoffice/actions/resend-notification";
import { createKey } from "@/lib/backoffice/actions/create-key";
import { revokeKey } from "@/lib/backoffice/actions/revoke-key";
import { rollKey } from "@/lib/backoffice/actions/roll-key";
import { setLiveModeRole } from "@/lib/backoffice/actions/set-live-mode-role";
import type { UserRole } from "@/lib/generated/prisma/enums";

useTestDatabase();

const PASSWORD = "long enough password";
const MODES: Mode[] = ["test", "live"];
const other = (mode: Mode): Mode => (mode === "test" ? "live" : "test");

let receiver: NotificationReceiver;
let merchantId: string;
let owner: Record<Mode, Actor>;
/** Per mode: the ids of what that mode owns. */
const own: Record<Mode, { paymentId: string; notificationId: string; requestId: string; keyId: string }> = {} as never;

async function actorFor(role: UserRole): Promise<Record<Mode, Actor>> {
  const user = await createUser({ merchantId, email: `${role.toLowerCase()}-${merchantId}@example.com`, name: role, password: PASSWORD, role });
  return { test: { userId: user.id, merchantId, role, mode: "test" }, live: { userId: user.id, merchantId, role, mode: "live" } };
}

beforeAll(async () => {
  receiver = await startNotificationReceiver();
  merchantId = (await createTestMerchant({ name: "Both modes" })).merchantId;
  owner = await actorFor("OWNER");
  for (const mode of MODES) {
    // The same order number and reference in both modes: a search finds only the shown mode's.
    const { paymentId } = await createTestPayment({ merchantId, mode, merchantPaymentId: "order5", reference: "ref-5", status: "AUTHORIZED" });
    const notificationId = `msg_${mode}_${newId().slice(0, 8)}`;
    await db().notification.create({
      data: { id: notificationId, merchantId, mode, paymentId, kind: "operation", url: receiver.url, body: `{"paymentid":"${paymentId}","mode":"${mode}"}`, status: "failed" },
    });
    const requestId = newId();
    await db().apiRequest.create({
      data: { id: requestId, merchantId, mode, method: "POST", path: `/api/${paymentId}/capture`, statusCode: 200, durationMs: 5 },
    });
    const keyId = (await db().apiKey.findFirstOrThrow({ where: { merchantId, mode }, select: { id: true } })).id;
    own[mode] = { paymentId, notificationId, requestId, keyId };
  }
});

afterAll(async () => {
  await receiver.close();
});

describe("every back-office query shows only the mode shown", () => {
  for (const mode of MODES) {
    it(`${mode} mode: payments, search, detail, export, overview, notifications, request log, keys`, async () => {
      const mine = own[mode];
      const theirs = own[other(mode)];
      // Payments: the list, every search that matches both modes' payments, and the detail page.
      expect((await listPayments({ merchantId, mode, filters: {} })).rows.map((row) => row.id)).toEqual([mine.paymentId]);
      for (const q of [theirs.paymentId, "order5", "ref-5", "1111"]) {
        const ids = (await listPayments({ merchantId, mode, filters: { q } })).rows.map((row) => row.id);
        expect(ids, q).not.toContain(theirs.paymentId);
      }
      expect((await getPaymentDetailOrThrow({ merchantId, mode, paymentId: mine.paymentId })).id).toBe(mine.paymentId);
      await expect(getPaymentDetailOrThrow({ merchantId, mode, paymentId: theirs.paymentId })).rejects.toBeInstanceOf(NotFoundError);

      // The export: one row, this mode's payment.
      let csv = "";
      for await (const chunk of exportPaymentsCsv({ merchantId, mode, filters: {} })) csv += chunk;
      const lines = csv.trim().split("\r\n");
      expect(lines).toHaveLength(2);
      expect(csv).toContain(mine.paymentId);
      expect(csv).not.toContain(theirs.paymentId);

      // The overview's figures count this mode's payment and notification only, cached per mode too.
      const stats = await getOverviewStats({ merchantId, mode });
      expect(stats.rows.reduce((sum, row) => sum + row.payments, 0)).toBe(1);
      expect(stats.notifications.total).toBe(1);
      expect((await getCachedOverviewStats({ merchantId, mode })).stats.notifications.total).toBe(1);

      // Developers: notifications and request log, by list, by paymentid filter and by id.
      expect((await listNotifications({ merchantId, mode })).rows.map((row) => row.id)).toEqual([mine.notificationId]);
      expect((await listNotifications({ merchantId, mode, filters: { paymentId: "order5" } })).rows.map((row) => row.id)).toEqual([mine.notificationId]);
      expect((await listApiRequests({ merchantId, mode })).rows.map((row) => row.id)).toEqual([mine.requestId]);
      expect((await getApiRequestOrThrow({ merchantId, mode, requestId: mine.requestId })).request.id).toBe(mine.requestId);
      await expect(getApiRequestOrThrow({ merchantId, mode, requestId: theirs.requestId })).rejects.toBeInstanceOf(NotFoundError);

      // Settings → API keys: this mode's keys only.
      expect((await listApiKeys({ merchantId, mode })).map((key) => key.id)).toEqual([mine.keyId]);
    });
  }
});

describe("every back-office action acts only in the mode shown", () => {
  it("capture, refund and void of the other mode's payment are not found and change nothing", async () => {
    for (const mode of MODES) {
      for (const operation of ["capture", "void", "refund"] as const) {
        await expect(operateOnPayment({ actor: owner[mode], input: { paymentId: own[other(mode)].paymentId, operation } })).rejects.toBeInstanceOf(NotFoundError);
      }
    }
    expect(await db().operation.count({ where: { payment: { merchantId }, type: { not: "authorize" } } })).toBe(0);
  });

  it("the other mode's notification cannot be resent", async () => {
    for (const mode of MODES) {
      await expect(resendNotification({ actor: owner[mode], input: { notificationId: own[other(mode)].notificationId } })).rejects.toBeInstanceOf(NotFoundError);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it("keys are made in the mode shown; the other mode's key can be neither revoked nor rolled", async () => {
    for (const mode of MODES) {
      const made = await createKey({ actor: owner[mode], input: { currentPassword: PASSWORD, name: `${mode} system` } });
      expect(made.record.mode).toBe(mode);
      expect(made.apiKey.startsWith(`cps_${mode}_`)).toBe(true);
      const theirs = own[other(mode)].keyId;
      await expect(revokeKey({ actor: owner[mode], input: { apiKeyId: theirs } })).rejects.toThrow();
      await expect(rollKey({ actor: owner[mode], input: { currentPassword: PASSWORD, apiKeyId: theirs, graceSeconds: 0 } })).rejects.toThrow();
    }
    const untouched = await db().apiKey.findMany({ where: { id: { in: [own.test.keyId, own.live.keyId] } }, select: { revokedAt: true, expiresAt: true } });
    expect(untouched).toEqual([
      { revokedAt: null, expiresAt: null },
      { revokedAt: null, expiresAt: null },
    ]);
  });

  it("notification addresses and a hosted integration's addresses are saved for the mode shown only", async () => {
    const addresses = (mode: Mode) => ({
      defaultNotificationUrl: `https://${mode}.example/default`,
      completionNotificationUrl: "",
      lifecycleNotificationUrl: `https://${mode}.example/lifecycle`,
    });
    for (const mode of MODES) {
      await updateNotificationUrls({ actor: owner[mode], input: { currentPassword: PASSWORD, mode, ...addresses(mode) } });
    }
    for (const mode of MODES) {
      expect(await getMerchantSettings({ merchantId, mode })).toMatchObject({
        mode,
        defaultNotificationUrl: `https://${mode}.example/default`,
        completionNotificationUrl: null,
        lifecycleNotificationUrl: `https://${mode}.example/lifecycle`,
      });
    }
    // A form shown in test mode and saved after the back office switched to live (another tab) is refused.
    await expect(updateNotificationUrls({ actor: owner.live, input: { currentPassword: PASSWORD, mode: "test", ...addresses("test") } })).rejects.toThrow(
      /opened in test mode/,
    );
    expect((await getMerchantSettings({ merchantId, mode: "live" })).defaultNotificationUrl).toBe("https://live.example/default");

    const common = { currentPassword: PASSWORD, hostedId: "shop", name: "Shop", styling: "{}" };
    const { id } = await saveHostedIntegration({ actor: owner.test, input: { ...common, mode: "test", ...addresses("test") } });
    await saveHostedIntegration({ actor: owner.live, input: { ...common, id, mode: "live", ...addresses("live") } });
    for (const mode of MODES) {
      expect(await getHostedIntegrationOrThrow({ merchantId, mode, id }), mode).toMatchObject({
        defaultNotificationUrl: `https://${mode}.example/default`,
        lifecycleNotificationUrl: `https://${mode}.example/lifecycle`,
      });
    }
  });
});

describe("who may act in live mode", () => {
  it("an owner can keep live mode to owners: developers then act in test mode only, and read live data still", async () => {
    const developer = await actorFor("DEVELOPER");
    await expect(setLiveModeRole({ actor: developer.test, input: { currentPassword: PASSWORD, liveModeMinRole: "DEVELOPER" } })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await setLiveModeRole({ actor: owner.test, input: { currentPassword: PASSWORD, liveModeMinRole: "OWNER" } });
    const limited: Actor = { ...developer.live, liveModeMinRole: "OWNER" };
    await expect(createKey({ actor: limited, input: { currentPassword: PASSWORD, name: "x" } })).rejects.toThrow(/Only owners may act in live mode/);
    await expect(operateOnPayment({ actor: limited, input: { paymentId: own.live.paymentId, operation: "void" } })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      updateNotificationUrls({ actor: limited, input: { currentPassword: PASSWORD, mode: "live", defaultNotificationUrl: "https://evil.example/n", completionNotificationUrl: "", lifecycleNotificationUrl: "" } }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect((await getMerchantSettings({ merchantId, mode: "live" })).defaultNotificationUrl).toBe("https://live.example/default");
    // In test mode the developer keeps the role's rights; reading live data stays open.
    await expect(createKey({ actor: { ...developer.test, liveModeMinRole: "OWNER" }, input: { currentPassword: PASSWORD, name: "dev test key" } })).resolves.toBeDefined();
    expect((await listPayments({ merchantId, mode: "live", filters: {} })).rows).toHaveLength(1);
    // Owners still act in live mode, and the setting is audited.
    await expect(createKey({ actor: { ...owner.live, liveModeMinRole: "OWNER" }, input: { currentPassword: PASSWORD, name: "owner live key" } })).resolves.toBeDefined();
    const audit = await db().auditEntry.findFirstOrThrow({ where: { merchantId, action: "settings.live_mode_role.updated" } });
    expect(audit.details).toMatchObject({ before: "DEVELOPER", after: "OWNER" });
  });
});
