// Back office, Settings → Acquirer accounts: an owner adds an account to the merchant. It asks for the
// password again (and the code with TOTP on), after the fields validate, so a typo costs no sign-in
// attempt: a session cookie alone must not be able to point a merchant's money at another account.
// The account and its audit row (the non-secret fields, the credentials' fingerprint) commit together.
import { db } from "../../db";
import { assertCan, type Actor } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { auditFields, type AcquirerAccountView } from "../../routing/accounts/account-view";
import { createAcquirerAccount } from "../../routing/accounts/create-acquirer-account";
import { recordAudit } from "../../audit/audit";
import { accountInputFromForm, validateOnly, withFormErrors } from "./acquirer-account-form";

export async function addAcquirerAccount({ actor, form }: { actor: Actor; form: Record<string, string> }): Promise<AcquirerAccountView> {
  assertCan(actor, "acquirer_accounts:write");
  const input = accountInputFromForm(form, { partial: false });
  return withFormErrors(async () => {
    // The fields are checked before the password is: a typo costs no sign-in attempt.
    await validateOnly((tx) => createAcquirerAccount({ merchantId: actor.merchantId, input, tx }));
    await confirmIdentity({ userId: actor.userId, input: form });
    return db().$transaction(async (tx) => {
      const account = await createAcquirerAccount({ merchantId: actor.merchantId, input, tx });
      await recordAudit(tx, { actor, action: "acquirer_account.created", target: account.id, details: { after: auditFields(account) } });
      return account;
    });
  });
}
