// Fills a bench database with what a service of issue 14's "Scale" size holds (1,000,000 payments
// and 5,000,000 operations by default), for the `scale` phase of scripts/bench/merchant-api.ts.
// Set-based SQL only (INSERT ... SELECT FROM generate_series), so that it takes minutes:
//  - the rows of one year of traffic, `createdAt` spread over the last 365 days (older than any row
//    the bench itself writes), ids random like the service's (md5 hex: 32 characters, as newId());
//  - spread over `merchants` other merchants and the bench merchant, which holds one payment in five
//    (a large merchant: its API key, its payments and their operations are what the hot paths read);
//  - per payment: its operations (the first an authorization, then partial captures, refunds, a void
//    or declined retries, by the payment's status), a hosted-fields session for two in three (the
//    others are merchant-initiated, with a parent), one notification with one delivery attempt;
//    besides: a third as many abandoned sessions (timed out), two request-log rows per payment, an
//    API key per merchant, and the embedded executor's events and runs of its 30-day retention
//    (INNGEST_EMBEDDED_RETENTION_DAYS) of a year's operations.
// Foreign-key triggers are off while it runs (session_replication_role = replica: every reference
// it writes exists), and the secondary indexes (and primary keys no foreign key depends on) of the
// filled tables are dropped first and rebuilt afterwards from their own definitions, which is several
// times faster than maintaining them row by row. VACUUM ANALYZE at the end gives the planner the
// statistics and the visibility map autovacuum would have given a service of that age.
import type pg from "pg";

export interface ScaleSeedOptions {
  /** A superuser connection to the bench database (session_replication_role needs it). */
  client: pg.Client;
  benchMerchantId: string;
  payments: number;
  operations: number;
  /** Merchants besides the bench merchant. */
  merchants: number;
  log: (line: string) => void;
}

export interface ScaleSeedResult {
  seconds: number;
  /** Seconds per step, in order. */
  steps: { step: string; seconds: number }[];
  /** Rows per table after seeding (whole table, the bench's own rows included). */
  rows: Record<string, number>;
}

const TABLES = ["Merchant", "ApiKey", "Payment", "Operation", "PaymentSession", "Notification", "NotificationAttempt", "ApiRequest", "InngestEvent", "InngestRun"];

export async function seedScaleData({ client, benchMerchantId, payments, operations, merchants, log }: ScaleSeedOptions): Promise<ScaleSeedResult> {
  const started = performance.now();
  const steps: ScaleSeedResult["steps"] = [];
  const step = async (name: string, sql: string, params: unknown[] = []) => {
    const at = performance.now();
    const result = await client.query(sql, params);
    const seconds = Number(((performance.now() - at) / 1000).toFixed(1));
    steps.push({ step: name, seconds });
    log(`  ${name}: ${result.rowCount ?? 0} rows, ${seconds} s`);
  };
  await client.query(`SET session_replication_role = replica`);
  await client.query(`SET maintenance_work_mem = '512MB'`);
  await client.query(`SET synchronous_commit = off`);

  // The indexes to rebuild: every index of the filled tables except primary keys that a foreign key
  // references (those stay; the rows arrive in random id order as in production).
  const quoted = TABLES.map((table) => `'"${table}"'::regclass`).join(", ");
  const { rows: indexes } = await client.query<{ table: string; name: string; definition: string; constraintDefinition: string | null }>(`
    SELECT c.relname AS "table", i.relname AS "name", pg_get_indexdef(x.indexrelid) AS "definition",
           CASE WHEN k.oid IS NOT NULL THEN pg_get_constraintdef(k.oid) END AS "constraintDefinition"
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_class c ON c.oid = x.indrelid
    LEFT JOIN pg_constraint k ON k.conindid = x.indexrelid AND k.contype IN ('p', 'u')
    WHERE x.indrelid IN (${quoted})
      AND NOT EXISTS (SELECT 1 FROM pg_constraint f WHERE f.contype = 'f' AND f.conindid = x.indexrelid)`);
  const at = performance.now();
  for (const index of indexes) {
    if (index.constraintDefinition) await client.query(`ALTER TABLE "${index.table}" DROP CONSTRAINT "${index.name}"`);
    else await client.query(`DROP INDEX "${index.name}"`);
  }
  steps.push({ step: `drop ${indexes.length} indexes`, seconds: Number(((performance.now() - at) / 1000).toFixed(1)) });

  const now = `(now() AT TIME ZONE 'utc')`;
  // Payment g (1..payments): created (payments - g) / payments of a year ago; one in five is the bench
  // merchant's; r = (g / 5) % 100 picks the status, so the bench merchant's payments get every status.
  const merchantOf = `CASE WHEN g % 5 = 0 THEN $1 ELSE '2' || lpad(((g % $2) + 1)::text, 11, '0') END`;
  // `count` names the query parameter that holds the number of payments.
  const paymentCreatedAt = (g: string, count = "$3") =>
    `(${now} - (((${count}::bigint - ${g}) * 31536) / ${count}::bigint) * interval '1000 seconds' - interval '1 hour')`;
  const statusOf = (g: string) => `(CASE WHEN (${g} / 5) % 100 < 60 THEN 'CAPTURED' WHEN (${g} / 5) % 100 < 75 THEN 'AUTHORIZED'
    WHEN (${g} / 5) % 100 < 85 THEN 'REFUNDED' WHEN (${g} / 5) % 100 < 93 THEN 'DECLINED' WHEN (${g} / 5) % 100 < 97 THEN 'VOIDED' ELSE 'FAILED' END)`;
  const amountOf = (g: string) => `(10000 + (${g}::bigint * 7919) % 990000)`;

  await step(
    "merchants",
    `INSERT INTO "Merchant" ("id", "name", "defaultNotificationUrl", "createdAt", "updatedAt")
     SELECT '2' || lpad(g::text, 11, '0'), 'Scale merchant ' || g, 'http://127.0.0.1:9/notify', ${now} - interval '400 days', ${now}
     FROM generate_series(1, $1::int) g`,
    [merchants],
  );
  await step(
    "API keys",
    `INSERT INTO "ApiKey" ("id", "merchantId", "mode", "name", "prefix", "hash", "createdAt")
     SELECT md5('k' || g), '2' || lpad(g::text, 11, '0'), 'test', 'Default', 'cps_' || left(md5('k' || g), 6), encode(sha256(('k' || g)::bytea), 'hex'), ${now} - interval '400 days'
     FROM generate_series(1, $1::int) g`,
    [merchants],
  );
  await step(
    "payments",
    `INSERT INTO "Payment" ("id", "merchantId", "mode", "merchantPaymentId", "parentPaymentId", "status", "amount", "currency",
       "authorizedAmount", "capturedAmount", "refundedAmount", "balance", "reference", "paymentType", "processor",
       "notificationUrl", "createdAt", "updatedAt")
     SELECT md5('p' || g), ${merchantOf}, 'test',
       CASE WHEN g % 10 <> 0 THEN 'order-' || g END,
       CASE WHEN g % 3 = 0 AND g > 5 THEN md5('p' || (g - 5)) END,
       s::"PaymentStatus", a, 'DKK',
       CASE WHEN s IN ('CAPTURED', 'AUTHORIZED', 'REFUNDED', 'VOIDED') THEN a ELSE 0 END,
       CASE WHEN s IN ('CAPTURED', 'REFUNDED') THEN 3 ELSE 0 END,
       CASE WHEN s = 'REFUNDED' THEN 1 ELSE 0 END,
       CASE WHEN s = 'CAPTURED' THEN 3 WHEN s = 'REFUNDED' THEN 2 ELSE 0 END,
       'Order ' || g, CASE WHEN g % 3 = 0 THEN 'unscheduled' ELSE 'cit' END,
       (ARRAY['clearhaus', 'finaro', 'bambora'])[1 + g % 3]::"Processor",
       CASE WHEN g % 3 = 0 THEN 'http://127.0.0.1:9/notify' END,
       t, t + interval '2 minutes'
     FROM generate_series(1, $3::int) g,
       LATERAL (SELECT ${statusOf("g")} AS s, ${amountOf("g")} AS a, ${paymentCreatedAt("g")} AS t) v`,
    [benchMerchantId, merchants, payments],
  );
  // Operation i belongs to payment p = (i - 1) % payments + 1 and is its k-th (k = (i - 1) / payments):
  // k = 0 the authorization, then by the payment's status partial captures (1 unit each), refunds, a
  // void, or declined authorization retries.
  await step(
    "operations",
    `INSERT INTO "Operation" ("id", "paymentId", "type", "paymentType", "amount", "currency", "status", "processor",
       "routingAttempt", "responseCode", "processorReference", "responseId", "notificationUrl", "createdAt", "completedAt")
     SELECT md5('o' || i), md5('p' || p), ty::"OperationType", CASE WHEN ty = 'authorize' THEN 'cit' END,
       CASE WHEN ty = 'authorize' THEN ${amountOf("p")} ELSE 1 END, 'DKK', st::"OperationStatus",
       (ARRAY['clearhaus', 'finaro', 'bambora'])[1 + p % 3]::"Processor", 1,
       CASE WHEN st = 'approved' THEN '00' ELSE '05' END, 'ref-' || i, md5('r' || i), 'http://127.0.0.1:9/notify',
       ${paymentCreatedAt("p", "$1")} + k * interval '1 minute', ${paymentCreatedAt("p", "$1")} + k * interval '1 minute' + interval '1 second'
     FROM generate_series(1, $2::int) i,
       LATERAL (SELECT (i - 1) % $1::int + 1 AS p, (i - 1) / $1::int AS k) pk,
       LATERAL (SELECT ${statusOf("p")} AS s) ps,
       LATERAL (SELECT
         CASE WHEN k = 0 THEN 'authorize'
              WHEN s IN ('CAPTURED', 'AUTHORIZED') THEN 'capture'
              WHEN s = 'REFUNDED' THEN CASE WHEN k = 1 THEN 'capture' ELSE 'refund' END
              WHEN s = 'VOIDED' AND k = 1 THEN 'void'
              ELSE 'authorize' END AS ty,
         CASE WHEN k = 0 AND s IN ('DECLINED', 'FAILED') THEN 'declined'
              WHEN k > 0 AND (s IN ('DECLINED', 'FAILED') OR (s = 'VOIDED' AND k > 1)) THEN 'declined'
              ELSE 'approved' END AS st) o`,
    [payments, operations],
  );
  const sessionStatus = `CASE WHEN ${statusOf("g")} IN ('DECLINED', 'FAILED') THEN 'FAILED' ELSE 'COMPLETED' END`;
  await step(
    "sessions (paid)",
    `INSERT INTO "PaymentSession" ("id", "merchantId", "mode", "merchantPaymentId", "amount", "currency", "reference", "idPan", "idExpMonth",
       "idExpYear", "idSecurityCode", "notificationUrl", "expiresAt", "status", "paymentId", "createdAt", "completedAt")
     SELECT md5('s' || g), ${merchantOf}, 'test', CASE WHEN g % 10 <> 0 THEN 'order-' || g END, ${amountOf("g")}, 'DKK', 'Order ' || g,
       'pan', 'month', 'year', 'cvc', 'http://127.0.0.1:9/notify', ${paymentCreatedAt("g")} + interval '14 minutes',
       (${sessionStatus})::"SessionStatus", md5('p' || g), ${paymentCreatedAt("g")} - interval '1 minute', ${paymentCreatedAt("g")}
     FROM generate_series(1, $3::int) g WHERE g % 3 <> 0`,
    [benchMerchantId, merchants, payments],
  );
  await step(
    "sessions (abandoned)",
    `INSERT INTO "PaymentSession" ("id", "merchantId", "mode", "amount", "currency", "reference", "idPan", "idExpMonth",
       "idExpYear", "idSecurityCode", "notificationUrl", "expiresAt", "status", "createdAt", "completedAt")
     SELECT md5('sa' || g), ${merchantOf}, 'test', ${amountOf("g")}, 'DKK', 'Order ' || g, 'pan', 'month', 'year', 'cvc',
       'http://127.0.0.1:9/notify', ${paymentCreatedAt("g")} + interval '15 minutes', 'TIMED_OUT', ${paymentCreatedAt("g")},
       ${paymentCreatedAt("g")} + interval '15 minutes'
     FROM generate_series(1, $3::int, 3) g`,
    [benchMerchantId, merchants, payments],
  );
  await step(
    "notifications",
    `INSERT INTO "Notification" ("id", "merchantId", "mode", "paymentId", "kind", "url", "body", "status", "attemptCount", "deliveredAt", "createdAt")
     SELECT md5('n' || g), ${merchantOf}, 'test', md5('p' || g), (CASE WHEN g % 3 = 0 THEN 'mit' ELSE 'completion' END)::"NotificationKind",
       'http://127.0.0.1:9/notify',
       '{"responseid":"' || md5('r' || g) || '","paymentid":"' || md5('p' || g) || '","merchantpaymentid":"order-' || g ||
         '","status":"' || lower(${statusOf("g")}) || '","amount":' || ${amountOf("g")} || ',"currency":"DKK"}',
       'delivered', 1, ${paymentCreatedAt("g")} + interval '1 second', ${paymentCreatedAt("g")}
     FROM generate_series(1, $3::int) g`,
    [benchMerchantId, merchants, payments],
  );
  await step(
    "notification attempts",
    `INSERT INTO "NotificationAttempt" ("id", "notificationId", "attemptNumber", "startedAt", "durationMs", "statusCode", "responseBody")
     SELECT md5('na' || g), md5('n' || g), 1, ${paymentCreatedAt("g", "$1")} + interval '1 second', 40 + g % 200, 200, 'ok'
     FROM generate_series(1, $1::int) g`,
    [payments],
  );
  await step(
    "request log",
    `INSERT INTO "ApiRequest" ("id", "merchantId", "mode", "method", "path", "traceApi", "statusCode", "durationMs", "createdAt")
     SELECT md5('q' || j), ${merchantOf}, 'test', 'POST', CASE WHEN j % 2 = 0 THEN '/api/initdynamic' ELSE '/api/' || md5('p' || g) || '/capture' END,
       CASE WHEN j % 4 = 0 THEN 'trace-' || j END, 200, 20 + j % 100, ${paymentCreatedAt("g")} + (j % 2) * interval '1 minute'
     FROM generate_series(1, 2 * $3::int) j, LATERAL (SELECT (j + 1) / 2 AS g) x`,
    [benchMerchantId, merchants, payments],
  );
  // The executor keeps 30 days of history: a twelfth of a year's follow-up operations.
  const runs = Math.round(operations / 12);
  await step(
    "executor events",
    `INSERT INTO "InngestEvent" ("id", "name", "idempotencyKey", "payload", "receivedAt", "fannedOutAt")
     SELECT '00SEED' || lpad(g::text, 20, '0'), 'cps/follow-up.requested', 'follow-up-' || md5('o' || g),
       jsonb_build_object('id', 'follow-up-' || md5('o' || g), 'name', 'cps/follow-up.requested', 'data', jsonb_build_object('operationId', md5('o' || g)), 'ts', 0),
       ${now} - ($1::int - g) * interval '5 seconds', ${now} - ($1::int - g) * interval '5 seconds'
     FROM generate_series(1, $1::int) g`,
    [runs],
  );
  await step(
    "executor runs",
    `INSERT INTO "InngestRun" ("id", "functionId", "eventId", "event", "status", "maxAttempts", "output", "startedAt", "endedAt", "updatedAt")
     SELECT '00SEED' || lpad(g::text, 20, '0'), 'card-payment-service-run-follow-up-operation', '00SEED' || lpad(g::text, 20, '0'),
       jsonb_build_object('name', 'cps/follow-up.requested', 'data', jsonb_build_object('operationId', md5('o' || g))), 'completed', 4, 'null'::jsonb,
       ${now} - ($1::int - g) * interval '5 seconds', ${now} - ($1::int - g) * interval '5 seconds' + interval '80 milliseconds',
       ${now} - ($1::int - g) * interval '5 seconds' + interval '80 milliseconds'
     FROM generate_series(1, $1::int) g`,
    [runs],
  );

  const rebuildAt = performance.now();
  for (const index of indexes) {
    if (index.constraintDefinition) await client.query(`ALTER TABLE "${index.table}" ADD CONSTRAINT "${index.name}" ${index.constraintDefinition}`);
    else await client.query(index.definition);
  }
  steps.push({ step: `rebuild ${indexes.length} indexes`, seconds: Number(((performance.now() - rebuildAt) / 1000).toFixed(1)) });
  log(`  rebuilt ${indexes.length} indexes in ${steps.at(-1)!.seconds} s`);
  await client.query(`SET session_replication_role = origin`);
  await step("VACUUM ANALYZE", `VACUUM ANALYZE ${TABLES.map((table) => `"${table}"`).join(", ")}`);

  const rows: Record<string, number> = {};
  for (const table of TABLES) {
    rows[table] = Number((await client.query<{ count: string }>(`SELECT count(*) AS count FROM "${table}"`)).rows[0]?.count);
  }
  return { seconds: Number(((performance.now() - started) / 1000).toFixed(1)), steps, rows };
}
