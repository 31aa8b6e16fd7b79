// The merchant API's disputes (beyond the spec; issue 40): list, one, evidence, decision. Requests
// and answers in the spec's style (lower-case names, every field present, "" when unknown, amounts
// as strings of minor units as in 2.3), the dispute itself as its notification says it
// (notifications.ts, docs/decisions/0200-the-dispute-notification-body.md) plus what only a read
// shows. Evidence travels as multipart/form-data (docs/decisions/0202-dispute-evidence-as-multipart.md).
import { z } from "zod";
import { merchantIdSchema, paymentIdSchema } from "./common";
import { disputeNotificationSchema } from "./notifications";

const DISPUTE_STATUS_VALUES = ["open", "under-review", "refuted", "accepted", "won", "lost"] as const;
export type DisputeStatusValue = (typeof DISPUTE_STATUS_VALUES)[number];

/** What a dispute id of ours can look like (lib/ids.ts makes 32 hexadecimal characters); anything else names no dispute. */
export const DISPUTE_ID = /^[a-zA-Z0-9]{1,64}$/;

const merchantid = merchantIdSchema.describe("Your merchant id; when sent, it must be the API key's merchant.").optional();

/** GET /api/disputes: the query. */
export const listDisputesRequestSchema = z.strictObject({
  merchantid,
  status: z
    .string({ error: "must be a string" })
    .transform((value, context) => {
      const statuses = value.split(",").map((item) => item.trim()).filter(Boolean);
      const unknown = statuses.filter((item) => !(DISPUTE_STATUS_VALUES as readonly string[]).includes(item));
      if (statuses.length === 0 || unknown.length > 0) {
        context.addIssue({ code: "custom", message: `must be one or more of ${DISPUTE_STATUS_VALUES.join(", ")}, separated by commas` });
        return z.NEVER;
      }
      return statuses as DisputeStatusValue[];
    })
    .describe(`Only disputes in these statuses, comma-separated (${DISPUTE_STATUS_VALUES.join(", ")}); absent: all.`)
    .optional(),
  paymentid: paymentIdSchema.describe("Only the disputes of this payment: its paymentid or your merchantpaymentid.").optional(),
  limit: z
    .string({ error: "must be a string" })
    .regex(/^[0-9]{1,3}$/, "must be 1 to 100")
    .transform(Number)
    .refine((value) => value >= 1 && value <= 100, "must be 1 to 100")
    .describe("At most this many disputes, 1 to 100. Default: 100.")
    .optional(),
});

/** One dispute as the merchant API shows it. */
export const disputeSchema = disputeNotificationSchema.omit({ event: true }).extend({
  decision: z.enum(["", "refute", "accept"]).describe("Your answer through this service (API or back office); empty when none yet."),
  evidencefiles: z.number().int().describe("Evidence files stored for it (sent or not)."),
  updated: z.string().describe("When it last changed here, UTC, YYYY-MM-DD HH:MM:SS."),
});
export type DisputeBody = z.infer<typeof disputeSchema>;

/** GET /api/disputes: open disputes first by due date, then the others newest first. */
export const disputeListResponseSchema = z.object({
  disputes: z.array(disputeSchema).describe("Those still to answer first (earliest due date first), then the rest, newest first."),
});

/** GET /api/disputes/{disputeid}: only merchantid may be sent. */
export const getDisputeRequestSchema = z.strictObject({ merchantid });

/**
 * POST /api/disputes/{disputeid}/evidence, as multipart/form-data: one or more parts named `files`
 * (each with its file name and Content-Type), and optional text fields.
 */
export const disputeEvidenceRequestSchema = z.strictObject({
  merchantid,
  files: z
    .array(z.instanceof(File, { error: "must be a file part" }), { error: "at least one part named files is required" })
    .min(1, "at least one part named files is required"),
  comment: z.string({ error: "must be text" }).max(5000, "must be at most 5000 characters").optional(),
});

export const disputeEvidenceResponseSchema = z.object({
  disputeid: z.string().describe("The dispute."),
  evidenceids: z.array(z.string()).describe("The stored evidence files, in the order sent; each reached the acquirer."),
});

/** POST /api/disputes/{disputeid}/decision. */
export const disputeDecisionRequestSchema = z.strictObject({
  merchantid,
  decision: z
    .enum(["refute", "accept"], { error: "must be refute or accept" })
    .describe("refute: contest it with the evidence sent before; accept: give up the amount. Final at the acquirer."),
});
