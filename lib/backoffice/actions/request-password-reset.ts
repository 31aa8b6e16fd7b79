// "Forgot password" (issue 28): a reset link by mail, single-use and valid 30 minutes. The answer is
// the same whether or not the address has an account (no way to learn who has one), and at most
// three links per address per hour are sent (a mailbox is not a target). Needs mail (SMTP_URL in
// production: without it the page says to ask an owner).
import { z } from "zod";
import { db } from "../../db";
import { config } from "../../env";
import { newId } from "../../ids";
import { recordAuditEntry } from "../../audit/audit";
import { log } from "../../observability/logger";
import { sendMail } from "../../mail/send-mail";
import { TOKEN_LIFETIME_MS, newUserToken } from "../../users/user-tokens";

export const MAX_RESETS_PER_HOUR = 3;

export const requestPasswordResetInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address")),
});

export async function requestPasswordReset({ input, now = new Date() }: { input: unknown; now?: Date }): Promise<void> {
  const { email } = requestPasswordResetInput.parse(input);
  const user = await db().user.findUnique({ where: { email }, select: { id: true, merchantId: true } });
  if (!user) return;
  const recent = await db().userToken.count({
    where: { email, kind: "password_reset", createdAt: { gt: new Date(now.getTime() - 60 * 60_000) } },
  });
  if (recent >= MAX_RESETS_PER_HOUR) {
    log("auth").warn({ event: "password_reset.throttled" }, "password reset link not sent: the hourly limit for this address is reached");
    return;
  }
  const { token, tokenHash } = newUserToken();
  const id = newId();
  await db().$transaction(async (tx) => {
    await tx.userToken.create({
      data: { id, merchantId: user.merchantId, kind: "password_reset", email, tokenHash, userId: user.id, expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS.password_reset) },
      select: { id: true },
    });
    await recordAuditEntry(tx, { merchantId: user.merchantId, userId: user.id, action: "user.password_reset_requested", target: user.id });
  });
  try {
    await sendMail({
      to: email,
      subject: "Reset your Card Payment Service password",
      text: `Someone (we hope you) asked to reset the password of this back-office account.\n\nChoose a new password here (the link works once, for 30 minutes):\n${config().backofficeBaseUrl}/backoffice/reset-password/${token}\n\nIf it was not you, ignore this mail: your password stays as it is.`,
    });
  } catch (error) {
    await db().userToken.update({ where: { id }, data: { usedAt: new Date() }, select: { id: true } });
    // Logged, not shown: the answer must not differ for addresses that have an account.
    log("auth").error({ event: "password_reset.mail_failed" }, `password reset mail not sent: ${error instanceof Error ? error.message : "mail error"}`);
  }
}
