-- AlterTable
ALTER TABLE "ApiRequest" ADD COLUMN     "apiKeyId" TEXT,
ADD COLUMN     "errorDescription" TEXT,
ADD COLUMN     "idempotencyKey" TEXT,
ADD COLUMN     "idempotentReplay" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "requestBody" TEXT,
ADD COLUMN     "responseBody" TEXT;
