-- AlterEnum
ALTER TYPE "InngestRunStatus" ADD VALUE 'cancelled';
