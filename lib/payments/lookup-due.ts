// Which operations of unknown outcome are due for a look-up: the settler
// (settle-unknown-operation.ts) sets nextLookupAt as it backs off; the rounds that call it
// (finish-stuck-payments, reconcile-indeterminate-operations) take those whose time has come.
import type { Prisma } from "../db";

/** Never scheduled, or scheduled at `now` or before. */
export function lookupDue(now: Date): Prisma.OperationWhereInput {
  return { OR: [{ nextLookupAt: null }, { nextLookupAt: { lte: now } }] };
}
