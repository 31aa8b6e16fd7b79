// What the Disputes page's three actions share (upload-dispute-evidence.ts, comment-dispute.ts,
// decide-dispute.ts): the role (owners and developers, as for payment operations, limited in live
// mode by the owner's setting), the dispute checked to be the merchant's of the mode shown (the
// dispute use cases scope by merchant only), and their refusals said as sentences on the form.
import { z } from "zod";
import { ReportingApiError } from "../../acquirers/contract";
import { assertCan, NotFoundError, type Actor } from "../../auth/actor";
import { db } from "../../db";
import { ApiError } from "../../errors";
import { UserFacingError } from "../action-result";

export const disputeIdSchema = z.string().regex(/^[A-Za-z0-9]{1,32}$/, "Unknown dispute");

/** The actor may answer disputes, and `disputeId` is one of their merchant's disputes of the mode shown. */
export async function assertMayAnswerDispute(actor: Actor, disputeId: string): Promise<void> {
  assertCan(actor, "payments:write");
  const found = await db().dispute.findFirst({ where: { id: disputeId, merchantId: actor.merchantId, mode: actor.mode }, select: { id: true } });
  if (!found) throw new NotFoundError("Dispute");
}

const FIELDS = new Set(["files", "comment", "decision"]);

/**
 * Runs a dispute use case and says its refusals for people: a rule's refusal ("dispute: its due date
 * … has passed") as the sentence without the parameter, on its field when the form has one; a
 * failure of the acquirer's API as such (the gateway has recorded it on the account).
 */
export async function withDisputeErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.code === "INVALID_PARAMETER") {
      const [, parameter = "", reason = error.message] = /^([a-z]+): (.*)$/s.exec(error.message) ?? [];
      // A file's refusal starts with the file's name, kept as it is; any other reason starts a sentence.
      const named = parameter === "files" && reason.includes(": ");
      const sentence = `${named ? reason : `${reason.charAt(0).toUpperCase()}${reason.slice(1)}`}.`.replace(/\.\.$/, ".");
      throw new UserFacingError(sentence, FIELDS.has(parameter) ? { field: parameter } : {});
    }
    if (error instanceof ReportingApiError)
      throw new UserFacingError(
        `The acquirer did not take it: ${error.credentialsRefused ? "it refused the account's reporting credentials" : error.message}. Nothing is recorded as answered; try again later, or check the account's reporting API under Settings → Acquirer accounts.`,
      );
    throw error;
  }
}
