-- The active runs of functions with a concurrency limit, indexed on their own (issue 37,
-- docs/decisions/0230-limited-runs-found-through-their-own-index.md). Every claim of the embedded
-- executor asks whether such a run has a job due (packages/inngest-embedded/src/claims.ts,
-- "limitedDue"). Through the status index that visited every active run, nearly all of them
-- unlimited, and their dead index entries under churn: 0.41 of a claim's 0.61 ms and 290 of its 346
-- buffer reads in the bench's capture phase (167 active runs, none limited). This index holds only
-- the rows the question is about (none, most of the time). It is not in prisma/schema: Prisma's
-- schema cannot say WHERE; schema diffs (npm run db:migration) compare schemas, not databases, and
-- leave it alone.
CREATE INDEX "InngestRun_limited_active_idx" ON "InngestRun" ("id")
  WHERE "concurrencyLimit" IS NOT NULL AND "status" IN ('queued', 'running', 'sleeping');
