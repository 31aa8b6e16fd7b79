-- Search by prefix in the back office's payments list (lib/backoffice/queries/list-payments.ts,
-- paymentPrefixSearch): btree indexes with pattern operator classes, which a `LIKE 'abc%'` can
-- range-scan whatever the database's collation (a plain btree under en_US.UTF-8 or C.UTF-8 cannot),
-- and the customer's email lower-cased, so the search ignores case. Written by hand: the Prisma
-- schema cannot state operator classes of btree indexes nor expression indexes, so these indexes
-- are not in prisma/schema and the schema diff leaves them alone.
CREATE INDEX "Payment_merchantId_merchantPaymentId_prefix_idx" ON "Payment" ("merchantId", "merchantPaymentId" varchar_pattern_ops);
CREATE INDEX "Payment_merchantId_reference_prefix_idx" ON "Payment" ("merchantId", "reference" text_pattern_ops);
CREATE INDEX "Payment_merchantId_customerEmail_prefix_idx" ON "Payment" ("merchantId", lower("customerEmail") text_pattern_ops);
