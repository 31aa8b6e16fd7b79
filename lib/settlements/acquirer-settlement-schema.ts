// What an acquirer module hands us for a settlement and its lines, checked again at our door (zod
// at every boundary): a wrongly mapped figure fails here instead of being reconciled.
import { z } from "zod";
import type { AcquirerSettlement, AcquirerSettlementLine } from "../acquirers/contract";
import { calendarDateSchema } from "../disputes/acquirer-dispute-schema";
import { SETTLEMENT_LINE_TYPES } from "./line-types";

const currency = z.string().regex(/^[A-Z]{3}$/);

export const acquirerSettlementSchema = z.object({
  settlementId: z.string().min(1).max(200),
  settled: z.boolean(),
  currency,
  periodStart: calendarDateSchema,
  periodEnd: calendarDateSchema,
  payout: z.object({ amount: z.bigint(), date: calendarDateSchema, reference: z.string().max(200).optional(), cancelledOn: calendarDateSchema.optional() }).optional(),
  reserve: z.object({ amount: z.bigint(), date: calendarDateSchema.optional(), reference: z.string().max(200).optional() }).optional(),
  summary: z.object({
    sales: z.bigint(),
    credits: z.bigint(),
    refunds: z.bigint(),
    chargebacks: z.bigint(),
    fees: z.bigint(),
    otherPostings: z.bigint(),
    net: z.bigint(),
  }),
  fees: z.record(z.string().max(100), z.bigint()),
  otherPostings: z.array(z.object({ date: calendarDateSchema, text: z.string().max(500), amount: z.bigint() })).readonly(),
}) satisfies z.ZodType<AcquirerSettlement>;

export const acquirerSettlementLineSchema = z.object({
  transactionId: z.string().min(1).max(200),
  type: z.enum(SETTLEMENT_LINE_TYPES),
  reference: z.string().max(200).optional(),
  amount: z.bigint(),
  currency,
  processedAt: z.date(),
  settled: z.object({ gross: z.bigint(), fees: z.bigint(), net: z.bigint(), currency }).optional(),
}) satisfies z.ZodType<AcquirerSettlementLine>;
