// Back office, Settings → Acquirer accounts: an owner adds or changes one of the merchant's acquirer
// accounts. Every change asks for the password again (and the code with TOTP on): a session cookie
// alone must not be able to point a merchant's money at another account. The change and its audit
// row (before/after of the non-secret fields; a credential change shows as a new fingerprint)
// commit together. Form fields are flat; their errors come back under the same names.
import { z } from "zod";
import { db } from "../../db";
import { assertCan, NotFoundError, type Actor } from "../../auth/actor";
import { confirmIdentity } from "../../auth/confirm-identity";
import { CARD_SCHEMES } from "../../cards/card-scheme";
import { AcquirerAccountNotFoundError } from "../../processors/accounts/account-rules";
import { auditFields, type AcquirerAccountView } from "../../processors/accounts/account-view";
import { createAcquirerAccount } from "../../processors/accounts/create-acquirer-account";
import { updateAcquirerAccount } from "../../processors/accounts/update-acquirer-account";
import { recordAudit } from "../audit";

/** The form's flat fields as the account use cases take them; `credential.<key>` fields become `credentials` when any is filled. */
export function accountInputFromForm(form: Record<string, string>, { partial }: { partial: boolean }): Record<string, unknown> {
  const text = (name: string) => (form[name] ?? "").trim();
  const given = (name: string) => (partial && text(name) === "" ? undefined : text(name));
  const bins = Object.fromEntries(CARD_SCHEMES.flatMap((scheme) => (text(`bin.${scheme}`) ? [[scheme, text(`bin.${scheme}`)]] : [])));
  const credentialEntries = Object.entries(form)
    .filter(([key, value]) => key.startsWith("credential.") && value.trim() !== "")
    .map(([key, value]) => [key.slice("credential.".length), value.trim()]);
  const input: Record<string, unknown> = {
    processor: given("processor"),
    name: given("name"),
    acquirerMerchantId: given("acquirerMerchantId"),
    acquirerBins: partial && !CARD_SCHEMES.some((scheme) => `bin.${scheme}` in form) ? undefined : bins,
    mcc: given("mcc"),
    merchantName: given("merchantName"),
    country: given("country"),
    descriptor: given("descriptor"),
    currencies: given("currencies"),
    mode: given("mode"),
    enabled: "enabled" in form ? form.enabled === "on" || form.enabled === "true" : partial ? undefined : false,
    credentials: credentialEntries.length > 0 ? Object.fromEntries(credentialEntries) : undefined,
  };
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

/** Errors under the form's field names (acquirerBins.visa → bin.visa). */
function formErrors(error: z.ZodError): z.ZodError {
  return new z.ZodError(
    error.issues.map((issue) => {
      const [first, second] = issue.path;
      const field = first === "acquirerBins" && typeof second === "string" ? `bin.${second}` : String(first ?? "form");
      return { ...issue, path: [field] };
    }) as z.core.$ZodIssue[],
  );
}

async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof z.ZodError) throw formErrors(error);
    if (error instanceof AcquirerAccountNotFoundError) throw new NotFoundError("Acquirer account");
    throw error;
  }
}

export async function addAcquirerAccount({ actor, form }: { actor: Actor; form: Record<string, string> }): Promise<AcquirerAccountView> {
  assertCan(actor, "acquirer_accounts:write");
  const input = accountInputFromForm(form, { partial: false });
  return run(async () => {
    // The fields are checked before the password is: a typo costs no sign-in attempt.
    await db()
      .$transaction(async (tx) => {
        await createAcquirerAccount({ merchantId: actor.merchantId, input, tx });
        throw new DryRun();
      })
      .catch((error: unknown) => {
        if (!(error instanceof DryRun)) throw error;
      });
    await confirmIdentity({ userId: actor.userId, input: form });
    return db().$transaction(async (tx) => {
      const account = await createAcquirerAccount({ merchantId: actor.merchantId, input, tx });
      await recordAudit(tx, { actor, action: "acquirer_account.created", target: account.id, details: { after: auditFields(account) } });
      return account;
    });
  });
}

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
  return run(async () => {
    await db()
      .$transaction(async (tx) => {
        await updateAcquirerAccount({ merchantId: actor.merchantId, accountId, input, tx });
        throw new DryRun();
      })
      .catch((error: unknown) => {
        if (!(error instanceof DryRun)) throw error;
      });
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

/** Rolls back the validation run of a change (checked in full, saved only after the step-up). */
class DryRun extends Error {}
