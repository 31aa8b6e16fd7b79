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

/** The sandbox's admin path where tests report a card update (a sandbox with its extensions on). */
export const REPORT_CARD_UPDATE_PATH = "/sandbox/card-updates";

export class SandboxCardUpdates {
  readonly #updates: SandboxCardUpdate[] = [];

  /** Answers a POST to REPORT_CARD_UPDATE_PATH: 201 with the update as the feeds will list it, or 400. */
  async answerReport(request: Request): Promise<Response> {
    const parsed = sandboxCardUpdateInput.safeParse(await request.json());
    if (!parsed.success) return Response.json({ error: parsed.error.message }, { status: 400 });
    return Response.json(this.add(parsed.data), { status: 201 });
  }

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
