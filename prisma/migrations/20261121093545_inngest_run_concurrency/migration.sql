-- AlterTable
ALTER TABLE "InngestRun" ADD COLUMN     "concurrencyKey" TEXT,
ADD COLUMN     "concurrencyLimit" INTEGER;
