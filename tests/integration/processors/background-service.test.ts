// The service starts sandboxes only for processors whose base URL is not configured.
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { getConnector, sandboxUrl } from "@/lib/processors/registry";
import { startProcessorSandboxes } from "@/lib/processors/sandbox/background-service";
import { startSandboxes } from "@/lib/processors/sandbox/start-sandboxes";
import { FINARO_SANDBOX_CREDENTIALS, FINARO_SANDBOX_PATH } from "@/lib/processors/finaro/sandbox";
import { threeDsSandboxUrl } from "@/lib/threeds/ds-client";
import { CardDetails } from "@/lib/cards/card-details";
import { newId } from "@/lib/ids";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetConfig();
});

const card = new CardDetails({ pan: "4111111111111111", expMonth: 12, expYear: new Date().getUTCFullYear() + 1, securityCode: "123" });

describe("processor sandboxes as a background service", () => {
  it("starts every sandbox when nothing is configured, and the connectors use them", async () => {
    process.env.LOG_LEVEL = "silent";
    resetConfig();
    const running = await startProcessorSandboxes();
    try {
      expect(Object.keys(running!.urls).sort()).toEqual(["bambora", "clearhaus", "finaro", "threeds"]);
      expect(threeDsSandboxUrl()).toBe(running!.urls.threeds);
      for (const name of ["finaro", "clearhaus", "bambora"] as const) {
        expect(sandboxUrl(name)).toBe(running!.urls[name]);
        const result = await getConnector(name).authorize({ operationId: newId(), paymentId: newId(), amount: 100n, currency: "EUR", card });
        expect(result.status, name).toBe("approved");
      }
    } finally {
      await running?.close();
    }
    expect(sandboxUrl("finaro")).toBeUndefined();
    expect(() => getConnector("finaro")).toThrow(/not configured/);
  });

  it("leaves a configured processor alone and connects it to its configured URL", async () => {
    const outside = await startSandboxes({ processors: ["finaro"], threeDs: false, register: false });
    try {
      process.env.LOG_LEVEL = "silent";
      process.env.FINARO_BASE_URL = `${outside.urls.finaro}${FINARO_SANDBOX_PATH}`;
      process.env.FINARO_MERCHANT_ID = FINARO_SANDBOX_CREDENTIALS.merchantId;
      process.env.FINARO_SIGNATURE_KEY = FINARO_SANDBOX_CREDENTIALS.signatureKey;
      resetConfig();
      const running = await startProcessorSandboxes();
      try {
        expect(Object.keys(running!.urls).sort()).toEqual(["bambora", "clearhaus", "threeds"]);
        const result = await getConnector("finaro").authorize({ operationId: newId(), paymentId: newId(), amount: 100n, currency: "EUR", card });
        expect(result.status).toBe("approved");
        expect(outside.ledgers.finaro!.get(result.processorReference!)).toBeDefined();
      } finally {
        await running?.close();
      }
    } finally {
      await outside.close();
    }
  });

  it("refuses a configured base URL without its credentials", () => {
    process.env.CLEARHAUS_BASE_URL = "https://gateway.test.clearhaus.com";
    resetConfig();
    expect(() => getConnector("clearhaus")).toThrow(/CLEARHAUS_API_KEY is required/);
  });
});
