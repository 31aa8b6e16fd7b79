// Issue 40: links the acquirer's answer hands us are destinations the acquirer chose, not the
// operator. The Clearhaus Merchant API answers an evidence file's creation with an `upload` link on
// another host (a pre-signed S3 link [S14]) to which the dispute's evidence bytes are PUT: a
// tampered or hostile answer could point it at the service's own network (cloud metadata, a private
// host, a port on the machine). Such a link goes through the egress guard of every address the
// service does not configure itself (lib/egress: public addresses only, https in production, checked
// again when the name is resolved) and is observed; nothing is sent to a refused one
// (docs/decisions/0211-links-in-acquirer-answers-go-through-the-egress-guard.md).
// The acquirer is the strict Merchant API sandbox behind a proxy that rewrites one link of its
// answer; the suite runs in a loopback-only network namespace, so nothing can leave the machine.
import http from "node:http";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CardDetails } from "@/lib/cards/card-details";
import { ReportingApiError, type AcquirerReportingClient } from "@/lib/acquirers/contract";
import type { ClearhausMerchantApiCredentials } from "@/lib/acquirers/clearhaus/reporting/credentials";
import { forgetMerchantApiTokens } from "@/lib/acquirers/clearhaus/reporting/client";
import { reportingClientFor } from "@/lib/acquirers/reporting";
import { newId } from "@/lib/ids";
import { captureLogs } from "@/lib/observability/logger";
import { registerSandboxAddress, reportingSandboxKey } from "@/lib/runtime/sandbox-addresses";
import { MERCHANT_API_SANDBOX_CLIENTS } from "@/lib/sandboxes/acquirers/clearhaus/merchant-api/clients";
import { startSandboxes, type RunningSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { connectorAt, sandboxCredentials } from "@/tests/helpers/acquirer-accounts";
import { restoreEnvAfterEach, runAsProduction } from "@/tests/helpers/production-mode";
import { merchantApiSandboxAuth } from "@/tests/helpers/merchant-api-sandbox";

restoreEnvAfterEach();

const credentials = { clientId: MERCHANT_API_SANDBOX_CLIENTS[0]!.clientId, clientSecret: MERCHANT_API_SANDBOX_CLIENTS[0]!.clientSecret };
const PDF = { fileName: "receipt.pdf", contentType: "application/pdf", bytes: new TextEncoder().encode("%PDF-1.4\n% the merchant's evidence\n%%EOF\n") };

let sandboxes: RunningSandboxes;
let proxy: { url: string; close: () => void };
/** The upload link the proxy puts into the next file-creation answer, from the sandbox's own (undefined: that one). */
let uploadLink: ((sandboxLink: string) => string) | undefined;
let disputeId: string;
const closers: Array<() => void> = [];

/**
 * The acquirer as the client sees it: the sandbox behind a proxy that forwards every request (with
 * its Host, so the sandbox's links name the proxy) and, when `uploadLink` is set, replaces the
 * `upload` link of a file-creation answer with it.
 */
async function rewritingProxy(target: URL): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const upstream = http.request(
        { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => parts.push(chunk));
          answer.on("end", () => {
            let body = Buffer.concat(parts);
            if (uploadLink && request.method === "POST" && /\/files(\?|$)/.test(request.url ?? "") && answer.statusCode === 201) {
              const file = JSON.parse(body.toString()) as { _links: Record<string, { href: string; name?: string }[]> };
              file._links["ch:data"] = file._links["ch:data"]!.map((link) => (link.name === "upload" ? { ...link, href: uploadLink!(link.href) } : link));
              body = Buffer.from(JSON.stringify(file));
            }
            const headers = { ...answer.headers };
            delete headers["content-length"];
            delete headers["transfer-encoding"];
            response.writeHead(answer.statusCode ?? 502, { ...headers, "content-length": String(body.length) });
            response.end(body);
          });
        },
      );
      upstream.on("error", () => response.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** A TCP listener on 127.0.0.1 that counts connections: where a hostile link would lead. */
async function tcpListener() {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => {
    sockets.push(socket);
    socket.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => {
    sockets.forEach((socket) => socket.destroy());
    server.close();
  });
  return { port: (server.address() as net.AddressInfo).port, connections: () => sockets.length };
}

beforeAll(async () => {
  sandboxes = await startSandboxes({ processors: ["clearhaus"], threeDs: false, extensions: true });
  proxy = await rewritingProxy(new URL(sandboxes.reportingUrls.clearhaus!));
  // Test accounts' reporting API is the proxy in front of the sandbox (as the launcher registers the sandbox).
  registerSandboxAddress(reportingSandboxKey("clearhaus"), { url: proxy.url, path: "", extensions: true });
  // A captured payment at the gateway sandbox, and a dispute opened on it at the Merchant API sandbox.
  const gateway = connectorAt(sandboxes.urls.clearhaus!, sandboxCredentials("clearhaus"));
  const card = new CardDetails({ pan: "4111111111111111", expMonth: 12, expYear: new Date().getUTCFullYear() + 2, securityCode: "987" });
  const authorized = await gateway.authorize({ operationId: newId(), paymentId: newId(), amount: 9_900n, currency: "DKK", card });
  const captured = await gateway.capture({ operationId: newId(), amount: 9_900n, currency: "DKK", authorizationReference: authorized.processorReference! });
  const opened = await fetch(`${sandboxes.reportingUrls.clearhaus}/sandbox/disputes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ transaction_id: captured.processorReference, reason: "fraud", reason_code: "10.4" }),
  });
  expect(opened.status).toBe(201);
  disputeId = ((await opened.json()) as { id: string }).id;
});
afterEach(() => {
  uploadLink = undefined;
  for (const close of closers.splice(0)) close();
});
afterAll(async () => {
  proxy?.close();
  await sandboxes?.close();
  forgetMerchantApiTokens();
});

function client(): AcquirerReportingClient<ClearhausMerchantApiCredentials> {
  return reportingClientFor("clearhaus", "test") as AcquirerReportingClient<ClearhausMerchantApiCredentials>;
}

/** Sends the evidence with `link` as the answer's upload link: the refusal, and what was logged. */
async function uploadTo(link: string | ((sandboxLink: string) => string)) {
  uploadLink = typeof link === "string" ? () => link : link;
  const logs = captureLogs();
  let refusal: unknown;
  try {
    await client().submitEvidence(disputeId, { files: [PDF] }, { credentials });
  } catch (error) {
    refusal = error;
  } finally {
    logs.stop();
  }
  return { refusal, entries: logs.entries() };
}

/** How many of the dispute's files at the sandbox have their bytes (read as the merchant's OAuth client). */
async function uploadedFiles(): Promise<number> {
  const root = sandboxes.reportingUrls.clearhaus!;
  const auth = await merchantApiSandboxAuth(root, credentials);
  const files = (await (await fetch(`${root}/disputes/${disputeId}/files`, { headers: auth })).json()) as {
    _embedded: { "ch:files": { _links: { "ch:data": { href: string; name: string }[] } }[] };
  };
  let uploaded = 0;
  for (const file of files._embedded["ch:files"]) {
    const download = file._links["ch:data"].find((link) => link.name === "download")!.href;
    if ((await fetch(download, { headers: auth })).status === 200) uploaded += 1;
  }
  return uploaded;
}

function expectRefusedAndObserved(outcome: Awaited<ReturnType<typeof uploadTo>>, link: string) {
  expect(outcome.refusal, link).toBeInstanceOf(ReportingApiError);
  expect((outcome.refusal as ReportingApiError).message, link).toMatch(/^Clearhaus Merchant API file upload: destination not allowed: /);
  expect((outcome.refusal as ReportingApiError).credentialsRefused).toBe(false);
  // Observed as the connectors' calls are: the refused destination on a line of its own, and the call's outcome.
  expect(outcome.entries, link).toContainEqual(expect.objectContaining({ event: "acquirer.egress_refused", processor: "clearhaus", host: new URL(link).host }));
  expect(outcome.entries, link).toContainEqual(
    expect.objectContaining({ event: "acquirer.reporting", operation: "reporting.submitEvidence", outcome: "destination-refused" }),
  );
}

describe("an upload link in the acquirer's answer", () => {
  it("the sandbox's own link (the API's origin) is followed: the evidence arrives", async () => {
    await expect(client().submitEvidence(disputeId, { files: [PDF] }, { credentials })).resolves.toBeUndefined();
  });

  it("pointing at a private, link-local (cloud metadata), IPv4-mapped or unspecified address is refused and nothing is sent, in any mode", async () => {
    // 0.0.0.0 reaches the machine's own listeners: one waits there, and nothing may reach it.
    const listener = await tcpListener();
    const before = await uploadedFiles();
    for (const link of [
      "http://10.0.0.7/upload?signature=x",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::ffff:10.0.0.7]/upload",
      "http://[fd00::7]/upload",
      `http://0.0.0.0:${listener.port}/upload`,
    ])
      expectRefusedAndObserved(await uploadTo(link), link);
    expect(listener.connections()).toBe(0);
    // The files were created at the acquirer (the metadata), and none got the evidence's bytes.
    expect(await uploadedFiles()).toBe(before);
  });

  it("in production, pointing at this machine (by address or by a name that resolves to it) or at plain http is refused, and the listener there gets no connection", async () => {
    const listener = await tcpListener();
    runAsProduction();
    for (const link of [
      `https://127.0.0.1:${listener.port}/upload`,
      `https://localhost:${listener.port}/upload`,
      `https://[::ffff:127.0.0.1]:${listener.port}/upload`,
      `http://127.0.0.1:${listener.port}/upload`,
      // A public address, but not over https.
      "http://93.184.216.34/upload",
    ])
      expectRefusedAndObserved(await uploadTo(link), link);
    expect(listener.connections()).toBe(0);
  });

  it("a link that is no http(s) URL is refused the same way", async () => {
    for (const link of ["file:///etc/passwd", "ftp://93.184.216.34/upload"]) expectRefusedAndObserved(await uploadTo(link), link);
  });

  it("a link to another host the policy allows goes through the guard and is followed: the evidence's bytes arrive (local mode: the sandbox at its own address, not the API root's)", async () => {
    const direct = new URL(sandboxes.reportingUrls.clearhaus!);
    const before = await uploadedFiles();
    const outcome = await uploadTo((sandboxLink) => {
      const link = new URL(sandboxLink);
      link.host = direct.host;
      return link.toString();
    });
    expect(outcome.refusal).toBeUndefined();
    expect(outcome.entries.filter((entry) => entry.event === "acquirer.egress_refused")).toEqual([]);
    expect(await uploadedFiles()).toBe(before + 1);
  });

  it("a public https link (a pre-signed S3 link's kind) passes the guard: it is tried, not refused (here, with no route out, it cannot connect)", async () => {
    const outcome = await uploadTo("https://93.184.216.34/evidence/upload?X-Amz-Signature=x");
    expect(outcome.refusal).toBeInstanceOf(ReportingApiError);
    expect((outcome.refusal as ReportingApiError).message).toBe("Clearhaus Merchant API file upload: no answer (network)");
    expect(outcome.entries.filter((entry) => entry.event === "acquirer.egress_refused")).toEqual([]);
  });
});
