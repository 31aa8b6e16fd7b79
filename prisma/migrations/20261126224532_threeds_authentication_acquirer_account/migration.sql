-- AlterTable
ALTER TABLE "ThreeDsAuthentication" ADD COLUMN     "acquirerAccountId" TEXT;
