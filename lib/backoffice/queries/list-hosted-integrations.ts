import { db } from "../../db";
import { NotFoundError } from "../../auth/actor";

export async function listHostedIntegrations({ merchantId }: { merchantId: string }) {
  return db().hostedIntegration.findMany({
    where: { merchantId },
    orderBy: { createdAt: "asc" },
    select: { id: true, hostedId: true, name: true, defaultNotificationUrl: true, completionNotificationUrl: true, lifecycleNotificationUrl: true, allowedCheckoutOrigins: true, updatedAt: true },
  });
}

export async function getHostedIntegrationOrThrow({ merchantId, id }: { merchantId: string; id: string }) {
  const integration = await db().hostedIntegration.findFirst({
    where: { id, merchantId },
    select: { id: true, hostedId: true, name: true, defaultNotificationUrl: true, completionNotificationUrl: true, lifecycleNotificationUrl: true, styling: true, allowedCheckoutOrigins: true, updatedAt: true },
  });
  if (!integration) throw new NotFoundError("Hosted integration");
  return integration;
}
