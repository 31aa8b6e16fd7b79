-- AlterTable
ALTER TABLE "Merchant" ADD COLUMN     "allowedCheckoutOrigins" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "HostedIntegration" ADD COLUMN     "allowedCheckoutOrigins" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "ThreeDsAuthentication" ADD COLUMN     "amount" BIGINT,
ADD COLUMN     "cardFingerprint" TEXT,
ADD COLUMN     "currency" CHAR(3);
