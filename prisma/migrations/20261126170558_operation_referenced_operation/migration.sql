-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "referencedOperationId" VARCHAR(32);
