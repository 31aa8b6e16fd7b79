-- Step-up confirmations are counted apart from sign-ins (security review 4, L2); rows from before are sign-ins.
-- AlterTable
ALTER TABLE "SignInAttempt" ADD COLUMN     "stepUp" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "SignInAttempt_userId_stepUp_createdAt_idx" ON "SignInAttempt"("userId", "stepUp", "createdAt");
