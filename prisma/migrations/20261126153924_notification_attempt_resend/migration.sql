-- AlterTable
ALTER TABLE "NotificationAttempt" ADD COLUMN     "resend" BOOLEAN NOT NULL DEFAULT false;
