-- The totals of a follow-up (cps_follow_up_totals) as PL/pgSQL, with the same query and the same
-- answer (issue 37, docs/decisions/0229-follow-up-totals-keep-their-plan.md). As a SQL function with
-- an aggregate it cannot be inlined into its caller, and PostgreSQL (before 18) parses and plans the
-- body of such a function on every call: 0.27 ms per call in the bench's capture phase, of which
-- the query itself took 0.03. A capture calls it twice in the web (its read, and the guard under the
-- payment's lock). PL/pgSQL keeps the plan of its statement for the session. STABLE as before: the
-- query sees the snapshot of the statement that calls it, which is what cps_follow_up_unchanged
-- relies on (its own statement after the lock).
CREATE OR REPLACE FUNCTION "cps_follow_up_totals"("p_payment_id" text) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT COALESCE(jsonb_agg(jsonb_build_object('type', t."type", 'status', t."status", 'sum', t."sum"::text, 'count', t."count") ORDER BY t."type", t."status"), '[]'::jsonb)
    FROM (SELECT o."type"::text AS "type", o."status"::text AS "status", SUM(o."amount")::bigint AS "sum", COUNT(*)::int AS "count"
          FROM "Operation" o
          WHERE o."paymentId" = "p_payment_id"
            AND o."type"::text IN ('capture', 'refund', 'void') AND o."status"::text IN ('pending', 'approved')
          GROUP BY 1, 2) t);
END;
$$;
