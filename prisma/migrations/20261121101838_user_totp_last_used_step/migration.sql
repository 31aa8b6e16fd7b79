-- AlterTable
ALTER TABLE "User" ADD COLUMN     "totpLastUsedStep" INTEGER;
