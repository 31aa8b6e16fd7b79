// Database rows for merchant-API tests: merchants with an API key and notification addresses, and
// payments in a chosen state with an encrypted stored card and their operations.
import { encryptPan, panFingerprint } from "@/lib/cards/card-encryption";
import { db } from "@/lib/db";
import type { PaymentStatus, Processor } from "@/lib/generated/prisma/enums";
import { newId } from "@/lib/ids";
import { createMerchant } from "@/lib/merchants/create-merchant";
import { addSandboxAccounts } from "@/tests/helpers/acquirer-accounts";
import { activeSigningSecrets } from "@/lib/notifications/signing-secrets";
import type { Mode } from "@/lib/mode";

const TEST_PAYOUT_CURRENCIES = ["DKK", "EUR", "SEK", "NOK", "USD", "GBP", "JPY", "CHF", "PLN"];

export interface TestMerchant {
  merchantId: string;
  /** A test-mode key (cps_test_…): what most tests use, with the sandboxes' test accounts. */
  apiKey: string;
  /** A live-mode key of the same merchant (cps_live_…). */
  liveApiKey: string;
  /** The test-mode signing secret (what signs the notifications of `apiKey`'s payments). */
  notificationSecret: string;
  /** The live-mode signing secret (each mode signs with its own). */
  liveNotificationSecret: string;
}

export async function createTestMerchant(
  options: {
    name?: string;
    defaultNotificationUrl?: string | null;
    lifecycleNotificationUrl?: string | null;
    completionNotificationUrl?: string | null;
    /** The sandboxes' test account `index` at each processor (default 0); false: no acquirer account. */
    acquirerAccounts?: number | false;
  } = {},
): Promise<TestMerchant> {
  const { merchant, apiKeys } = await createMerchant({ name: options.name ?? "Test Shop", apiKeyModes: ["test", "live"] });
  if (options.acquirerAccounts !== false) await addSandboxAccounts(merchant.id, { index: options.acquirerAccounts ?? 0 });
  // The same addresses in both modes (a test about modes sets each mode's own).
  const addresses = {
    defaultNotificationUrl: options.defaultNotificationUrl ?? null,
    lifecycleNotificationUrl: options.lifecycleNotificationUrl ?? null,
    completionNotificationUrl: options.completionNotificationUrl ?? null,
  };
  await db().merchant.update({
    where: { id: merchant.id },
    data: {
      ...addresses,
      testDefaultNotificationUrl: addresses.defaultNotificationUrl,
      testLifecycleNotificationUrl: addresses.lifecycleNotificationUrl,
      testCompletionNotificationUrl: addresses.completionNotificationUrl,
    },
  });
  // Payouts are refused without a limit for the currency (review 3, M7): test merchants may pay out freely.
  await db().payoutLimit.createMany({
    data: TEST_PAYOUT_CURRENCIES.map((currency) => ({ merchantId: merchant.id, currency, perPayout: 10n ** 12n, perDay: 10n ** 12n })),
  });
  return {
    merchantId: merchant.id,
    apiKey: apiKeys.test!,
    liveApiKey: apiKeys.live!,
    notificationSecret: merchant.testNotificationSecret,
    liveNotificationSecret: merchant.notificationSecret,
  };
}

/** The merchant's current notification signing secret of a mode in clear (stored sealed, lib/notifications/signing-secrets.ts). */
export async function signingSecretOf(merchantId: string, mode: Mode = "test"): Promise<string> {
  const [current] = await activeSigningSecrets({ merchantId, mode });
  if (!current) throw new Error(`merchant ${merchantId} has no signing secret`);
  return current.secret;
}

export interface TestCard {
  pan?: string;
  expMonth?: number;
  expYear?: number;
  scheme?: string;
  issuer?: string;
  funding?: string;
  segment?: string;
  par?: string;
}

export async function createStoredCard(merchantId: string, card: TestCard = {}, mode: Mode = "test"): Promise<string> {
  const pan = card.pan ?? "4111111111111111";
  const id = newId();
  await db().storedCard.create({
    data: {
      id,
      merchantId,
      mode,
      ...encryptPan(pan),
      panFingerprint: panFingerprint(pan),
      bin: pan.slice(0, 6),
      last4: pan.slice(-4),
      expMonth: card.expMonth ?? 3,
      expYear: card.expYear ?? 2030,
      scheme: card.scheme ?? "visa",
      funding: card.funding ?? "credit",
      segment: card.segment ?? "consumer",
      issuer: card.issuer ?? "Test Bank",
      par: card.par ?? "V0010013018036776485736361234",
    },
  });
  return id;
}

export interface TestPaymentOptions {
  merchantId: string;
  /** Default test, as the factory's default key. */
  mode?: Mode;
  merchantPaymentId?: string | null;
  status?: PaymentStatus;
  amount?: bigint;
  /** Amount of the approved authorization (defaults to `amount` for authorized states, else 0). */
  authorizedAmount?: bigint;
  /** Approved captures to record (each an operation). */
  captures?: bigint[];
  refunds?: bigint[];
  currency?: string;
  processor?: Processor | null;
  withStoredCard?: boolean | TestCard;
  reference?: string;
  customer?: { email?: string; firstname?: string; surename?: string; ipaddress?: string };
}

/**
 * A payment of 100.00 captured in full at `processor`, with a stored card (Visa 4111...) that a
 * merchant-initiated payment or a payout can use: the usual parent of MIT and payout tests.
 */
export function createCapturedCardPayment(merchantId: string, processor: Processor) {
  return createTestPayment({ merchantId, status: "CAPTURED", captures: [10_000n], processor, withStoredCard: { pan: "4111111111111111" } });
}

/** A payment in the given state with its authorize (and capture/refund) operations. */
export async function createTestPayment(options: TestPaymentOptions): Promise<{ paymentId: string; storedCardId: string | null }> {
  const amount = options.amount ?? 10_000n;
  const currency = options.currency ?? "DKK";
  const status = options.status ?? "AUTHORIZED";
  const authorized = ["AUTHORIZED", "CAPTURED", "REFUNDED", "VOIDED"].includes(status);
  const authorizedAmount = options.authorizedAmount ?? (authorized ? amount : 0n);
  const processor = options.processor === undefined ? "clearhaus" : options.processor;
  const storedCardId =
    options.withStoredCard === false
      ? null
      : await createStoredCard(options.merchantId, typeof options.withStoredCard === "object" ? options.withStoredCard : {}, options.mode ?? "test");
  const captures = options.captures ?? [];
  const refunds = options.refunds ?? [];
  const captured = captures.reduce((sum, value) => sum + value, 0n);
  const refunded = refunds.reduce((sum, value) => sum + value, 0n);
  const paymentId = newId();
  // The merchant's account at that processor, as an authorization would have recorded it.
  const acquirerAccountId = processor
    ? ((await db().acquirerAccount.findFirst({ where: { merchantId: options.merchantId, processor, mode: options.mode ?? "test" }, select: { id: true } }))?.id ?? null)
    : null;
  await db().payment.create({
    data: {
      id: paymentId,
      merchantId: options.merchantId,
      mode: options.mode ?? "test",
      merchantPaymentId: options.merchantPaymentId ?? null,
      storedCardId,
      status,
      amount,
      currency,
      authorizedAmount,
      capturedAmount: captured,
      refundedAmount: refunded,
      balance: captured - refunded,
      reference: options.reference ?? "order-1",
      processor,
      acquirerAccountId,
      sca: "Y",
      eci: "05",
      customerEmail: options.customer?.email ?? null,
      customerFirstName: options.customer?.firstname ?? null,
      customerSurname: options.customer?.surename ?? null,
      customerIpAddress: options.customer?.ipaddress ?? null,
    },
  });
  const base = Date.now() - 60_000;
  let offset = 0;
  const operation = (type: "authorize" | "capture" | "refund", value: bigint) => ({
    id: newId(),
    paymentId,
    type,
    paymentType: type === "authorize" ? "cit" : null,
    amount: value,
    currency,
    status: "approved" as const,
    processor,
    acquirerAccountId,
    responseCode: "00",
    authorizationCode: "123456",
    processorReference: `ref-${newId().slice(0, 8)}`,
    createdAt: new Date(base + 1000 * offset++),
    completedAt: new Date(),
  });
  const operations = [
    ...(authorized ? [operation("authorize", authorizedAmount)] : []),
    ...captures.map((value) => operation("capture", value)),
    ...refunds.map((value) => operation("refund", value)),
  ];
  if (operations.length) await db().operation.createMany({ data: operations });
  return { paymentId, storedCardId };
}
