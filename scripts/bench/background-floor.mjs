// The background floor of `npm run bench -- inngest` (issue 29): a bare node:http + pg worker that
// does exactly the background work of one capture, and nothing else, so that the real worker's
// cost reads as a ratio to it, measured in the same run:
//   1. claim a row (one UPDATE ... WHERE id = (SELECT ... FOR UPDATE SKIP LOCKED));
//   2. call the same acquirer sandbox over HTTP (Clearhaus' POST /authorizations/{id}/captures, as
//      the connector sends it: form body, Basic auth, the HAL media type);
//   3. write the result (one UPDATE);
//   4. POST the signed notification (HMAC-SHA256, webhook-id/-timestamp/-signature headers) to the
//      same receiver;
//   5. record the attempt (one INSERT).
// Woken by LISTEN/NOTIFY (the bench's INSERT sends pg_notify in the same statement), polling once a
// second as a safety net; at most FLOOR_CONCURRENCY jobs at once. Plain JavaScript run by `node`
// (no tsx, no bundler): the floor pays for nothing but the work. Stopped by SIGTERM.
// With FLOOR_SDK_BUNDLE (the compiled scripts/bench/lib/floor-sdk-call.ts), each job first makes one
// direct call of a trivial Inngest function in this process: the Inngest floor as one process
// (decision 0235). FLOOR_TABLES names its tables and channel (<name>_job, <name>_attempt, <name>),
// so that two floors can run side by side.
import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import { pathToFileURL } from "node:url";
import pg from "pg";

const DATABASE_URL = process.env.FLOOR_DATABASE_URL;
const ACQUIRER_URL = new URL(process.env.FLOOR_ACQUIRER_URL ?? "");
const API_KEY = process.env.FLOOR_API_KEY ?? "";
const CONCURRENCY = Number(process.env.FLOOR_CONCURRENCY ?? 10);
const SECRET = randomBytes(32);
const MEDIA_TYPE = "application/vnd.clearhaus-gateway.hal+json; version=0.10.0";
const TABLES = process.env.FLOOR_TABLES ?? "bench_floor";
if (!/^[a-z_]+$/.test(TABLES)) throw new Error(`FLOOR_TABLES must be a plain lower-case name, not ${TABLES}`);
const sdkCall = process.env.FLOOR_SDK_BUNDLE
  ? (await import(pathToFileURL(process.env.FLOOR_SDK_BUNDLE).href)).createSdkCall()
  : undefined;

// The same pool size as the service's (DATABASE_POOL_SIZE default 10).
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One HTTP request; resolves with the status code and the body text. */
function request(url, { method = "POST", headers, body, timeoutMs = 15_000 }) {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method, headers: { ...headers, "content-length": Buffer.byteLength(body) }, agent, timeout: timeoutMs },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => resolve({ statusCode: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", (error) => resolve({ statusCode: 0, text: "", error: error.message }));
    req.end(body);
  });
}

/** Jobs done, printed when the floor stops with the SDK calls completed (tests/integration/bench). */
let jobsDone = 0;

async function runJob(job) {
  if (sdkCall) await sdkCall.call(job.id);
  const captureUrl = new URL(`/authorizations/${encodeURIComponent(job.authorization_id)}/captures`, ACQUIRER_URL);
  const answer = await request(captureUrl, {
    headers: {
      authorization: `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}`,
      accept: MEDIA_TYPE,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ amount: String(job.amount) }).toString(),
  });
  let code = null;
  try {
    code = JSON.parse(answer.text)?.status?.code ?? null;
  } catch {
    // not JSON: a failed call
  }
  const status = code === 20000 ? "approved" : code === null ? "failed" : "declined";
  await pool.query(`UPDATE ${TABLES}_job SET status = $2, response_code = $3, finished_at = now() WHERE id = $1`, [job.id, status, code]);

  const body = JSON.stringify({ responseid: job.id, paymentid: job.payment_id, status, responsecode: String(code ?? "") });
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac("sha256", SECRET).update(`${job.id}.${timestamp}.${body}`).digest("base64");
  const startedAt = new Date();
  const notified = await request(job.notify_url, {
    headers: {
      "content-type": "application/json",
      "user-agent": "bench-background-floor/1",
      "webhook-id": job.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": `v1,${signature}`,
    },
    body,
  });
  await pool.query(
    `INSERT INTO ${TABLES}_attempt (job_id, attempt_number, started_at, duration_ms, status_code, response_body) VALUES ($1, 1, $2, $3, $4, $5)`,
    [job.id, startedAt, Date.now() - startedAt.getTime(), notified.statusCode || null, notified.text.slice(0, 256)],
  );
  jobsDone++;
}

let active = 0;
/** A wake-up came while CONCURRENCY jobs ran: the next job to finish claims until none is left. */
let missed = false;

/** Claims one job and starts it; false when none was waiting. */
async function claimOne() {
  const { rows } = await pool.query(
    `UPDATE ${TABLES}_job SET claimed_at = now()
     WHERE id = (SELECT id FROM ${TABLES}_job WHERE claimed_at IS NULL ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING id, payment_id, authorization_id, amount, notify_url`,
  );
  const job = rows[0];
  if (!job) return false;
  active++;
  runJob(job)
    .catch((error) => process.stderr.write(`[background floor] ${error.message}\n`))
    .finally(() => {
      active--;
      if (missed) {
        missed = false;
        void drain();
      }
    });
  return true;
}

/** One notification is one row: one claim (none wasted on an empty queue), unless all slots are busy. */
function onNotification() {
  if (active >= CONCURRENCY) missed = true;
  else void claimOne().catch((error) => process.stderr.write(`[background floor] ${error.message}\n`));
}

/** Claims until the queue is empty or every slot is busy (after a missed wake-up, and once a second). */
async function drain() {
  try {
    while (active < CONCURRENCY && (await claimOne()));
    if (active >= CONCURRENCY) missed = true;
  } catch (error) {
    process.stderr.write(`[background floor] ${error.message}\n`);
  }
}

const listener = new pg.Client({ connectionString: DATABASE_URL });
await listener.connect();
listener.on("notification", onNotification);
await listener.query(`LISTEN ${TABLES}`);
const poll = setInterval(() => void drain(), 1000);
process.stdout.write("ready\n");

process.on("SIGTERM", () => {
  clearInterval(poll);
  process.stdout.write(`stopped: ${jobsDone} jobs, ${sdkCall?.completed() ?? 0} SDK calls\n`);
  void Promise.allSettled([listener.end(), pool.end()]).then(() => process.exit(0));
});
