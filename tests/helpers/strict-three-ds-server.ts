// The strict 3DS Server sandbox (lib/sandboxes/threeds/three-ds-server.ts) on 127.0.0.1 for one test
// file: started before the file's own beforeAll hooks that follow the call, configured as the test
// mode's 3DS Server, and the environment put back afterwards.
import { afterAll, beforeAll } from "vitest";
import { resetConfig } from "@/lib/env";
import { startSandboxServer, type RunningSandbox } from "@/lib/sandboxes/acquirers/serve";
import { createThreeDsServerSandbox } from "@/lib/sandboxes/threeds/three-ds-server";
import type { CardholderBrowser } from "@/lib/threeds/browser-areq";

/**
 * A desktop Chromium in Denmark as the hosted fields describe it for an AReq (3DS 2.2 browser fields;
 * a colour depth of 30 bits, which the AReq must send as the nearest listed value).
 */
export const DESKTOP_BROWSER: CardholderBrowser = {
  acceptHeader: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36",
  acceptLanguage: "da-DK,da;q=0.9,en;q=0.8",
  ip: "192.0.2.10",
  info: { language: "da-DK", colorDepth: 30, screenHeight: 1080, screenWidth: 1920, timeZoneOffset: -60, javaEnabled: false },
};

export interface ReceivedRequest {
  path: string;
  body: Record<string, unknown> | undefined;
}

export interface StrictThreeDsServer {
  /** Its base URL (set in beforeAll). */
  url: () => string;
  /** Every request it received, path and JSON body, in order (the test's own sandbox: nothing leaves it). */
  readonly received: ReceivedRequest[];
  /** Every AReq it accepted, without acctNumber. */
  readonly acceptedAReqs: Record<string, unknown>[];
  /**
   * A fault on the wire: requests to `path` after the first `after` of them are answered 500 (the
   * 3DS Server failing in the middle of a payment). Unset: none.
   */
  failing?: { path: string; after: number };
}

export function useStrictThreeDsServer(): StrictThreeDsServer {
  const saved = { url: process.env.THREEDS_TEST_SERVER_URL, key: process.env.THREEDS_TEST_API_KEY };
  const received: ReceivedRequest[] = [];
  const acceptedAReqs: Record<string, unknown>[] = [];
  let server: RunningSandbox | undefined;
  const strict: StrictThreeDsServer = {
    url: () => {
      if (!server) throw new Error("the strict 3DS Server is used before beforeAll");
      return server.url;
    },
    received,
    acceptedAReqs,
  };
  beforeAll(async () => {
    const sandbox = createThreeDsServerSandbox({ onAReq: (areq) => acceptedAReqs.push(areq) });
    server = await startSandboxServer({
      name: "strict 3DS Server",
      handler: async (request) => {
        const body = request.headers.get("content-type")?.includes("json")
          ? ((await request.clone().json()) as Record<string, unknown>)
          : undefined;
        const path = new URL(request.url).pathname;
        received.push({ path, body });
        const fault = strict.failing;
        if (fault && path === fault.path && received.filter((seen) => seen.path === path).length > fault.after)
          return new Response("internal error", { status: 500 });
        return sandbox.handler(request);
      },
    });
    process.env.THREEDS_TEST_SERVER_URL = server.url;
    process.env.THREEDS_TEST_API_KEY = sandbox.apiKey;
    resetConfig();
  });
  afterAll(async () => {
    for (const [name, value] of [
      ["THREEDS_TEST_SERVER_URL", saved.url],
      ["THREEDS_TEST_API_KEY", saved.key],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
    await server?.close();
  });
  return strict;
}
