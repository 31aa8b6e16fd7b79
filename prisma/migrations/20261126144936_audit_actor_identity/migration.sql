-- DropForeignKey
ALTER TABLE "AuditEntry" DROP CONSTRAINT "AuditEntry_userId_fkey";

-- AlterTable
ALTER TABLE "AuditEntry" ADD COLUMN     "actorEmail" TEXT,
ADD COLUMN     "actorName" TEXT,
ADD COLUMN     "actorRole" TEXT;

-- The actor of every existing entry, copied while the users still exist (review 3, M2).
UPDATE "AuditEntry" a SET "actorEmail" = u."email", "actorName" = u."name", "actorRole" = u."role"::text
FROM "User" u WHERE u."id" = a."userId";
UPDATE "AuditEntry" SET "actorRole" = 'operator', "actorName" = 'Operator (CLI)' WHERE "userId" IS NULL AND "action" LIKE 'operator.%';

-- Append-only: the application cannot change or delete what it recorded (PCI DSS 10.3.2). Entries
-- older than 13 months may be deleted (retention: 12 months, 10.5.1).
CREATE FUNCTION "cps_audit_entry_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD."createdAt" < now() - interval '13 months' THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'audit entries are append-only: % of "AuditEntry" is refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "AuditEntry_append_only" BEFORE UPDATE OR DELETE ON "AuditEntry" FOR EACH ROW EXECUTE FUNCTION "cps_audit_entry_append_only"();
CREATE TRIGGER "AuditEntry_no_truncate" BEFORE TRUNCATE ON "AuditEntry" FOR EACH STATEMENT EXECUTE FUNCTION "cps_audit_entry_append_only"();
