-- AlterTable
ALTER TABLE "Notification" ADD COLUMN     "heldBackAt" TIMESTAMP(3),
ADD COLUMN     "releases" INTEGER NOT NULL DEFAULT 0;
