// What an acquirer module hands us for a dispute, checked again at our door (zod at every boundary):
// a module that maps an answer wrongly must fail loudly here, never store a wrong amount or date.
import { z } from "zod";
import { DISPUTE_KINDS, DISPUTE_STATUSES, type AcquirerDispute } from "../acquirers/contract";

/** YYYY-MM-DD, a real day. */
export const calendarDateSchema = z.iso.date();

export const acquirerDisputeSchema = z.object({
  disputeId: z.string().min(1).max(200),
  transactionId: z.string().min(1).max(200).optional(),
  reference: z.string().max(200).optional(),
  kind: z.enum(DISPUTE_KINDS),
  status: z.enum(DISPUTE_STATUSES),
  reasonCode: z.string().max(50),
  reason: z.string().max(200),
  amount: z.bigint().nonnegative(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  partial: z.boolean(),
  openedOn: calendarDateSchema,
  dueOn: calendarDateSchema.optional(),
  expiresOn: calendarDateSchema.optional(),
  answers: z.array(z.enum(["refute", "accept"])).readonly(),
}) satisfies z.ZodType<AcquirerDispute>;
