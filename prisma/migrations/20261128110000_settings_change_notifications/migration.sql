-- What the merchant API caches in each process (lib/db/settings-cache.ts) notifies every listening
-- process when it changes, at commit, on channel cps_settings (payload: the table's name); each
-- process then drops its cached settings (docs/decisions/0170-settings-cache.md). Statement-level:
-- one notification per statement, and PostgreSQL folds repeats within a transaction.
CREATE FUNCTION "cps_notify_settings_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cps_settings', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;

-- API keys: what authentication reads of a key (a new key is never cached before it is used, and
-- the once-a-minute lastUsedAt write changes nothing cached, so neither notifies).
CREATE TRIGGER "ApiKey_settings_change" AFTER UPDATE OF "merchantId", "hash", "revokedAt", "expiresAt", "scopes", "mode" OR DELETE OR TRUNCATE
  ON "ApiKey" FOR EACH STATEMENT EXECUTE FUNCTION "cps_notify_settings_change"();
CREATE TRIGGER "Merchant_settings_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON "Merchant" FOR EACH STATEMENT EXECUTE FUNCTION "cps_notify_settings_change"();
CREATE TRIGGER "AcquirerAccount_settings_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON "AcquirerAccount" FOR EACH STATEMENT EXECUTE FUNCTION "cps_notify_settings_change"();
CREATE TRIGGER "ProcessorRouting_settings_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON "ProcessorRouting" FOR EACH STATEMENT EXECUTE FUNCTION "cps_notify_settings_change"();
CREATE TRIGGER "HostedIntegration_settings_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON "HostedIntegration" FOR EACH STATEMENT EXECUTE FUNCTION "cps_notify_settings_change"();
