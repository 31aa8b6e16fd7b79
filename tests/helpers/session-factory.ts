// Test data for the cardholder flow: a merchant and a payment session written straight to the
// database (the way POST /api/initdynamic leaves them), so these tests do not depend on the API.
import { db } from "@/lib/db";
import { newId } from "@/lib/ids";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { addSandboxAccounts } from "@/tests/helpers/acquirer-accounts";
import type { Prisma } from "@/lib/generated/prisma/client";

/** A merchant with the sandboxes' first test account at each processor. */
export async function createTestMerchant(name = "Hosted Fields Test Shop") {
  const { merchant } = await createMerchant({ name });
  await addSandboxAccounts(merchant.id);
  return merchant;
}

export type SessionOverrides = Partial<Omit<Prisma.PaymentSessionUncheckedCreateInput, "merchantId">>;

export async function createTestSession(merchantId: string, overrides: SessionOverrides = {}) {
  const timeoutSeconds = overrides.timeoutSeconds ?? 900;
  return db().paymentSession.create({
    data: {
      id: newId(),
      merchantId,
      mode: "test",
      amount: 12500n,
      currency: "DKK",
      reference: "order-1",
      idPan: "pan",
      idExpMonth: "expmonth",
      idExpYear: "expyear",
      idSecurityCode: "securitycode",
      set3ds: "SKIP_3DS",
      timeoutSeconds,
      expiresAt: new Date(Date.now() + timeoutSeconds * 1000),
      ...overrides,
    },
  });
}
