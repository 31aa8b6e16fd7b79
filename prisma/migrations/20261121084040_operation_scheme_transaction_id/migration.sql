-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "schemeTransactionId" TEXT;
