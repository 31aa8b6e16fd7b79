-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "requestResponseId" TEXT;
