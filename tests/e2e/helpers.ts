// Shared helpers for the browser tests: the demo merchant that scripts/start.ts seeded.
import { readFileSync } from "node:fs";
import path from "node:path";
import { E2E } from "../../playwright.config";

export interface DemoCredentials {
  merchantId: string;
  merchantName: string;
  apiKey: string;
  email: string;
  password: string;
}

export function demoCredentials(): DemoCredentials {
  return JSON.parse(readFileSync(path.resolve(E2E.dataDir, "demo.json"), "utf8")) as DemoCredentials;
}

export { E2E };
