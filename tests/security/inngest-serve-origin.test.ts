// Security review 3, M4: with an Inngest server (server mode), an unsigned `PUT /api/inngest` made the
// SDK register the app with the Inngest server at a URL built from the request's Host header, so
// anyone could send every function call (signed, with event payloads) to their own host. Against the
// real service in server mode, with a stand-in Inngest server on loopback that records what it is
// sent: an unsigned PUT changes nothing and registers nothing, and a signed in-band sync answers
// with the configured serve origin whatever the Host header and the body say.
import http from "node:http";
import { randomBytes } from "node:crypto";
import canonicalize from "canonicalize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signatureHeader } from "@cps/inngest-embedded";
import { startInngestStandIn, type InngestStandIn } from "@/tests/helpers/inngest-stand-in";
import { startService, stopServiceAndRemoveData, testDataDir, type ServiceProcess } from "@/tests/helpers/service-process";
import { quietFor } from "../helpers/eventually";

const SIGNING_KEY = `signkey-test-${randomBytes(32).toString("hex")}`;

let service: ServiceProcess;
let inngest: InngestStandIn;
const dataDir = testDataDir("serve-origin");

/** A raw request with any Host header (fetch does not let a caller set it). */
function request(method: string, pathname: string, headers: Record<string, string>, body = ""): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      {
        host: "127.0.0.1",
        port: service.port,
        path: pathname,
        method,
        headers: { ...headers, "content-length": Buffer.byteLength(body) },
        agent: false,
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

beforeAll(async () => {
  inngest = await startInngestStandIn({ ok: true, modified: true });
  service = await startService({
    dataDir,
    env: { INNGEST_BASE_URL: inngest.url, INNGEST_SIGNING_KEY: SIGNING_KEY, INNGEST_EVENT_KEY: "test-event-key" },
  });
}, 600_000);

afterAll(async () => {
  await stopServiceAndRemoveData(service, dataDir);
  await inngest?.close();
});

describe("M4: the serve handler's URL comes from configuration", () => {
  it("M4: an unsigned PUT with a forged Host is refused 401 and registers nothing with the Inngest server", async () => {
    inngest.received.length = 0;
    const answer = await request("PUT", "/api/inngest?deployId=attacker", { host: "attacker.example" });
    expect(answer.status).toBe(401);
    await quietFor(500, "a registration, were one started, reaches the Inngest server");
    expect(inngest.received.filter((entry) => entry.url.includes("/fn/register"))).toEqual([]);
    expect(inngest.received.map((entry) => entry.body).join("\n")).not.toContain("attacker.example");
  });

  it("M4: an out-of-band PUT that says it is in-band but carries no valid signature changes nothing either", async () => {
    inngest.received.length = 0;
    const body = canonicalize({ url: "https://attacker.example/api/inngest" })!;
    const forged = `t=${Math.floor(Date.now() / 1000)}&s=${"cd".repeat(32)}`;
    const answer = await request(
      "PUT",
      "/api/inngest",
      { host: "attacker.example", "content-type": "application/json", "x-inngest-sync-kind": "in_band", "x-inngest-signature": forged },
      body,
    );
    expect(answer.status).toBe(401);
    expect(inngest.received).toEqual([]);
  });

  it("M4: a signed in-band sync is answered with the configured origin, not the Host header's nor the body's", async () => {
    const body = canonicalize({ url: "https://attacker.example/api/inngest" })!;
    const answer = await request(
      "PUT",
      "/api/inngest",
      {
        host: "attacker.example",
        "content-type": "application/json",
        "x-inngest-sync-kind": "in_band",
        "x-inngest-server-kind": "cloud",
        "x-inngest-signature": signatureHeader({ body, signingKey: SIGNING_KEY, now: new Date() }),
      },
      body,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).not.toContain("attacker.example");
    const synced = JSON.parse(answer.body) as { url: string; functions: Array<{ steps: Record<string, { runtime: { url: string } }> }> };
    expect(new URL(synced.url).origin).toBe(new URL(service.baseUrl).origin);
    for (const fn of synced.functions)
      for (const step of Object.values(fn.steps)) expect(new URL(step.runtime.url).origin).toBe(new URL(service.baseUrl).origin);
  });
});
