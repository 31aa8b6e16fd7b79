// What a cardholder-flow test file pays against: the acquirer sandboxes, our cardholder routes on
// real HTTP (the hosted fields server) and a merchant with the sandboxes' first test accounts.
import { afterAll } from "vitest";
import { startSandboxes, type RunningSandboxes, type StartSandboxesOptions } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { startHostedFieldsServer, type HostedFieldsServer } from "./hosted-fields-server";
import { madeInBeforeAll } from "./made-in-before-all";
import { createTestMerchant } from "./session-factory";

export interface CardholderServices {
  readonly sandboxes: RunningSandboxes;
  readonly server: HostedFieldsServer;
  readonly merchantId: string;
}

/**
 * For a test file (after useTestDatabase()): starts the services in beforeAll hooks, in that order,
 * and closes what was started in afterAll. What it returns reads the ones started then.
 */
export function useCardholderServices(sandboxOptions: StartSandboxesOptions): CardholderServices {
  const sandboxes = madeInBeforeAll("the acquirer sandboxes", () => startSandboxes(sandboxOptions));
  const server = madeInBeforeAll("the hosted fields server", startHostedFieldsServer);
  const merchantId = madeInBeforeAll("the merchant", async () => (await createTestMerchant()).id);
  afterAll(async () => {
    await server.ifMade()?.close();
    await sandboxes.ifMade()?.close();
  });
  return {
    get sandboxes() {
      return sandboxes.get();
    },
    get server() {
      return server.get();
    },
    get merchantId() {
      return merchantId.get();
    },
  };
}
