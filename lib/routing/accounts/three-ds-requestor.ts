// The 3-D Secure requestor data of a payment: the merchant as the schemes know it at the acquirer
// account that will authorize (the first the routing would try, or the next one when a declined
// 3-D Secure payment is routed on), for the AReq's acquirerBIN,
// acquirerMerchantID, mcc, merchantName and merchantCountryCode (EMV 3DS 2.2; 3dsecure.io marks them
// required by Visa). Read from the account, never from the environment.
import type { CardScheme } from "../../cards/card-scheme";
import { db } from "../../db";
import { resolveRouting, type RoutedAccount } from "../routing";
import { acquirerBinsSchema, numericCountryCode } from "./account-input";

export interface ThreeDsRequestor {
  acquirerAccountId: string;
  /** The account's acquirer BIN for the card's scheme, when it has one. */
  acquirerBin?: string;
  acquirerMerchantId: string;
  mcc: string;
  merchantName: string;
  /** ISO 3166-1 numeric. */
  merchantCountryCode?: string;
}

/** The acquirer accounts a cardholder payment tries, in the routing's order (its session's processors or rule). */
export async function routedAccountsOf(paymentId: string): Promise<RoutedAccount[]> {
  const payment = await db().payment.findUnique({
    where: { id: paymentId },
    select: { merchantId: true, mode: true, currency: true, session: { select: { processors: true, rule: true } } },
  });
  if (!payment) return [];
  const plan = await resolveRouting({
    merchantId: payment.merchantId,
    mode: payment.mode,
    currency: payment.currency,
    requested: payment.session?.processors,
    rule: payment.session?.rule,
  });
  return plan.kind === "route" ? plan.accounts : [];
}

/** The account the routing tries after `accountId` for this payment; undefined when it was the last (or is no longer routed). */
export async function nextRoutedAccount(paymentId: string, accountId: string): Promise<RoutedAccount | undefined> {
  const accounts = await routedAccountsOf(paymentId);
  const index = accounts.findIndex((account) => account.accountId === accountId);
  return index < 0 ? undefined : accounts[index + 1];
}

/**
 * The requestor data of `accountId` (a re-authentication for the next account, decision 0192), or
 * of the first account the routing would try. Undefined when that account is not (or no longer)
 * in the payment's routing.
 */
export async function threeDsRequestorFor({
  paymentId,
  scheme,
  accountId,
}: {
  paymentId: string;
  scheme: CardScheme | undefined;
  accountId?: string;
}): Promise<ThreeDsRequestor | undefined> {
  const accounts = await routedAccountsOf(paymentId);
  const chosen = accountId ? accounts.find((account) => account.accountId === accountId) : accounts[0];
  if (!chosen) return undefined;
  const account = await db().acquirerAccount.findUniqueOrThrow({
    where: { id: chosen.accountId },
    select: { id: true, acquirerBins: true, acquirerMerchantId: true, mcc: true, merchantName: true, country: true },
  });
  const bins = acquirerBinsSchema.safeParse(account.acquirerBins);
  return {
    acquirerAccountId: account.id,
    acquirerBin: scheme && bins.success ? bins.data[scheme] : undefined,
    acquirerMerchantId: account.acquirerMerchantId,
    mcc: account.mcc,
    merchantName: account.merchantName,
    merchantCountryCode: numericCountryCode(account.country),
  };
}
