// What a processor test file authorizes against: the acquirer sandboxes and a merchant with the
// default routing rules and the sandboxes' first test account at each processor.
import { afterAll } from "vitest";
import { startSandboxes, type RunningSandboxes, type StartSandboxesOptions } from "@/lib/sandboxes/acquirers/start-sandboxes";
import { authorizePayment, type AuthorizePaymentOptions, type AuthorizePaymentResult } from "@/lib/payments/authorize-payment";
import { madeInBeforeAll } from "./made-in-before-all";
import { createPendingPayment, createProcessorTestMerchant, testCard } from "./payment-factories";

export interface ProcessorSandboxes {
  readonly sandboxes: RunningSandboxes;
  readonly merchantId: string;
  /** Opens a pending payment of the merchant (`payment`: its amount, currency…) and authorizes it with the test card `pan`. */
  authorizeCard(
    pan: string,
    options?: Omit<AuthorizePaymentOptions, "paymentId" | "source">,
    payment?: Parameters<typeof createPendingPayment>[1],
  ): Promise<{ paymentId: string; result: AuthorizePaymentResult }>;
}

/**
 * For a test file (after useTestDatabase()): starts the sandboxes and makes the merchant in
 * beforeAll hooks, closes the sandboxes in afterAll. What it returns reads the ones made then.
 */
export function useProcessorSandboxes(sandboxOptions: StartSandboxesOptions): ProcessorSandboxes {
  const sandboxes = madeInBeforeAll("the acquirer sandboxes", () => startSandboxes(sandboxOptions));
  const merchantId = madeInBeforeAll("the processor test merchant", () => createProcessorTestMerchant());
  afterAll(async () => {
    await sandboxes.ifMade()?.close();
  });
  const services: ProcessorSandboxes = {
    get sandboxes() {
      return sandboxes.get();
    },
    get merchantId() {
      return merchantId.get();
    },
    async authorizeCard(pan, options = {}, payment = {}) {
      const paymentId = await createPendingPayment(services.merchantId, payment);
      const result = await authorizePayment({ paymentId, source: { kind: "card", card: testCard(pan) }, ...options });
      return { paymentId, result };
    },
  };
  return services;
}
