-- CreateTable
CREATE TABLE "SigningSecret" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "sealed" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),

    CONSTRAINT "SigningSecret_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SigningSecret_merchantId_createdAt_idx" ON "SigningSecret"("merchantId", "createdAt");

-- AddForeignKey
ALTER TABLE "SigningSecret" ADD CONSTRAINT "SigningSecret_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each merchant's secret becomes its first row (review 3, M3). The key that seals secrets lives in the
-- application, so the row holds the secret as it was ("whsec_..."); the service seals such rows at
-- its next start and on first use (lib/notifications/signing-secrets.ts).
INSERT INTO "SigningSecret" ("id", "merchantId", "sealed", "createdAt")
SELECT md5(random()::text || clock_timestamp()::text || m."id"), m."id", m."notificationSecret", m."createdAt"
FROM "Merchant" m;

-- AlterTable
ALTER TABLE "Merchant" DROP COLUMN "notificationSecret";
