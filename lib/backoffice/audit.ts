// Audit rows for back-office changes; written in the same transaction as the change they record.
import type { Tx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { Actor } from "../auth/actor";

export async function recordAudit(tx: Tx, options: { actor: Actor; action: string; target?: string | null; details?: Prisma.InputJsonObject }): Promise<void> {
  await tx.auditEntry.create({
    data: {
      id: newId(),
      merchantId: options.actor.merchantId,
      userId: options.actor.userId,
      action: options.action,
      target: options.target ?? null,
      details: options.details ?? {},
    },
  });
}
