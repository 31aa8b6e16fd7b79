-- AlterTable
ALTER TABLE "Payment" ADD COLUMN     "notificationUrl" TEXT,
ADD COLUMN     "requestedProcessor" "Processor";

-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "notificationUrl" TEXT;

-- CreateTable
CREATE TABLE "CardUpdateCursor" (
    "processor" "Processor" NOT NULL,
    "since" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CardUpdateCursor_pkey" PRIMARY KEY ("processor")
);
