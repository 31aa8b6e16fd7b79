-- CreateEnum
CREATE TYPE "InngestRunStatus" AS ENUM ('queued', 'running', 'sleeping', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "InngestJobKind" AS ENUM ('discovery', 'step', 'sleep');

-- CreateTable
CREATE TABLE "InngestEvent" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "idempotencyKey" TEXT,
    "payload" JSONB NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fannedOutAt" TIMESTAMP(3),

    CONSTRAINT "InngestEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InngestRun" (
    "id" TEXT NOT NULL,
    "functionId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "event" JSONB NOT NULL,
    "status" "InngestRunStatus" NOT NULL DEFAULT 'queued',
    "forceStepPlan" BOOLEAN NOT NULL DEFAULT false,
    "requestVersion" INTEGER NOT NULL DEFAULT -1,
    "maxAttempts" INTEGER NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "output" JSONB,
    "error" JSONB,
    "lastError" TEXT,
    "nextWakeAt" TIMESTAMP(3),
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InngestRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InngestStep" (
    "runId" TEXT NOT NULL,
    "hashedId" TEXT NOT NULL,
    "name" TEXT,
    "result" JSONB NOT NULL,
    "position" INTEGER NOT NULL,
    "completedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InngestStep_pkey" PRIMARY KEY ("runId","hashedId")
);

-- CreateTable
CREATE TABLE "InngestJob" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "kind" "InngestJobKind" NOT NULL,
    "hashedId" TEXT NOT NULL,
    "name" TEXT,
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "runAt" TIMESTAMP(3) NOT NULL,
    "leasedBy" TEXT,
    "leaseToken" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "InngestJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "InngestEvent_idempotencyKey_key" ON "InngestEvent"("idempotencyKey");

-- CreateIndex
CREATE INDEX "InngestEvent_fannedOutAt_receivedAt_idx" ON "InngestEvent"("fannedOutAt", "receivedAt");

-- CreateIndex
CREATE INDEX "InngestRun_startedAt_idx" ON "InngestRun"("startedAt");

-- CreateIndex
CREATE INDEX "InngestRun_status_idx" ON "InngestRun"("status");

-- CreateIndex
CREATE UNIQUE INDEX "InngestRun_eventId_functionId_key" ON "InngestRun"("eventId", "functionId");

-- CreateIndex
CREATE INDEX "InngestJob_runAt_idx" ON "InngestJob"("runAt");

-- CreateIndex
CREATE UNIQUE INDEX "InngestJob_runId_hashedId_key" ON "InngestJob"("runId", "hashedId");

-- AddForeignKey
ALTER TABLE "InngestStep" ADD CONSTRAINT "InngestStep_runId_fkey" FOREIGN KEY ("runId") REFERENCES "InngestRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InngestJob" ADD CONSTRAINT "InngestJob_runId_fkey" FOREIGN KEY ("runId") REFERENCES "InngestRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
