// Shared helpers for the browser tests: the demo merchant that scripts/start.ts seeded.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import pg from "pg";
import { E2E } from "../../../playwright.config";

export interface DemoCredentials {
  merchantId: string;
  merchantName: string;
  apiKey: string;
  email: string;
  password: string;
  /** The `whsec_` secret the demo merchant's notifications are signed with. */
  notificationSecret?: string;
}

export function demoCredentials(): DemoCredentials {
  return JSON.parse(readFileSync(path.resolve(E2E.dataDir, "demo.json"), "utf8")) as DemoCredentials;
}

/** The demo merchant's API key as a Basic Authorization value (key as user name, no password). */
export function demoAuthorization(): string {
  return `Basic ${Buffer.from(`${demoCredentials().apiKey}:`).toString("base64")}`;
}

/** POSTs to the merchant API as the demo merchant, through the test's request context. */
export function demoMerchantApi(request: APIRequestContext) {
  const headers = { Authorization: demoAuthorization() };
  return (path: string, data: Record<string, unknown>) => request.post(path, { headers, data });
}

/**
 * A connection to the service's embedded database, for tests that arrange rows the UI has no form
 * for: its port is announced in the data folder, its password is in the 0600 secrets file.
 */
export async function withServiceDatabase<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const { port } = JSON.parse(readFileSync(path.resolve(E2E.dataDir, "pglite.json"), "utf8")) as { port: number };
  const { embeddedDbPassword } = JSON.parse(readFileSync(path.resolve(E2E.dataDir, "secrets.json"), "utf8")) as { embeddedDbPassword: string };
  const client = new pg.Client({ connectionString: `postgresql://postgres:${encodeURIComponent(embeddedDbPassword)}@127.0.0.1:${port}/postgres?sslmode=disable` });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

export { E2E };
