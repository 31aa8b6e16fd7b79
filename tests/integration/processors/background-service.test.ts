// The service starts sandboxes for test mode, only for processors whose test endpoint (*_TEST_BASE_URL)
// is not configured; live accounts never reach them (issue 27).
import { createServer, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { challengeRequest } from "@/tests/helpers/threeds-messages";
import { resetConfig } from "@/lib/env";
import { bindConnector, sandboxUrl } from "@/lib/acquirers/registry";
import type { AcquirerName } from "@/lib/acquirers/names";
import { sandboxCredentials } from "@/tests/helpers/acquirer-accounts";
import { startProcessorSandboxes } from "@/lib/sandboxes/acquirers/background-service";
import { startSandboxes } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { FINARO_SANDBOX_PATH } from "@/lib/sandboxes/acquirers/finaro";

/** The connector of `name` under the sandboxes' first test account (where the registry points it). */
const getConnector = (name: AcquirerName) => bindConnector({ id: "test-account", mode: "test", ...sandboxCredentials(name) });
import { threeDsSandboxUrl } from "@/lib/threeds/ds-client";
import { CardDetails } from "@/lib/cards/card-details";
import { newId } from "@/lib/ids";
import { randomUUID } from "node:crypto";
import { encodeBase64Url } from "@/lib/threeds/messages";
import { THREEDS_SANDBOX_API_KEY } from "@/lib/sandboxes/threeds/directory-server";
import { serveMountedThreeDsSandbox } from "@/lib/sandboxes/threeds/mount";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetConfig();
});

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const card = new CardDetails({ pan: "4111111111111111", expMonth: 12, expYear: new Date().getUTCFullYear() + 1, securityCode: "123" });

describe("processor sandboxes as a background service", () => {
  it("starts every sandbox when nothing is configured, and the connectors use them", async () => {
    process.env.LOG_LEVEL = "silent";
    resetConfig();
    const running = await startProcessorSandboxes();
    try {
      expect(Object.keys(running!.urls).sort()).toEqual(["bambora", "bambora-worldline", "clearhaus", "finaro", "threeds"]);
      expect(threeDsSandboxUrl()).toBe(running!.urls.threeds);
      for (const name of ["finaro", "clearhaus", "bambora"] as const) {
        expect(sandboxUrl(name)).toBe(running!.urls[name]);
        const result = await getConnector(name).authorize({
          operationId: newId(),
          paymentId: newId(),
          amount: 100n,
          // CAD: the currency of the sandbox's first bambora account (Bambora North America); the others take any.
          currency: "CAD",
          card,
        });
        expect(result.status, name).toBe("approved");
      }
    } finally {
      await running?.close();
    }
    expect(sandboxUrl("finaro")).toBeUndefined();
    expect(() => getConnector("finaro")).toThrow(/not configured/);
  });

  it("puts a reporting API sandbox on <NAME>_REPORTING_SANDBOX_PORT, with its scenario endpoints, so a test can reach it", async () => {
    const port = await freePort();
    process.env.LOG_LEVEL = "silent";
    process.env.CLEARHAUS_REPORTING_SANDBOX_PORT = String(port);
    resetConfig();
    const running = await startProcessorSandboxes();
    try {
      expect(running!.reportingUrls.clearhaus).toBe(`http://127.0.0.1:${port}`);
      // The scenario endpoints answer (a transaction it does not know is refused as such).
      const answer = await fetch(`http://127.0.0.1:${port}/sandbox/disputes`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ transaction_id: "none", reason: "fraud", reason_code: "10.4" }),
      });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain("no transaction none");
    } finally {
      await running?.close();
    }
  });

  it("leaves a processor with a test endpoint alone and connects its test accounts to it", async () => {
    const outside = await startSandboxes({ processors: ["finaro"], threeDs: false, register: false, extensions: true });
    try {
      process.env.LOG_LEVEL = "silent";
      process.env.FINARO_TEST_BASE_URL = `${outside.urls.finaro}${FINARO_SANDBOX_PATH}`;
      resetConfig();
      const running = await startProcessorSandboxes();
      try {
        expect(Object.keys(running!.urls).sort()).toEqual(["bambora", "bambora-worldline", "clearhaus", "threeds"]);
        const result = await getConnector("finaro").authorize({
          operationId: newId(),
          paymentId: newId(),
          amount: 100n,
          currency: "EUR",
          card,
        });
        expect(result.status).toBe("approved");
        expect(outside.ledgers.finaro!.byId(result.processorReference!)).toBeDefined();
      } finally {
        await running?.close();
      }
    } finally {
      await outside.close();
    }
  });

  it("serves the 3-D Secure challenge page under the service's own origin (/sandbox/threeds)", async () => {
    process.env.LOG_LEVEL = "silent";
    process.env.PUBLIC_BASE_URL = "https://pay.example.test";
    resetConfig();
    const running = await startProcessorSandboxes();
    try {
      const ares = await fetch(`${running!.urls.threeds}/auth`, {
        method: "POST",
        headers: { "content-type": "application/json", apikey: THREEDS_SANDBOX_API_KEY },
        body: JSON.stringify({
          messageType: "AReq",
          messageVersion: "2.2.0",
          threeDSServerTransID: randomUUID(),
          deviceChannel: "02",
          messageCategory: "01",
          acctNumber: "4000000000003220",
          cardExpiryDate: "3012",
          purchaseAmount: "1000",
          purchaseCurrency: "978",
          purchaseExponent: "2",
          notificationURL: "https://pay.example.test/dynamic/s1/payments/p1/challenge-notify",
        }),
      }).then((response) => response.json());
      expect(ares).toMatchObject({ transStatus: "C", acsURL: "https://pay.example.test/sandbox/threeds/acs/challenge" });
      const creq = encodeBase64Url(challengeRequest(ares));
      const page = await serveMountedThreeDsSandbox(new Request(ares.acsURL, { method: "POST", body: new URLSearchParams({ creq }) }));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('action="challenge/submit"');
    } finally {
      await running?.close();
    }
    const none = await serveMountedThreeDsSandbox(
      new Request("https://pay.example.test/sandbox/threeds/acs/challenge", { method: "POST", body: "" }),
    );
    expect(none.status).toBe(404);
  });

  it("runs the sandboxes for test mode in production too, never for live accounts; PROCESSOR_SANDBOXES=0 turns them off", async () => {
    Object.assign(process.env, {
      NODE_ENV: "production",
      CPS_LOCAL: "",
      LOG_LEVEL: "silent",
      SESSION_SECRET: "s".repeat(40),
      API_KEY_SECRET: "a".repeat(40),
      CARD_DATA_KEY: Buffer.alloc(32, 7).toString("base64"),
    });
    resetConfig();
    const running = await startProcessorSandboxes();
    try {
      expect(Object.keys(running!.urls).sort()).toEqual(["bambora", "bambora-worldline", "clearhaus", "finaro", "threeds"]);
      expect(getConnector("bambora")).toMatchObject({ name: "bambora", mode: "test" });
      // A live account with no production endpoint configured: not configured, the sandbox is no fallback.
      expect(() => bindConnector({ id: "live-account", mode: "live", ...sandboxCredentials("bambora") })).toThrow(/BAMBORA_BASE_URL\) is not configured/);
    } finally {
      await running?.close();
    }
    process.env.PROCESSOR_SANDBOXES = "0";
    resetConfig();
    expect(await startProcessorSandboxes()).toBeUndefined();
    expect(sandboxUrl("finaro")).toBeUndefined();
    expect(() => getConnector("bambora")).toThrow(/not configured/);
  });

  it("needs no process-wide credentials for a configured base URL: each account carries its own", async () => {
    process.env.CLEARHAUS_TEST_BASE_URL = "https://gateway.test.clearhaus.com";
    process.env.LOG_LEVEL = "silent";
    resetConfig();
    const running = await startProcessorSandboxes();
    try {
      expect(Object.keys(running!.urls).sort()).toEqual(["bambora", "bambora-worldline", "finaro", "threeds"]);
      expect(getConnector("clearhaus")).toMatchObject({ name: "clearhaus", accountId: "test-account" });
    } finally {
      await running?.close();
    }
  });
});
