-- AlterTable
ALTER TABLE "AcquirerAccount" ADD COLUMN     "credentialsNeeded" TEXT;

-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "credentialSeriesId" TEXT;

-- The bambora connector now speaks Bambora North America's Payments API (docs/decisions.md): a
-- merchant id and two passcodes, one currency (CAD or USD). The Bambora Online Checkout credentials
-- sealed in existing bambora accounts cannot be converted (another API, another account), so those
-- accounts are disabled until an owner enters North America credentials (docs/operations.md,
-- "Bambora North America"); their payments' follow-ups are refused with this text.
UPDATE "AcquirerAccount"
SET "enabled" = false,
    "credentialsNeeded" = 'Bambora now means Bambora North America (Payments API v1): enter the account''s merchant id, Payments API passcode and Reporting API passcode, and its currency (CAD or USD). The Bambora Online Checkout credentials stored before cannot be used.',
    "updatedAt" = CURRENT_TIMESTAMP
WHERE "processor" = 'bambora';
