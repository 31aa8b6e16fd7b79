-- An acquirer account's row holds, beside its settings, the bookkeeping of background feeds: the
-- card-update cursor (written every minute for every enabled account by the poll-card-updates
-- cron job, even when it does not move) and the reporting API's last check. Each of those writes
-- notified cps_settings, and every process dropped everything it had cached of every merchant's
-- settings once a minute (decision 0225). An update now notifies only when the row changed in
-- something else: row-level, comparing the old and new rows without those columns and updatedAt
-- (which Prisma sets on every update), so a column added later is a setting unless it is named
-- here. Inserts, deletes and truncates notify as before.
DROP TRIGGER "AcquirerAccount_settings_change" ON "AcquirerAccount";

CREATE TRIGGER "AcquirerAccount_settings_change" AFTER INSERT OR DELETE OR TRUNCATE
  ON "AcquirerAccount" FOR EACH STATEMENT EXECUTE FUNCTION "cps_notify_settings_change"();

CREATE TRIGGER "AcquirerAccount_settings_update" AFTER UPDATE ON "AcquirerAccount" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - ARRAY['cardUpdatesSince', 'reportingCheckedAt', 'reportingProblem', 'reportingFailures', 'updatedAt'])
    IS DISTINCT FROM (to_jsonb(NEW) - ARRAY['cardUpdatesSince', 'reportingCheckedAt', 'reportingProblem', 'reportingFailures', 'updatedAt']))
  EXECUTE FUNCTION "cps_notify_settings_change"();
