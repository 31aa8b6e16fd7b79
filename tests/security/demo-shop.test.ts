// Security issue 10, item 4: the demo merchant and the demo shop are local conveniences. Locally the
// start banner names the 0600 credentials file instead of printing the owner password and the API
// key, and the unauthenticated demo shop takes no notificationurl or paymentid from its query and
// serves only its own origin (a forged Host finds nothing). In production neither exists (the whole
// production start is tests/security/production-start.test.ts).
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { resetConfig } from "@/lib/env";
import { renderDemoShop } from "@/lib/sandboxes/demo-shop";
import { prepareDemo } from "@/lib/sandboxes/prepare-demo";
import { useTestDatabase } from "@/tests/helpers/test-database";

useTestDatabase();

const FIELDS = "http://localhost:3444";
const SHOP = "http://127.0.0.1:3444";
let dataDir: string;
const saved = { ...process.env };

function setEnv(values: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetConfig();
}

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "cps-demo-"));
  setEnv({ DATA_DIR: dataDir, PUBLIC_BASE_URL: FIELDS, NODE_ENV: "test", CPS_LOCAL: undefined });
});

afterAll(() => {
  setEnv({ DATA_DIR: saved.DATA_DIR, PUBLIC_BASE_URL: saved.PUBLIC_BASE_URL, NODE_ENV: saved.NODE_ENV, CPS_LOCAL: saved.CPS_LOCAL });
  rmSync(dataDir, { recursive: true, force: true });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Renders the demo shop with global fetch captured: returns the answer and the initdynamic bodies it sent. */
async function openShop(url: string, headers: Record<string, string> = {}): Promise<{ response: Response; sent: Record<string, unknown>[] }> {
  const sent: Record<string, unknown>[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (_input, init) => {
    sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return Response.json({ sessionid: "a".repeat(32), dfurlscriptinclude: `${FIELDS}/dynamic/${"a".repeat(32)}/dynamic.js`, amount: 100, currency: "DKK" });
  });
  const response = await renderDemoShop(new Request(url, { headers: { host: new URL(url).host, ...headers } }));
  return { response, sent };
}

describe("item 4: the demo merchant and the demo shop", () => {
  it("item 4: locally the banner names the 0600 credentials file and prints neither the password nor the API key", async () => {
    const logged: string[] = [];
    const lines = await prepareDemo({ log: (line) => logged.push(line) });
    const file = path.join(dataDir, "demo.json");
    const demo = JSON.parse(readFileSync(file, "utf8")) as { apiKey: string; password: string; email: string };
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const banner = [...lines, ...logged].join("\n");
    expect(banner).toContain(file);
    expect(banner).toContain(demo.email);
    expect(banner).not.toContain(demo.apiKey);
    expect(banner).not.toContain(demo.password);
    expect(banner).not.toMatch(/cps_[0-9A-Za-z]/);
    // A second start finds the same merchant and still prints no secret.
    const again = (await prepareDemo({ log: () => undefined })).join("\n");
    expect(again).not.toContain(demo.apiKey);
    expect(await db().merchant.count()).toBe(1);
  });

  it("item 4: the demo shop passes no notificationurl or paymentid from its query to initdynamic", async () => {
    const { response, sent } = await openShop(
      `${SHOP}/demo-shop?notificationurl=${encodeURIComponent("http://169.254.169.254/latest")}&paymentid=somebodyelses&amount=500&set3ds=SKIP_3DS`,
    );
    expect(response.status).toBe(200);
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toHaveProperty("notificationurl");
    expect(sent[0]).not.toHaveProperty("paymentid");
    expect(sent[0]).toMatchObject({ amount: 500, set3ds: "SKIP_3DS" });
  });

  it("item 4: a forged Host header finds no demo shop, and nothing is sent with the demo key", async () => {
    for (const host of ["attacker.example", "localhost:3444.attacker.example", "127.0.0.1:9999", "[::1]:3444"]) {
      const { response, sent } = await openShop(`${SHOP}/demo-shop?amount=1`, { host });
      expect(response.status, host).toBe(404);
      expect(sent, host).toHaveLength(0);
    }
  });

  it("item 4: a session the caller initialized itself is rendered by its id alone, with no call on the demo key", async () => {
    const { response, sent } = await openShop(`${SHOP}/demo-shop?sessionid=${"b".repeat(32)}&amount=990`);
    expect(response.status).toBe(200);
    expect(sent).toHaveLength(0);
    expect(await response.text()).toContain(`/dynamic/${"b".repeat(32)}/dynamic.js`);
    expect((await openShop(`${SHOP}/demo-shop?sessionid=${encodeURIComponent("../x")}`)).response.status).toBe(404);
  });

  it("item 4: in production the demo shop answers 404 and no demo merchant is seeded", async () => {
    const secrets = {
      SESSION_SECRET: "s".repeat(40),
      CARD_DATA_KEY: Buffer.alloc(32, 7).toString("base64"),
      API_KEY_SECRET: "k".repeat(40),
    };
    const previous = { NODE_ENV: process.env.NODE_ENV, SESSION_SECRET: process.env.SESSION_SECRET, CARD_DATA_KEY: process.env.CARD_DATA_KEY, API_KEY_SECRET: process.env.API_KEY_SECRET };
    setEnv({ NODE_ENV: "production", ...secrets });
    try {
      const { response, sent } = await openShop(`${SHOP}/demo-shop`);
      expect(response.status).toBe(404);
      expect(sent).toHaveLength(0);
      const merchants = await db().merchant.count();
      expect(await prepareDemo({ log: () => undefined })).toEqual([]);
      expect(await db().merchant.count()).toBe(merchants);
    } finally {
      setEnv(previous);
    }
  });
});
