// Back office, a dispute's page: an owner or developer refutes or accepts an open dispute. The use
// case refuses a closed or past-due dispute with the reason, reads it fresh from the acquirer, sends
// the answer and audits it.
import { z } from "zod";
import type { Actor } from "../../auth/actor";
import { answerDispute } from "../../disputes/answer-dispute";
import type { ReportingAccessFor } from "../../routing/accounts/reporting-access";
import { assertMayAnswerDispute, disputeIdSchema, withDisputeErrors } from "./dispute-action";

const decideInput = z.object({
  disputeId: disputeIdSchema,
  decision: z.enum(["refute", "accept"], { error: "Choose refute or accept" }),
});

export async function decideDispute({
  actor,
  input,
  accessFor,
  now,
}: {
  actor: Actor;
  input: Record<string, string>;
  accessFor?: ReportingAccessFor;
  now?: Date;
}): Promise<{ decision: "refute" | "accept"; status: string }> {
  const { disputeId, decision } = decideInput.parse(input);
  await assertMayAnswerDispute(actor, disputeId);
  const { status } = await withDisputeErrors(() => answerDispute({ merchantId: actor.merchantId, disputeId, decision, userId: actor.userId, accessFor, now }));
  return { decision, status };
}
