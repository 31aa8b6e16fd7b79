import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NotFoundError } from "@/lib/auth/actor";
import { roleCan } from "@/lib/auth/roles";
import { requireUser } from "@/lib/auth/session";
import { getHostedIntegrationOrThrow } from "@/lib/backoffice/queries/list-hosted-integrations";
import { parseStoredStyling } from "@/lib/validation/hosted-styling";
import { PageHeader } from "@/components/ui/card";
import { HostedIntegrationEditor, type HostedIntegrationValues } from "@/components/backoffice/hosted-integration-editor";
import { saveHostedIntegrationAction } from "../actions";
import { BackLink } from "@/components/backoffice/back-link";

export const metadata: Metadata = { title: "Hosted integration" };
export const dynamic = "force-dynamic";

export default async function HostedIntegrationPage({ params }: { params: Promise<{ integrationId: string }> }) {
  const user = await requireUser();
  const { integrationId } = await params;
  const canWrite = roleCan(user.role, "settings:write");
  let initial: HostedIntegrationValues;
  if (integrationId === "new") {
    if (!canWrite) notFound();
    initial = {
      hostedId: "",
      name: "",
      defaultNotificationUrl: "",
      completionNotificationUrl: "",
      lifecycleNotificationUrl: "",
      allowedCheckoutOrigins: "",
      threeDsChallengePreference: "no_preference",
      styling: {},
    };
  } else {
    try {
      const integration = await getHostedIntegrationOrThrow({ merchantId: user.merchantId, mode: user.mode, id: integrationId });
      initial = {
        id: integration.id,
        hostedId: integration.hostedId,
        name: integration.name,
        defaultNotificationUrl: integration.defaultNotificationUrl ?? "",
        completionNotificationUrl: integration.completionNotificationUrl ?? "",
        lifecycleNotificationUrl: integration.lifecycleNotificationUrl ?? "",
        allowedCheckoutOrigins: integration.allowedCheckoutOrigins.join("\n"),
        threeDsChallengePreference: integration.threeDsChallengePreference,
        styling: parseStoredStyling(integration.styling),
      };
    } catch (error) {
      if (error instanceof NotFoundError) notFound();
      throw error;
    }
  }
  return (
    <>
      <BackLink href="/backoffice/settings/hosted">Hosted integrations</BackLink>
      <PageHeader
        title={initial.id ? initial.name : "New hosted integration"}
        description={initial.id ? `hostedid ${initial.hostedId}` : "Choose the hostedid your server will send in initdynamic."}
      />
      <HostedIntegrationEditor action={saveHostedIntegrationAction} initial={initial} readOnly={!canWrite} totpEnabled={user.totpEnabled} mode={user.mode} />
    </>
  );
}
