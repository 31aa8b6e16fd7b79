-- The embedded executor drops waitForEvent, invoke, cancelOn, onFailure and run idempotency keys:
-- no function of lib/jobs uses them (issue 29). No row can hold them unless such a function ran;
-- should one have, a cancelled run becomes failed and its pending waits/invokes go with it, so the
-- enum changes below cannot fail on old rows.
UPDATE "InngestRun" SET "status" = 'failed', "lastError" = COALESCE("lastError", 'cancelled') WHERE "status" = 'cancelled';
UPDATE "InngestRun" SET "status" = 'failed', "endedAt" = COALESCE("endedAt", now()), "nextWakeAt" = NULL,
  "lastError" = 'the embedded executor no longer supports step.waitForEvent / step.invoke'
WHERE "id" IN (SELECT "runId" FROM "InngestJob" WHERE "kind" IN ('wait', 'invoke'));
DELETE FROM "InngestJob" WHERE "runId" IN (SELECT "runId" FROM "InngestJob" WHERE "kind" IN ('wait', 'invoke'));

-- AlterEnum
CREATE TYPE "InngestRunStatus_new" AS ENUM ('queued', 'running', 'sleeping', 'completed', 'failed');
ALTER TABLE "InngestRun" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "InngestRun" ALTER COLUMN "status" TYPE "InngestRunStatus_new" USING ("status"::text::"InngestRunStatus_new");
ALTER TYPE "InngestRunStatus" RENAME TO "InngestRunStatus_old";
ALTER TYPE "InngestRunStatus_new" RENAME TO "InngestRunStatus";
DROP TYPE "InngestRunStatus_old";
ALTER TABLE "InngestRun" ALTER COLUMN "status" SET DEFAULT 'queued';

-- AlterEnum
CREATE TYPE "InngestJobKind_new" AS ENUM ('discovery', 'step', 'sleep');
ALTER TABLE "InngestJob" ALTER COLUMN "kind" TYPE "InngestJobKind_new" USING ("kind"::text::"InngestJobKind_new");
ALTER TYPE "InngestJobKind" RENAME TO "InngestJobKind_old";
ALTER TYPE "InngestJobKind_new" RENAME TO "InngestJobKind";
DROP TYPE "InngestJobKind_old";

-- DropIndex
DROP INDEX "InngestRun_functionId_idempotencyKey_key";

-- DropIndex
DROP INDEX "InngestJob_waitEvent_idx";

-- DropIndex
DROP INDEX "InngestJob_invokedRunId_idx";

-- AlterTable
ALTER TABLE "InngestRun" DROP COLUMN "idempotencyKey";

-- AlterTable
ALTER TABLE "InngestJob" DROP COLUMN "invokedRunId",
DROP COLUMN "waitEvent",
DROP COLUMN "waitIf";
