-- AlterEnum
ALTER TYPE "NotificationKind" ADD VALUE 'payout';
