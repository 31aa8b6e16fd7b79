-- Invitations can be withdrawn (security review 4, M2): by an owner, or with their sender's removal or
-- loss of the team permission. The index finds a sender's pending invitations.
-- AlterTable
ALTER TABLE "UserToken" ADD COLUMN     "revokedAt" TIMESTAMP(3),
ADD COLUMN     "revokedByUserId" TEXT;

-- CreateIndex
CREATE INDEX "UserToken_merchantId_kind_createdByUserId_idx" ON "UserToken"("merchantId", "kind", "createdByUserId");
