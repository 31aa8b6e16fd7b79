// Back office, Settings → Acquirer accounts: an owner changes one of the merchant's accounts (fields,
// enabled, credentials replaced whole). It asks for the password again after the fields validate; the
// change and its audit row (before and after of the non-secret fields; a credential change shows as a
// new fingerprint) commit together.
import { z } from "zod";
import { db } from "../../db";
import { assertCan, type Actor } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { auditFields, type AcquirerAccountView } from "../../routing/accounts/account-view";
import { updateAcquirerAccount } from "../../routing/accounts/update-acquirer-account";
import { recordAudit } from "../../audit/audit";
import { accountInputFromForm, validateOnly, withFormErrors } from "./acquirer-account-form";

export async function changeAcquirerAccount({
  actor,
  form,
}: {
  actor: Actor;
  form: Record<string, string>;
}): Promise<{ after: AcquirerAccountView; credentialsChanged: boolean }> {
  assertCan(actor, "acquirer_accounts:write");
  const accountId = z.string().min(1).max(64).parse(form.accountId);
  const input = accountInputFromForm(form, { partial: true });
  delete input.processor; // an account stays at its processor
  return withFormErrors(async () => {
    await validateOnly((tx) => updateAcquirerAccount({ merchantId: actor.merchantId, accountId, input, tx }));
    await confirmIdentity({ userId: actor.userId, input: form });
    return db().$transaction(async (tx) => {
      const { before, after, credentialsChanged } = await updateAcquirerAccount({ merchantId: actor.merchantId, accountId, input, tx });
      await recordAudit(tx, {
        actor,
        action: credentialsChanged ? "acquirer_account.credentials_changed" : "acquirer_account.updated",
        target: accountId,
        details: { before: auditFields(before), after: auditFields(after) },
      });
      return { after, credentialsChanged };
    });
  });
}
