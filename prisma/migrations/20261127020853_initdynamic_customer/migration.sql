-- AlterTable
ALTER TABLE "PaymentSession" ADD COLUMN     "customerEmail" TEXT,
ADD COLUMN     "customerFirstName" TEXT,
ADD COLUMN     "customerIpAddress" TEXT,
ADD COLUMN     "customerSurname" TEXT;
