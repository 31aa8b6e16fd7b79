// What a processor test file authorizes against: the acquirer sandboxes and a merchant with the
// default routing rules and the sandboxes' first test account at each processor.
import { afterAll, beforeAll } from "vitest";
import { startSandboxes, type RunningSandboxes, type StartSandboxesOptions } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { createProcessorTestMerchant } from "./payment-factories";

export interface ProcessorSandboxes {
  readonly sandboxes: RunningSandboxes;
  readonly merchantId: string;
}

/**
 * For a test file (after useTestDatabase()): starts the sandboxes and makes the merchant in
 * beforeAll, closes the sandboxes in afterAll. What it returns reads the ones made then.
 */
export function useProcessorSandboxes(sandboxOptions: StartSandboxesOptions): ProcessorSandboxes {
  let sandboxes: RunningSandboxes | undefined;
  let merchantId: string | undefined;
  beforeAll(async () => {
    sandboxes = await startSandboxes(sandboxOptions);
    merchantId = await createProcessorTestMerchant();
  });
  afterAll(async () => {
    await sandboxes?.close();
  });
  return {
    get sandboxes() {
      if (!sandboxes) throw new Error("useProcessorSandboxes: the sandboxes start in beforeAll");
      return sandboxes;
    },
    get merchantId() {
      if (merchantId === undefined) throw new Error("useProcessorSandboxes: the merchant is made in beforeAll");
      return merchantId;
    },
  };
}
