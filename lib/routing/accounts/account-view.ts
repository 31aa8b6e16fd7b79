// What may be shown of an acquirer account (back office, CLI, audit rows): everything but its
// credentials, which are write-only; their fingerprint and when they were set stand in for them.
import { Prisma } from "../../generated/prisma/client";
import type { AcquirerName } from "../../acquirers/names";
import { acquirerBinsSchema, type AcquirerBins } from "./account-input";

export const ACCOUNT_VIEW_SELECT = {
  id: true,
  merchantId: true,
  processor: true,
  platform: true,
  name: true,
  acquirerMerchantId: true,
  acquirerBins: true,
  mcc: true,
  merchantName: true,
  country: true,
  descriptor: true,
  currencies: true,
  anyCurrency: true,
  enabled: true,
  mode: true,
  credentialsFingerprint: true,
  credentialsSetAt: true,
  credentialsNeeded: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.AcquirerAccountSelect;

type AccountRow = Prisma.AcquirerAccountGetPayload<{ select: typeof ACCOUNT_VIEW_SELECT }>;

export interface AcquirerAccountView extends Omit<AccountRow, "acquirerBins" | "processor"> {
  processor: AcquirerName;
  acquirerBins: AcquirerBins;
}

export function toAccountView(row: AccountRow): AcquirerAccountView {
  const bins = acquirerBinsSchema.safeParse(row.acquirerBins);
  return { ...row, acquirerBins: bins.success ? bins.data : {} };
}

/** The non-secret fields an audit row records before and after a change (the fingerprint shows a credential change). */
export function auditFields(view: AcquirerAccountView): Prisma.InputJsonObject {
  return {
    processor: view.processor,
    name: view.name,
    acquirerMerchantId: view.acquirerMerchantId,
    acquirerBins: view.acquirerBins,
    mcc: view.mcc,
    merchantName: view.merchantName,
    country: view.country,
    descriptor: view.descriptor,
    currencies: view.anyCurrency ? "any" : view.currencies,
    enabled: view.enabled,
    mode: view.mode,
    credentialsFingerprint: view.credentialsFingerprint,
  };
}
