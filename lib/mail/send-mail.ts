// Mail for people (team invitations, "forgot password"), through nodemailer and the SMTP server of
// SMTP_URL. Without SMTP_URL a local service keeps the mail in LocalMail, shown at /backoffice/outbox
// (local only), so the flows work on a laptop; a production service refuses (MailNotConfiguredError),
// and the features that need mail say so instead of pretending to have sent something.
import nodemailer, { type Transporter } from "nodemailer";
import { db } from "../db";
import { config } from "../env";
import { newId } from "../ids";
import { log } from "../observability/logger";

export class MailNotConfiguredError extends Error {
  constructor() {
    super("mail is not configured: set SMTP_URL to send invitations and password-reset links");
    this.name = "MailNotConfiguredError";
  }
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const state = globalThis as unknown as { __cpsMailTransport?: { url: string; transport: Transporter } };

function transportFor(url: string): Transporter {
  if (state.__cpsMailTransport?.url !== url) {
    // A time-out on every stage: a mail server that hangs must not hold the person's request.
    state.__cpsMailTransport = { url, transport: nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 }) };
  }
  return state.__cpsMailTransport.transport;
}

/** True when mail can go somewhere: an SMTP server, or locally the kept outbox. */
export function mailAvailable(): boolean {
  return Boolean(config().SMTP_URL) || !config().isProduction;
}

/** How a mail went: "sent" (accepted by the SMTP server) or "kept" (local outbox). */
export async function sendMail(mail: Mail): Promise<"sent" | "kept"> {
  const url = config().SMTP_URL;
  if (url) {
    await transportFor(url).sendMail({ from: config().MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
    // The address, not the text: the text holds a single-use link.
    log("mail").info({ event: "mail.sent", subject: mail.subject }, `mail sent: ${mail.subject}`);
    return "sent";
  }
  if (config().isProduction) throw new MailNotConfiguredError();
  await db().localMail.create({ data: { id: newId(), to: mail.to, subject: mail.subject, text: mail.text }, select: { id: true } });
  return "kept";
}
