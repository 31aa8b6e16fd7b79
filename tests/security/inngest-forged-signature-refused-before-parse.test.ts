// Security review 4, H1: a forged but well-formed `X-Inngest-Signature` (t=<now>&s=<64 hex>) passed
// the guard of /api/inngest, which then read the body to 4 MB and handed it to the Inngest SDK; the
// SDK JSON-parsed and canonicalized it before comparing the HMAC. A 4 MB body of `{}` objects is
// about 1.3 million objects: a second of CPU and some 200 MB of heap per call, unauthenticated. The
// review took a web role in Inngest server mode from 237 MB to 1.1 GB with six such calls.
//
// Against the real service in server mode (the deployment where /api/inngest faces the internet),
// with a known signing key and a fallback key: forged calls with large bodies are refused without a
// parse and the server's memory stays bounded; a body that is not JSON at all is refused 401 (proof
// that nothing parses before the HMAC); calls signed with the key or the fallback key over their raw
// bytes still reach the functions.
import http from "node:http";
import { randomBytes } from "node:crypto";
import canonicalize from "canonicalize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureHeader } from "@cps/inngest-embedded";
import { startInngestStandIn, type InngestStandIn } from "@/tests/helpers/inngest-stand-in";
import { growthDuring, idleRss, MB } from "@/tests/helpers/attack-requests";
import { pidListeningOn } from "@/tests/helpers/process-memory";
import { startService, stopServiceAndRemoveData, testDataDir, type ServiceProcess } from "@/tests/helpers/service-process";

const SIGNING_KEY = `signkey-test-${randomBytes(32).toString("hex")}`;
const FALLBACK_KEY = `signkey-test-${randomBytes(32).toString("hex")}`;
/**
 * Six forged 4 MB calls, two at a time, may grow the server by at most this. Before the fix each call
 * cost some 200 MB of parsed objects; after it, a forged call costs at most the (lower) cap in bytes,
 * and the bytes of all unverified reads at once are bounded by the shared budget.
 */
const ALLOWED_GROWTH = 48 * MB;

let service: ServiceProcess;
let serverPid: number;
let idle: number;
let inngest: InngestStandIn;
const dataDir = testDataDir("inngest-forged");

/** Well formed (t=<seconds now>&s=<64 hex>), but not made with any key the service has. */
const forgedSignature = () => `t=${Math.floor(Date.now() / 1000)}&s=${"ab".repeat(32)}`;

/** A JSON array of `count` empty objects: the cheapest bytes for the most parsed objects. */
function manyObjects(bytes: number): Buffer {
  const count = Math.floor((bytes - 2) / 3);
  return Buffer.from(`[${"{},".repeat(count - 1)}{}]`);
}

/** A POST of `body` with a declared length or chunked; resolves with the answer. */
function post(pathname: string, body: Buffer | string, headers: Record<string, string>, chunked = false): Promise<{ status: number; body: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: "127.0.0.1",
        port: service.port,
        path: pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...headers,
          ...(chunked ? { "transfer-encoding": "chunked" } : { "content-length": Buffer.byteLength(body) }),
        },
        agent: false,
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text, ms: Date.now() - started }));
      },
    );
    outgoing.on("error", (error) => (outgoing.writableEnded ? undefined : reject(error)));
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    // In 256 KB pieces, so that a chunked body really arrives in chunks.
    const piece = 256 * 1024;
    let offset = 0;
    const pump = () => {
      while (offset < bytes.length && !outgoing.destroyed) {
        const next = bytes.subarray(offset, offset + piece);
        offset += next.length;
        if (!outgoing.write(next)) return void outgoing.once("drain", pump);
      }
      if (!outgoing.destroyed) outgoing.end();
    };
    pump();
  });
}

/** A discovery call of a real function (the hourly prune of request records), as an Inngest server sends it. */
function discoveryCall(): string {
  return canonicalize({
    event: { id: `evt-${randomBytes(6).toString("hex")}`, name: "inngest/scheduled.timer", data: { cron: "17 * * * *" }, ts: Date.now(), user: {} },
    events: [],
    steps: {},
    ctx: { run_id: `01J${randomBytes(8).toString("hex").toUpperCase()}`, attempt: 0, disable_immediate_execution: false, use_api: false, stack: { stack: [], current: 0 } },
    version: 2,
  })!;
}

beforeAll(async () => {
  // A stand-in Inngest server: the service sends it events and nothing here depends on its answers.
  inngest = await startInngestStandIn({ ids: [], status: 200 });
  service = await startService({
    dataDir,
    env: {
      INNGEST_BASE_URL: inngest.url,
      INNGEST_SIGNING_KEY: SIGNING_KEY,
      INNGEST_SIGNING_KEY_FALLBACK: FALLBACK_KEY,
      INNGEST_EVENT_KEY: "test-event-key",
    },
  });
  serverPid = pidListeningOn(service.port)!;
  expect(serverPid).toBeGreaterThan(0);
  // Warm up the route (its module, the SDK's handler), then measure idle.
  await post("/api/inngest?fnId=card-payment-service-prune-request-records&stepId=step", "{}", { "x-inngest-signature": forgedSignature() });
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  idle = await idleRss(serverPid);
}, 600_000);

afterAll(async () => {
  await stopServiceAndRemoveData(service, dataDir);
  await inngest?.close();
});

describe("H1: /api/inngest checks the HMAC over the raw bytes before anything parses them", () => {
  it("H1: six forged well-formed signatures with 4 MB bodies of small JSON objects, two at a time, are refused and grow the server by less than 48 MB", async () => {
    const body = manyObjects(4 * MB - 1024);
    const statuses: number[] = [];
    const times: number[] = [];
    const growth = await growthDuring(serverPid, idle, async () => {
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all([
          post("/api/inngest?fnId=card-payment-service-prune-request-records&stepId=step", body, { "x-inngest-signature": forgedSignature() }),
          post("/api/inngest?fnId=card-payment-service-prune-request-records&stepId=step", body, { "x-inngest-signature": forgedSignature() }, true),
        ]);
        for (const answer of answers) {
          statuses.push(answer.status);
          times.push(answer.ms);
        }
      }
    });
    console.log(`[H1] six forged 4 MB calls: answers ${statuses.join(",")}, ${times.join("/")} ms, peak growth ${(growth / MB).toFixed(1)} MB`);
    for (const status of statuses) expect([401, 413]).toContain(status);
    expect(growth).toBeLessThan(ALLOWED_GROWTH);
  });

  it("H1: a forged well-formed signature over a body that is not JSON is answered 401, not a parse error", async () => {
    const answer = await post("/api/inngest?fnId=card-payment-service-prune-request-records&stepId=step", "{not json", {
      "x-inngest-signature": forgedSignature(),
    });
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status: 401 });
  });

  it("H1: a forged signature over a body the size of a real call (under the cap) is answered 401", async () => {
    const answer = await post("/api/inngest?fnId=card-payment-service-prune-request-records&stepId=step", manyObjects(64 * 1024), {
      "x-inngest-signature": forgedSignature(),
    });
    expect(answer.status).toBe(401);
  });

  it("H1: a call signed with INNGEST_SIGNING_KEY over its raw bytes reaches the function (the SDK answers it)", async () => {
    const body = discoveryCall();
    const answer = await post("/api/inngest?fnId=card-payment-service-prune-request-records&stepId=step", body, {
      "x-inngest-signature": signatureHeader({ body, signingKey: SIGNING_KEY, now: new Date() }),
    });
    expect([200, 206]).toContain(answer.status);
  });

  it("H1: a call signed with INNGEST_SIGNING_KEY_FALLBACK (a key rotation) reaches the function too", async () => {
    const body = discoveryCall();
    const answer = await post("/api/inngest?fnId=card-payment-service-prune-request-records&stepId=step", body, {
      "x-inngest-signature": signatureHeader({ body, signingKey: FALLBACK_KEY, now: new Date() }),
    });
    expect([200, 206]).toContain(answer.status);
  });

  it("H1: a genuinely signed call over the cap is refused 413, unparsed", async () => {
    const body = canonicalize({ event: { name: "x", data: { filler: "a".repeat(1024 * 1024) } }, events: [], steps: {} })!;
    const answer = await post("/api/inngest?fnId=card-payment-service-prune-request-records&stepId=step", body, {
      "x-inngest-signature": signatureHeader({ body, signingKey: SIGNING_KEY, now: new Date() }),
    });
    expect(answer.status).toBe(413);
  });
});
