// What `npm start` does about the demo merchant, in one call from the launcher: in local mode it
// seeds the merchant (first run) and returns the banner lines that say where its credentials are;
// in production it seeds nothing and returns nothing. The owner password and the API key are never
// printed: they stay in DATA_DIR/demo.json (mode 0600), which the banner names.
import { config } from "../env";
import { alternateOrigin } from "./demo-shop";
import { demoCredentialsFile, demoReceiverUrl, seedDemo } from "./seed-demo";

/** The demo shop must run on another origin than the fields: the other loopback name of the same server. */
function demoShopUrl(publicBaseUrl: string): string {
  const origin = alternateOrigin(new URL(publicBaseUrl).origin) ?? new URL(publicBaseUrl).origin;
  return `${origin}/demo-shop`;
}

/** Seeds the demo merchant in local mode; returns the banner lines about it (none in production). */
export async function prepareDemo({ log }: { log: (line: string) => void }): Promise<string[]> {
  const settings = config();
  if (settings.isProduction) return [];
  const { demo, created } = await seedDemo();
  if (created) log("demo merchant created");
  return [
    `  Demo sign-in  ${demo.email}   (at ${settings.backofficeBaseUrl}/backoffice)`,
    `  Demo shop     ${demoShopUrl(settings.publicBaseUrl)}   (another origin than the card fields; pay with 4111 1111 1111 1111)`,
    `  Merchant id   ${demo.merchantId}   (${demo.merchantName})`,
    `  Credentials   ${demoCredentialsFile()}   (mode 0600: the owner password, the API key, the notification signing secret)`,
    `  Notifications ${demoReceiverUrl(settings.publicBaseUrl)}   (the demo merchant's receiver; deliveries in Back office > Developers)`,
  ];
}
