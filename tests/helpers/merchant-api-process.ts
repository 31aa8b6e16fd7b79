// Run as a separate process (npx tsx tests/helpers/merchant-api-process.ts) with DATABASE_URL set:
// serves the merchant API's route handlers on 127.0.0.1 (./merchant-api-harness.ts) as one more
// service process would, and prints one JSON line {baseUrl, caching} once its settings cache
// (lib/db/settings-cache.ts) listens, or knows it will not. Stops on SIGTERM.
import { settingsCacheListening } from "../../lib/db/settings-cache";
import { startMerchantApi } from "./merchant-api-harness";

async function main(): Promise<void> {
  const api = await startMerchantApi();
  const caching = await settingsCacheListening(60_000);
  console.log(JSON.stringify({ baseUrl: api.baseUrl, caching }));
  process.once("SIGTERM", () => void api.close().finally(() => process.exit(0)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
