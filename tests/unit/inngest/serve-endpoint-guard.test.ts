// The guard of /api/inngest in server mode (lib/jobs/serve-endpoint-guard.ts), with a stand-in for the
// SDK's handler: only calls whose HMAC over the raw bytes matches the signing key or the fallback key
// reach it, and the bytes of the calls being handled stay counted in the read budget until the
// handler has answered (security review 4, H1). The whole service is attacked in
// tests/security/inngest-forged-signature-refused-before-parse.test.ts.
import { randomBytes } from "node:crypto";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureHeader } from "@cps/inngest-embedded";
import { resetConfig } from "@/lib/env";
import { guardServeEndpoint, INNGEST_MAX_REQUEST_BYTES } from "@/lib/jobs/serve-endpoint-guard";

const KEY = `signkey-test-${randomBytes(32).toString("hex")}`;
const FALLBACK = `signkey-test-${randomBytes(32).toString("hex")}`;
const SAVED = { ...process.env };

beforeAll(() => {
  Object.assign(process.env, {
    INNGEST_BASE_URL: "http://127.0.0.1:9",
    INNGEST_SIGNING_KEY: KEY,
    INNGEST_SIGNING_KEY_FALLBACK: FALLBACK,
    CARD_DATA_KEY: randomBytes(32).toString("base64"),
    SESSION_SECRET: "s".repeat(40),
    API_KEY_SECRET: "a".repeat(40),
  });
  delete process.env.INNGEST_DEV;
  resetConfig();
});

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in SAVED)) delete process.env[key];
  Object.assign(process.env, SAVED);
  resetConfig();
});

/** A stand-in for the SDK's POST handler that records the bodies it got and answers when told to. */
function recordingHandler() {
  const bodies: string[] = [];
  let open: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  return {
    bodies,
    hold() {
      gate = new Promise((resolve) => (open = resolve));
    },
    release: () => open(),
    handler: async (request: NextRequest) => {
      bodies.push(await request.text());
      await gate;
      return new Response("{}", { status: 200 });
    },
  };
}

function call(body: string, signature: string): NextRequest {
  return new NextRequest("http://127.0.0.1/api/inngest?fnId=x&stepId=step", {
    method: "POST",
    headers: { "content-type": "application/json", "x-inngest-signature": signature },
    body,
  });
}

const sign = (body: string, key = KEY) => signatureHeader({ body, signingKey: key, now: new Date() });
const forged = () => `t=${Math.floor(Date.now() / 1000)}&s=${"ab".repeat(32)}`;

describe("H1: the HMAC over the raw bytes decides before the handler", () => {
  it("H1: a call signed with the key or the fallback key reaches the handler with its bytes unchanged", async () => {
    const sdk = recordingHandler();
    const { POST } = guardServeEndpoint({ GET: sdk.handler, POST: sdk.handler, PUT: sdk.handler });
    const body = '{"event":{"name":"x"},"steps":{}}';
    expect((await POST(call(body, sign(body)), undefined)).status).toBe(200);
    expect((await POST(call(body, sign(body, FALLBACK)), undefined)).status).toBe(200);
    expect(sdk.bodies).toEqual([body, body]);
  });

  it("H1: a forged, a stale-keyed or a body-swapped signature is refused 401 and the handler never runs, JSON or not", async () => {
    const sdk = recordingHandler();
    const { POST } = guardServeEndpoint({ GET: sdk.handler, POST: sdk.handler, PUT: sdk.handler });
    const other = `signkey-test-${randomBytes(32).toString("hex")}`;
    const answers = [
      await POST(call("{not json", forged()), undefined),
      await POST(call('{"a":1}', sign('{"a":1}', other)), undefined),
      await POST(call('{"a":2}', sign('{"a":1}')), undefined),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401]);
    expect(sdk.bodies).toEqual([]);
  });

  it("H1: the bytes of calls being handled stay counted until the handler answers: past eight calls at the cap, 503; after they answer, accepted again", async () => {
    const sdk = recordingHandler();
    const { POST } = guardServeEndpoint({ GET: sdk.handler, POST: sdk.handler, PUT: sdk.handler });
    const body = `{"filler":"${"x".repeat(INNGEST_MAX_REQUEST_BYTES - 13)}"}`;
    expect(Buffer.byteLength(body)).toBe(INNGEST_MAX_REQUEST_BYTES);
    sdk.hold();
    const running = Array.from({ length: 8 }, () => POST(call(body, sign(body)), undefined));
    await expect.poll(() => sdk.bodies.length).toBe(8);
    const refused = await POST(call(body, sign(body)), undefined);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    sdk.release();
    expect((await Promise.all(running)).map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect((await POST(call(body, sign(body)), undefined)).status).toBe(200);
  });

  it("H1: a body one byte over the cap is refused 413 before the handler, even genuinely signed", async () => {
    const sdk = recordingHandler();
    const { POST } = guardServeEndpoint({ GET: sdk.handler, POST: sdk.handler, PUT: sdk.handler });
    const body = `{"filler":"${"x".repeat(INNGEST_MAX_REQUEST_BYTES - 12)}"}`;
    expect((await POST(call(body, sign(body)), undefined)).status).toBe(413);
    expect(sdk.bodies).toEqual([]);
  });
});
