// What Settings → Acquirer accounts' two changing actions share (add-acquirer-account.ts,
// change-acquirer-account.ts): the flat form fields as account input, their errors under the same
// names, and the validation run that checks a change in full before the step-up is asked for.
import { z } from "zod";
import { db, type Tx } from "../../db";
import { NotFoundError } from "../../auth/actor";
import { CARD_SCHEMES } from "../../cards/card-scheme";
import { AcquirerAccountNotFoundError } from "../../routing/accounts/account-rules";

/** The form's flat fields as the account use cases take them; `credential.<key>` fields become `credentials` when any is filled. */
export function accountInputFromForm(form: Record<string, string>, { partial }: { partial: boolean }): Record<string, unknown> {
  const text = (name: string) => (form[name] ?? "").trim();
  const given = (name: string) => (partial && text(name) === "" ? undefined : text(name));
  const bins = Object.fromEntries(CARD_SCHEMES.flatMap((scheme) => (text(`bin.${scheme}`) ? [[scheme, text(`bin.${scheme}`)]] : [])));
  const credentialEntries = Object.entries(form)
    .filter(([key, value]) => key.startsWith("credential.") && value.trim() !== "")
    .map(([key, value]) => [key.slice("credential.".length), value.trim()]);
  // The form's acquirer choice names the platform after the processor ("bambora:worldline", decision 0193).
  const [processor, platform] = (given("processor") ?? "").split(":");
  const input: Record<string, unknown> = {
    processor: processor || (partial ? undefined : ""),
    platform: platform || undefined,
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

export async function withFormErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof z.ZodError) throw formErrors(error);
    if (error instanceof AcquirerAccountNotFoundError) throw new NotFoundError("Acquirer account");
    throw error;
  }
}

/** Runs `work` in a transaction that is always rolled back: every check of a change, nothing saved. */
export async function validateOnly(work: (tx: Tx) => Promise<unknown>): Promise<void> {
  await db()
    .$transaction(async (tx) => {
      await work(tx);
      throw new DryRun();
    })
    .catch((error: unknown) => {
      if (!(error instanceof DryRun)) throw error;
    });
}

/** Rolls back the validation run of a change (checked in full, saved only after the step-up). */
class DryRun extends Error {}
