-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "attemptStartedAt" TIMESTAMP(3),
ADD COLUMN     "routingStopped" TEXT;

-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "authenticationId" TEXT,
ADD COLUMN     "declineClass" TEXT;

-- AlterTable
ALTER TABLE "StoredCard" ADD COLUMN     "mitStopAcquirerCode" TEXT,
ADD COLUMN     "mitStopPaymentId" VARCHAR(32),
ADD COLUMN     "mitStopProcessor" "Processor",
ADD COLUMN     "mitStopResponseCode" TEXT,
ADD COLUMN     "mitStoppedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "ThreeDsAuthentication" ADD COLUMN     "reason" TEXT;
