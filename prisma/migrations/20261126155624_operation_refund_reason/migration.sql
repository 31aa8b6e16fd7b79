-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "reason" TEXT;
