-- AlterTable
ALTER TABLE "ThreeDsAuthentication" ADD COLUMN     "methodCompletedAt" TIMESTAMP(3),
ADD COLUMN     "methodUrl" TEXT;
