// Back office, a dispute's page: an owner or developer writes a comment on an open dispute; the use
// case sends it to the acquirer and audits it with its text.
import { z } from "zod";
import type { Actor } from "../../auth/actor";
import { commentOnDispute } from "../../disputes/comment-on-dispute";
import { MAX_COMMENT_LENGTH } from "../../disputes/submit-dispute-evidence";
import type { ReportingAccessFor } from "../../routing/accounts/reporting-access";
import { assertMayAnswerDispute, disputeIdSchema, withDisputeErrors } from "./dispute-action";

const commentInput = z.object({
  disputeId: disputeIdSchema,
  comment: z.string().trim().min(1, "Write the comment first").max(MAX_COMMENT_LENGTH, `Use at most ${MAX_COMMENT_LENGTH} characters`),
});

export async function commentDispute({ actor, input, accessFor, now }: { actor: Actor; input: Record<string, string>; accessFor?: ReportingAccessFor; now?: Date }): Promise<void> {
  const { disputeId, comment } = commentInput.parse(input);
  await assertMayAnswerDispute(actor, disputeId);
  await withDisputeErrors(() => commentOnDispute({ merchantId: actor.merchantId, disputeId, comment, userId: actor.userId, accessFor, now }));
}
