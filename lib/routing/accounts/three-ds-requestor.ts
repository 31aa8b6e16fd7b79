// The 3-D Secure requestor data of a payment: the merchant as the schemes know it at the acquirer
// account that will authorize (the first the routing would try), for the AReq's acquirerBIN,
// acquirerMerchantID, mcc, merchantName and merchantCountryCode (EMV 3DS 2.2; 3dsecure.io marks them
// required by Visa). Read from the account, never from the environment.
import type { CardScheme } from "../../cards/card-scheme";
import { db } from "../../db";
import { resolveRouting } from "../routing";
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

export async function threeDsRequestorFor({
  paymentId,
  scheme,
}: {
  paymentId: string;
  scheme: CardScheme | undefined;
}): Promise<ThreeDsRequestor | undefined> {
  const payment = await db().payment.findUnique({
    where: { id: paymentId },
    select: { merchantId: true, mode: true, currency: true, session: { select: { processors: true, rule: true } } },
  });
  if (!payment) return undefined;
  const plan = await resolveRouting({
    merchantId: payment.merchantId,
    mode: payment.mode,
    currency: payment.currency,
    requested: payment.session?.processors,
    rule: payment.session?.rule,
  });
  const first = plan.kind === "route" ? plan.accounts[0] : undefined;
  if (!first) return undefined;
  const account = await db().acquirerAccount.findUniqueOrThrow({
    where: { id: first.accountId },
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
