-- AlterTable
ALTER TABLE "ThreeDsAuthentication" ADD COLUMN     "resultMessage" JSONB;
