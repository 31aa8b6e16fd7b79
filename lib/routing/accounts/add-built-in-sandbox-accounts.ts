// Test mode works on every deployment without any set-up
// (docs/decisions/0108-test-mode-and-live-mode.md): a merchant without a test account of its own
// at a processor whose test accounts go to the built-in sandbox gets the sandbox's test account
// there, made the first time a test payment is routed. A merchant that has any test account at
// that processor (enabled or not) gets none: its own choice stands. Never a live account: live
// mode only routes to the merchant's own live accounts.
import { db, type Tx } from "../../db";
import { builtInSandboxAccounts } from "../../acquirers/registry";
import type { AcquirerName } from "../../acquirers/names";
import { createAcquirerAccount } from "./create-acquirer-account";

/** The name the built-in account gets (unique per merchant: an account the merchant named so is left alone). */
export function builtInSandboxAccountName(processor: AcquirerName, platform?: string | null): string {
  return `${processor}${platform ? ` ${platform}` : ""} sandbox (built-in)`;
}

/** Adds the built-in sandbox test account at each of `processors` that qualifies; returns the processors given one. */
export async function addBuiltInSandboxAccounts({
  merchantId,
  processors,
  tx: outer,
}: {
  merchantId: string;
  processors: readonly AcquirerName[];
  /** The caller's transaction, when it has one (its locks must not wait for a second connection). */
  tx?: Tx;
}): Promise<AcquirerName[]> {
  const added: AcquirerName[] = [];
  for (const processor of processors) {
    // One per platform whose sandbox runs (bambora: Bambora North America in CAD, Worldline in DKK).
    const inputs = builtInSandboxAccounts(processor);
    if (inputs.length === 0) continue;
    const run = async (tx: Tx) => {
      // Under the merchant's row lock, so two first test payments at once add one account.
      await tx.$queryRaw`SELECT "id" FROM "Merchant" WHERE "id" = ${merchantId} FOR UPDATE`;
      const names = inputs.map((input) => builtInSandboxAccountName(processor, typeof input.platform === "string" ? input.platform : null));
      const existing = await tx.acquirerAccount.findFirst({
        where: { merchantId, OR: [{ processor, mode: "test" }, { name: { in: names } }] },
        select: { id: true },
      });
      if (existing) return false;
      for (const [index, input] of inputs.entries()) {
        await createAcquirerAccount({
          merchantId,
          // The sandbox's own currencies: a Bambora North America account settles one (CAD or USD),
          // and "any" is refused for it (issue 26).
          input: { currencies: "any", ...input, processor, name: names[index], mode: "test", enabled: true },
          tx,
        });
      }
      return true;
    };
    if (await (outer ? run(outer) : db().$transaction(run))) added.push(processor);
  }
  return added;
}
