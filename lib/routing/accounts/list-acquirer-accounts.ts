// A merchant's acquirer accounts as they may be shown (never their credentials).
import { db } from "../../db";
import { AcquirerAccountNotFoundError } from "./account-rules";
import { ACCOUNT_VIEW_SELECT, toAccountView, type AcquirerAccountView } from "./account-view";

export async function listAcquirerAccounts({ merchantId }: { merchantId: string }): Promise<AcquirerAccountView[]> {
  const rows = await db().acquirerAccount.findMany({
    where: { merchantId },
    select: ACCOUNT_VIEW_SELECT,
    orderBy: [{ processor: "asc" }, { createdAt: "asc" }],
  });
  return rows.map(toAccountView);
}

export async function getAcquirerAccount({
  merchantId,
  accountId,
}: {
  merchantId: string;
  accountId: string;
}): Promise<AcquirerAccountView> {
  const row = await db().acquirerAccount.findFirst({ where: { id: accountId, merchantId }, select: ACCOUNT_VIEW_SELECT });
  if (!row) throw new AcquirerAccountNotFoundError();
  return toAccountView(row);
}
