// The account-updater side of a sandbox: card updates that tests (or an operator) report through the
// sandbox's admin path and that the acquirer's card-update feed then lists.
import { randomUUID } from "node:crypto";
import { z } from "zod";

export const sandboxCardUpdateInput = z.object({
  par: z.string().regex(/^[A-Z0-9]{29}$/),
  kind: z.enum(["expiry", "pan", "closed"]),
  newExpMonth: z.number().int().min(1).max(12).optional(),
  newExpYear: z.number().int().min(2000).max(2099).optional(),
  newPan: z
    .string()
    .regex(/^\d{12,19}$/)
    .optional(),
  /** The merchant account whose feed lists it (Finaro MID, Clearhaus merchant_id, Bambora merchant number); absent: every account's. */
  account: z.string().min(1).optional(),
});
export type SandboxCardUpdateInput = z.infer<typeof sandboxCardUpdateInput>;

export interface SandboxCardUpdate extends SandboxCardUpdateInput {
  id: string;
  updatedAt: Date;
}

export class SandboxCardUpdates {
  readonly #updates: SandboxCardUpdate[] = [];

  add(input: SandboxCardUpdateInput): SandboxCardUpdate {
    const update = { ...input, id: randomUUID(), updatedAt: new Date() };
    this.#updates.push(update);
    return update;
  }

  /** `account`'s feed: its own updates and those reported for every account. */
  since(since: Date, account: string): SandboxCardUpdate[] {
    return this.#updates.filter(
      (update) => update.updatedAt.getTime() > since.getTime() && (!update.account || update.account === account),
    );
  }
}
