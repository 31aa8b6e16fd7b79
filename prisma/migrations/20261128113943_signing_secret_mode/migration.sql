-- Each mode signs with its own secret (security review 4, M1). A merchant's existing secret stays the
-- live one: live receivers keep verifying without a change. Its test secret is made at first use
-- (lib/notifications/signing-secrets.ts, ensureSigningSecret), sealed, which SQL cannot do. An
-- endpoint's secrets take the endpoint's mode.
-- AlterTable
ALTER TABLE "SigningSecret" ADD COLUMN     "mode" "Mode" NOT NULL DEFAULT 'live';

UPDATE "SigningSecret" s SET "mode" = e."mode" FROM "WebhookEndpoint" e WHERE s."endpointId" = e."id";

ALTER TABLE "SigningSecret" ALTER COLUMN "mode" DROP DEFAULT;
