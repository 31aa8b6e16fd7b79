-- AlterTable
ALTER TABLE "SigningSecret" ADD COLUMN     "endpointId" VARCHAR(32);

-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "copyOfId" TEXT,
ADD COLUMN     "endpointId" VARCHAR(32);

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" VARCHAR(32) NOT NULL,
    "merchantId" TEXT NOT NULL,
    "mode" "Mode" NOT NULL,
    "url" TEXT NOT NULL,
    "kinds" "NotificationKind"[] DEFAULT ARRAY[]::"NotificationKind"[],
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_merchantId_mode_idx" ON "WebhookEndpoint"("merchantId", "mode");

-- CreateIndex
CREATE INDEX "Notification_copyOfId_idx" ON "Notification"("copyOfId");

-- AddForeignKey
ALTER TABLE "SigningSecret" ADD CONSTRAINT "SigningSecret_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
