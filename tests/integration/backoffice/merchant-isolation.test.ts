// One merchant's back-office user can never read or change another merchant's data, whatever ids
// a page or server action is handed; and a viewer changes nothing. Every back-office use case and
// query is called here with the other merchant's ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@/tests/helpers/test-database";
import { createTestMerchant, createTestPayment } from "@/tests/helpers/merchant-factories";
import { startNotificationReceiver, type NotificationReceiver } from "@/tests/helpers/notification-receiver";
import { ForbiddenError, NotFoundError, type Actor } from "@/lib/auth/actor";
import { createUser } from "@/lib/users/create-user";
import { db } from "@/lib/db";
import { getPaymentDetailOrThrow } from "@/lib/backoffice/queries/get-payment-detail";
import { listPayments } from "@/lib/backoffice/queries/list-payments";
import { exportPaymentsCsv } from "@/lib/backoffice/queries/export-payments-csv";
import { getOverviewStats } from "@/lib/backoffice/queries/overview-stats";
import { listAuditEntries } from "@/lib/backoffice/queries/list-audit-entries";
import { getMerchantSettings } from "@/lib/backoffice/queries/get-merchant-settings";
import { getHostedIntegrationOrThrow, listHostedIntegrations } from "@/lib/backoffice/queries/list-hosted-integrations";
import { listTeam } from "@/lib/backoffice/queries/list-team";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { saveHostedIntegration } from "@/lib/backoffice/actions/save-hosted-integration";
import { updateNotificationUrls } from "@/lib/backoffice/actions/update-notification-urls";
import { operateOnPayment } from "@/lib/backoffice/actions/operate-on-payment";
import { resendNotification } from "@/lib/backoffice/actions/resend-notification";
import { sendTestNotification } from "@/lib/backoffice/actions/send-test-notification";
import { addTeamMember } from "@/lib/backoffice/actions/add-team-member";
import { createKey } from "@/lib/backoffice/actions/create-key";
import { changeTeamMember } from "@/lib/backoffice/actions/change-team-member";
import type { UserRole } from "@/lib/generated/prisma/enums";

useTestDatabase();

let receiver: NotificationReceiver;
let mine: string;
let theirs: string;
let owner: Actor;
let viewer: Actor;
let theirPaymentId: string;
let theirIntegrationId: string;
let theirNotificationId: string;
let theirUserEmail: string;

async function actorFor(merchantId: string, role: UserRole): Promise<Actor> {
  const email = `${role.toLowerCase()}-${merchantId}@example.com`;
  const user = await createUser({ merchantId, email, name: role, password: "long enough password", role });
  return { userId: user.id, merchantId, mode: "test" as const, role };
}

beforeAll(async () => {
  receiver = await startNotificationReceiver();
  mine = (await createTestMerchant({ name: "Mine" })).merchantId;
  theirs = (await createTestMerchant({ name: "Theirs", defaultNotificationUrl: receiver.url })).merchantId;
  owner = await actorFor(mine, "OWNER");
  viewer = await actorFor(mine, "VIEWER");
  theirUserEmail = `owner-${theirs}@example.com`;
  const theirOwner = await actorFor(theirs, "OWNER");
  theirPaymentId = (await createTestPayment({ merchantId: theirs, status: "AUTHORIZED", merchantPaymentId: "their-order", reference: "their-ref" })).paymentId;
  theirIntegrationId = (await saveHostedIntegration({ actor: theirOwner, input: { currentPassword: "long enough password", hostedId: "their-shop", name: "Their shop", defaultNotificationUrl: "", completionNotificationUrl: "", lifecycleNotificationUrl: "", styling: '{"color":"#111111"}' } })).id;
  theirNotificationId = "msg_theirs";
  await db().notification.create({ data: { id: theirNotificationId, merchantId: theirs, mode: "test" as const, paymentId: theirPaymentId, kind: "operation", url: receiver.url, body: '{"paymentid":"x"}', status: "delivered" } });
  await updateNotificationUrls({ actor: theirOwner, input: { currentPassword: "long enough password", defaultNotificationUrl: receiver.url, completionNotificationUrl: "", lifecycleNotificationUrl: "" } });
});

afterAll(async () => {
  await receiver.close();
});

describe("merchant isolation", () => {
  it("shows none of the other merchant's data in any query", async () => {
    await expect(getPaymentDetailOrThrow({ merchantId: owner.merchantId, mode: "test" as const, paymentId: theirPaymentId })).rejects.toBeInstanceOf(NotFoundError);
    for (const q of [theirPaymentId, "their-order", "their-ref", "1111"]) {
      expect((await listPayments({ merchantId: owner.merchantId, mode: "test" as const, filters: { q } })).rows).toEqual([]);
    }
    expect((await listPayments({ merchantId: owner.merchantId, mode: "test" as const, filters: {} })).rows).toEqual([]);
    let csv = "";
    for await (const chunk of exportPaymentsCsv({ merchantId: owner.merchantId, mode: "test" as const, filters: {} })) csv += chunk;
    expect(csv.trim().split("\r\n")).toHaveLength(1);
    const stats = await getOverviewStats({ merchantId: owner.merchantId , mode: "test" as const});
    expect(stats.rows).toEqual([]);
    expect(stats.notifications.total).toBe(0);
    await expect(getHostedIntegrationOrThrow({ merchantId: owner.merchantId, mode: "test" as const, id: theirIntegrationId })).rejects.toBeInstanceOf(NotFoundError);
    expect(await listHostedIntegrations({ merchantId: owner.merchantId , mode: "test" as const})).toEqual([]);
    expect((await listTeam({ merchantId: owner.merchantId })).map((user) => user.email)).not.toContain(theirUserEmail);
    const audit = await listAuditEntries({ merchantId: owner.merchantId, role: "OWNER" });
    expect(audit.rows.every((entry) => !JSON.stringify(entry).includes("their-shop"))).toBe(true);
    expect((await getMerchantSettings({ merchantId: owner.merchantId , mode: "test" as const})).defaultNotificationUrl).toBeNull();
    expect((await listApiKeys({ merchantId: owner.merchantId , mode: "test" as const})).every((key) => key.name === "Test key")).toBe(true);
  });

  it("changes none of the other merchant's data through any action", async () => {
    await expect(saveHostedIntegration({ actor: owner, input: { currentPassword: "long enough password", id: theirIntegrationId, hostedId: "stolen", name: "Stolen", defaultNotificationUrl: "", completionNotificationUrl: "", lifecycleNotificationUrl: "", styling: "{}" } })).rejects.toBeInstanceOf(NotFoundError);
    expect((await db().hostedIntegration.findUniqueOrThrow({ where: { id: theirIntegrationId } })).name).toBe("Their shop");

    for (const operation of ["capture", "void", "refund"] as const) {
      await expect(operateOnPayment({ actor: owner, input: { paymentId: theirPaymentId, operation } })).rejects.toBeInstanceOf(NotFoundError);
    }
    expect(await db().operation.count({ where: { paymentId: theirPaymentId, type: { not: "authorize" } } })).toBe(0);

    await expect(resendNotification({ actor: owner, input: { notificationId: theirNotificationId } })).rejects.toBeInstanceOf(NotFoundError);
    expect(await db().notification.count({ where: { merchantId: theirs } })).toBe(1);

    // Saving my URLs touches only my merchant row.
    await updateNotificationUrls({ actor: owner, input: { currentPassword: "long enough password", defaultNotificationUrl: "https://mine.example/n", completionNotificationUrl: "", lifecycleNotificationUrl: "" } });
    expect((await getMerchantSettings({ merchantId: theirs , mode: "test" as const})).defaultNotificationUrl).toBe(receiver.url);

    // Their users can be neither demoted nor removed.
    const theirOwner = await db().user.findUniqueOrThrow({ where: { email: theirUserEmail }, select: { id: true } });
    await expect(changeTeamMember({ actor: owner, input: { currentPassword: "long enough password", change: "role", userId: theirOwner.id, role: "VIEWER" } })).rejects.toBeInstanceOf(NotFoundError);
    await expect(changeTeamMember({ actor: owner, input: { currentPassword: "long enough password", change: "remove", userId: theirOwner.id } })).rejects.toBeInstanceOf(NotFoundError);
    expect((await db().user.findUniqueOrThrow({ where: { id: theirOwner.id } })).role).toBe("OWNER");

    // A user added by me belongs to my merchant, whatever the form says.
    const added = await addTeamMember({ actor: owner, input: { currentPassword: "long enough password", email: "new@example.com", name: "New", password: "long enough password", role: "VIEWER", merchantId: theirs } });
    expect(added.merchantId).toBe(mine);
  });

  it("lets a viewer change nothing", async () => {
    const myPaymentId = (await createTestPayment({ merchantId: mine, status: "AUTHORIZED" })).paymentId;
    const attempts: Promise<unknown>[] = [
      createKey({ actor: viewer, input: { currentPassword: "long enough password", name: "x" } }),
      updateNotificationUrls({ actor: viewer, input: { defaultNotificationUrl: "https://evil.example", completionNotificationUrl: "", lifecycleNotificationUrl: "" } }),
      saveHostedIntegration({ actor: viewer, input: { hostedId: "v", name: "v", defaultNotificationUrl: "", completionNotificationUrl: "", lifecycleNotificationUrl: "", styling: "{}" } }),
      operateOnPayment({ actor: viewer, input: { paymentId: myPaymentId, operation: "capture" } }),
      resendNotification({ actor: viewer, input: { notificationId: "any" } }),
      sendTestNotification({ actor: viewer, input: { url: receiver.url } }),
      addTeamMember({ actor: viewer, input: { currentPassword: "long enough password", email: "v2@example.com", name: "V2", password: "long enough password", role: "OWNER" } }),
      changeTeamMember({ actor: viewer, input: { currentPassword: "long enough password", change: "role", userId: viewer.userId, role: "OWNER" } }),
      changeTeamMember({ actor: viewer, input: { currentPassword: "long enough password", change: "remove", userId: owner.userId } }),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toBeInstanceOf(ForbiddenError);
    expect((await getMerchantSettings({ merchantId: mine , mode: "test" as const})).defaultNotificationUrl).toBe("https://mine.example/n");
    expect(await db().user.count({ where: { email: "v2@example.com" } })).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it("lets a developer change keys and settings but not the team", async () => {
    const developer = await actorFor(mine, "DEVELOPER");
    await expect(createKey({ actor: developer, input: { currentPassword: "long enough password", name: "dev key" } })).resolves.toBeDefined();
    await expect(addTeamMember({ actor: developer, input: { currentPassword: "long enough password", email: "d2@example.com", name: "D2", password: "long enough password", role: "OWNER" } })).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe("team changes", () => {
  it("change roles and remove users, but always keep one owner", async () => {
    const merchantId = (await createTestMerchant()).merchantId;
    const first = await actorFor(merchantId, "OWNER");
    const developer = await actorFor(merchantId, "DEVELOPER");
    await expect(changeTeamMember({ actor: first, input: { currentPassword: "long enough password", change: "role", userId: first.userId, role: "VIEWER" } })).rejects.toThrow(/at least one owner/);
    await expect(changeTeamMember({ actor: first, input: { currentPassword: "long enough password", change: "remove", userId: first.userId } })).rejects.toThrow(/at least one owner/);
    await changeTeamMember({ actor: first, input: { currentPassword: "long enough password", change: "role", userId: developer.userId, role: "OWNER" } });
    await changeTeamMember({ actor: first, input: { currentPassword: "long enough password", change: "role", userId: first.userId, role: "VIEWER" } });
    expect((await db().user.findUniqueOrThrow({ where: { id: first.userId } })).role).toBe("VIEWER");
    const promoted: Actor = { ...developer, role: "OWNER" };
    await changeTeamMember({ actor: promoted, input: { currentPassword: "long enough password", change: "remove", userId: first.userId } });
    expect(await db().user.count({ where: { id: first.userId } })).toBe(0);
    const actions = (await db().auditEntry.findMany({ where: { merchantId }, orderBy: { createdAt: "asc" }, select: { action: true } })).map((entry) => entry.action);
    expect(actions.filter((action) => action.startsWith("team."))).toEqual(["team.role_changed", "team.role_changed", "team.user_removed"]);
  });
});
