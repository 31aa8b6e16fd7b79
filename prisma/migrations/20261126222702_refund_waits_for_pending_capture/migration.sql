-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "waitingSince" TIMESTAMP(3);
