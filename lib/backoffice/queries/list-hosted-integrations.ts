// Hosted integrations serve both modes; the notification addresses shown are those of the mode the
// back office shows (test mode has its own).
import { db } from "../../db";
import { NotFoundError } from "../../auth/actor";
import type { Mode } from "../../mode";
import { addressesOf } from "../../notifications/resolve-notification-url";

const ADDRESSES = {
  defaultNotificationUrl: true,
  completionNotificationUrl: true,
  lifecycleNotificationUrl: true,
  testDefaultNotificationUrl: true,
  testCompletionNotificationUrl: true,
  testLifecycleNotificationUrl: true,
} as const;

function withModeAddresses<Row extends Parameters<typeof addressesOf>[0]>(row: Row, mode: Mode) {
  const {
    testDefaultNotificationUrl: _testDefault,
    testCompletionNotificationUrl: _testCompletion,
    testLifecycleNotificationUrl: _testLifecycle,
    ...rest
  } = row;
  return { ...rest, ...addressesOf(row, mode) };
}

export async function listHostedIntegrations({ merchantId, mode }: { merchantId: string; mode: Mode }) {
  const rows = await db().hostedIntegration.findMany({
    where: { merchantId },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      hostedId: true,
      name: true,
      ...ADDRESSES,
      allowedCheckoutOrigins: true,
      threeDsChallengePreference: true,
      updatedAt: true,
    },
  });
  return rows.map((row) => withModeAddresses(row, mode));
}

export async function getHostedIntegrationOrThrow({ merchantId, mode, id }: { merchantId: string; mode: Mode; id: string }) {
  const integration = await db().hostedIntegration.findFirst({
    where: { id, merchantId },
    select: {
      id: true,
      hostedId: true,
      name: true,
      ...ADDRESSES,
      styling: true,
      allowedCheckoutOrigins: true,
      threeDsChallengePreference: true,
      updatedAt: true,
    },
  });
  if (!integration) throw new NotFoundError("Hosted integration");
  return withModeAddresses(integration, mode);
}
