// What a cardholder-flow test file pays against: the acquirer sandboxes, our cardholder routes on
// real HTTP (the hosted fields server) and a merchant with the sandboxes' first test accounts.
import { afterAll, beforeAll } from "vitest";
import { startSandboxes, type RunningSandboxes, type StartSandboxesOptions } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { startHostedFieldsServer, type HostedFieldsServer } from "./hosted-fields-server";
import { createTestMerchant } from "./session-factory";

export interface CardholderServices {
  readonly sandboxes: RunningSandboxes;
  readonly server: HostedFieldsServer;
  readonly merchantId: string;
}

/**
 * For a test file (after useTestDatabase()): starts the services in beforeAll, in that order, and
 * closes what was started in afterAll. What it returns reads the ones started then.
 */
export function useCardholderServices(sandboxOptions: StartSandboxesOptions): CardholderServices {
  let sandboxes: RunningSandboxes | undefined;
  let server: HostedFieldsServer | undefined;
  let merchantId: string | undefined;
  beforeAll(async () => {
    sandboxes = await startSandboxes(sandboxOptions);
    server = await startHostedFieldsServer();
    merchantId = (await createTestMerchant()).id;
  });
  afterAll(async () => {
    await server?.close();
    await sandboxes?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useCardholderServices: the services start in beforeAll");
    return value;
  };
  return {
    get sandboxes() {
      return started(sandboxes);
    },
    get server() {
      return started(server);
    },
    get merchantId() {
      return started(merchantId);
    },
  };
}
