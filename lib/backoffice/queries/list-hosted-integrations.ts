// Hosted integrations serve both modes; the notification addresses shown are those of the mode the
// back office shows (test mode has its own).
import { db } from "../../db";
import { NotFoundError } from "../../auth/actor";
import type { Mode } from "../../mode";
import { ADDRESS_COLUMNS, withModeAddresses } from "../mode-addresses";

export async function listHostedIntegrations({ merchantId, mode }: { merchantId: string; mode: Mode }) {
  const rows = await db().hostedIntegration.findMany({
    where: { merchantId },
    orderBy: { createdAt: "asc" },
    select: {
      id: true,
      hostedId: true,
      name: true,
      ...ADDRESS_COLUMNS,
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
      ...ADDRESS_COLUMNS,
      styling: true,
      allowedCheckoutOrigins: true,
      threeDsChallengePreference: true,
      updatedAt: true,
    },
  });
  if (!integration) throw new NotFoundError("Hosted integration");
  return withModeAddresses(integration, mode);
}
