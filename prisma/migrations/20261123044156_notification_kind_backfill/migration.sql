-- Capture, refund and void notifications stored before they had kinds of their own: their id names
-- the operation (msg_operation_<operation id>), whose type is the kind. Rows it does not name keep
-- "operation". (A separate migration: enum values added in a transaction are usable only after it.)
UPDATE "Notification" AS n
SET "kind" = (o."type"::text)::"NotificationKind"
FROM "Operation" AS o
WHERE n."kind" = 'operation'
  AND n."id" = 'msg_operation_' || o."id"
  AND o."type" IN ('capture', 'refund', 'void');
