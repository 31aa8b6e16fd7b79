-- The `disputes` scope (issue 40, docs/decisions/0204-the-disputes-api.md) came after every key in
-- this table was made. A key that held every scope of its time (payments, follow-ups, payouts, read:
-- full access, as the keys from before scopes were given) gets it, as a Stripe secret key gains a new
-- resource; a restricted key does not, as a Stripe restricted key's new resources are "None"
-- (docs/decisions/0209-api-keys-made-before-a-scope-existed.md). Revoked and expired keys are left
-- as they were: they authenticate nothing. Data only: the schema does not change.
UPDATE "ApiKey"
SET "scopes" = array_append("scopes", 'disputes')
WHERE "scopes" @> ARRAY['payments', 'follow-ups', 'payouts', 'read']::TEXT[]
  AND NOT ("scopes" @> ARRAY['disputes']::TEXT[])
  AND "revokedAt" IS NULL
  AND ("expiresAt" IS NULL OR "expiresAt" > CURRENT_TIMESTAMP);
