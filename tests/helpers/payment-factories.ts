// Rows for processor tests: a merchant (with the default routing rules) and a pending payment.
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { CardDetails } from "@/lib/cards/card-details";
import { addSandboxAccounts } from "@/tests/helpers/acquirer-accounts";

/** A merchant with the default routing rules and the sandboxes' first test account at each processor (or account `index`). */
export async function createProcessorTestMerchant({ accountIndex = 0 }: { accountIndex?: number } = {}): Promise<string> {
  const { merchant } = await createMerchant({ name: "Processor Test Shop" });
  await addSandboxAccounts(merchant.id, { index: accountIndex });
  return merchant.id;
}

export async function createPendingPayment(
  merchantId: string,
  options: { amount?: bigint; currency?: string; paymentType?: string; parentPaymentId?: string; storedCardId?: string; mode?: "test" | "live" } = {},
): Promise<string> {
  const id = newId();
  await db().payment.create({
    data: {
      id,
      merchantId,
      mode: options.mode ?? "test",
      amount: options.amount ?? 10_000n,
      currency: options.currency ?? "DKK",
      paymentType: options.paymentType ?? "cit",
      parentPaymentId: options.parentPaymentId ?? null,
      storedCardId: options.storedCardId ?? null,
      status: "PENDING",
    },
  });
  return id;
}

const expYear = new Date().getUTCFullYear() + 2;

export function testCard(pan: string): CardDetails {
  return new CardDetails({ pan, expMonth: 11, expYear, securityCode: pan.startsWith("3") ? "1234" : "123" });
}

export async function authorizeOperations(paymentId: string) {
  return db().operation.findMany({ where: { paymentId, type: "authorize" }, orderBy: { routingAttempt: "asc" } });
}
