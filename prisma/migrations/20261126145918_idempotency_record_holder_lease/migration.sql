-- AlterTable
ALTER TABLE "IdempotencyRecord" ADD COLUMN     "lockedUntil" TIMESTAMP(3),
ADD COLUMN     "responseId" TEXT;
