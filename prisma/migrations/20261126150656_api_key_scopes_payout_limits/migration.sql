-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "scopes" TEXT[];

-- CreateTable
CREATE TABLE "PayoutLimit" (
    "merchantId" TEXT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "perPayout" BIGINT NOT NULL,
    "perDay" BIGINT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PayoutLimit_pkey" PRIMARY KEY ("merchantId","currency")
);

-- AddForeignKey
ALTER TABLE "PayoutLimit" ADD CONSTRAINT "PayoutLimit_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Keys made before scopes keep doing everything they did (review 3, M7: no merchant integration
-- breaks on upgrade); new keys get the scopes chosen when they are made.
UPDATE "ApiKey" SET "scopes" = ARRAY['payments', 'follow-ups', 'payouts', 'read'] WHERE "scopes" IS NULL;

-- Merchants that already paid out keep doing so up to what they did before: per currency, the
-- largest payout and the largest total of one UTC day. Everyone else sets limits before a payout.
INSERT INTO "PayoutLimit" ("merchantId", "currency", "perPayout", "perDay", "updatedAt")
SELECT d."merchantId", d."currency", MAX(d."largest"), MAX(d."total"), CURRENT_TIMESTAMP
FROM (
  SELECT p."merchantId", p."currency", date_trunc('day', p."createdAt") AS "day", MAX(p."amount") AS "largest", SUM(p."amount") AS "total"
  FROM "Payment" p
  WHERE p."paymentType" = 'payout' AND p."status" NOT IN ('DECLINED', 'FAILED')
  GROUP BY p."merchantId", p."currency", date_trunc('day', p."createdAt")
) d
GROUP BY d."merchantId", d."currency";
