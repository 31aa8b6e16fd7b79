// The wire shapes of the Inngest SDK's serve endpoint that the executor reads (SDK 4.24; see
// ../shared/notes/inngest-protocol.md). Parsed with zod so that an SDK change fails loudly.
import { z } from "zod";

export const serializedErrorSchema = z
  .object({ name: z.string().optional(), message: z.string().optional(), stack: z.string().optional() })
  .passthrough();
export type SerializedError = z.infer<typeof serializedErrorSchema>;

export const outgoingOpSchema = z
  .object({
    id: z.string().min(1),
    op: z.string(),
    name: z.string().optional(),
    displayName: z.string().optional(),
    opts: z.record(z.string(), z.unknown()).nullish(),
    userland: z.object({ id: z.string(), index: z.number().optional() }).optional(),
    data: z.unknown().optional(),
    error: z.unknown().optional(),
  })
  .passthrough();
export type OutgoingOp = z.infer<typeof outgoingOpSchema>;

/** A 206 body: usually an array of ops, sometimes one op. */
export const opsBodySchema = z.array(outgoingOpSchema).or(outgoingOpSchema.transform((op) => [op]));

const triggerSchema = z.union([z.object({ event: z.string(), expression: z.string().optional() }), z.object({ cron: z.string() })]);

/** One function of an in-band sync answer. */
export const syncedFunctionSchema = z
  .object({
    id: z.string(),
    name: z.string().optional(),
    triggers: z.array(triggerSchema).default([]),
    idempotency: z.string().optional(),
    concurrency: z.unknown().optional(),
    cancel: z.unknown().optional(),
    steps: z.record(z.string(), z.object({ retries: z.object({ attempts: z.number().int().min(0) }).optional() }).passthrough()),
  })
  .passthrough();
export type SyncedFunction = z.infer<typeof syncedFunctionSchema>;

export const inBandSyncResponseSchema = z.object({ app_id: z.string().optional(), functions: z.array(syncedFunctionSchema) }).passthrough();

/** The body of a call request (the fields the SDK reads). */
export interface CallRequestBody {
  event: Record<string, unknown>;
  events: Record<string, unknown>[];
  steps: Record<string, unknown>;
  ctx: {
    run_id: string;
    attempt: number;
    max_attempts: number;
    disable_immediate_execution: boolean;
    use_api: false;
    stack: { stack: string[]; current: number };
  };
  version: number;
}
