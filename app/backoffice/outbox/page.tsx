import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { db } from "@/lib/db";
import { config } from "@/lib/env";
import { mayReadLocalOutbox } from "@/lib/mail/local-outbox-access";
import { PublicCard } from "../mail-link-layout";

export const metadata: Metadata = { title: "Local outbox" };
export const dynamic = "force-dynamic";

// The mails a local service without SMTP_URL kept instead of sending (lib/mail/send-mail.ts): local
// only, never in production (they hold single-use links), and only for the developer's own browser
// (lib/mail/local-outbox-access.ts: a loopback client naming a loopback host). Anyone else gets the
// same 404 as in production.
export default async function OutboxPage() {
  if (config().isProduction || config().SMTP_URL || !mayReadLocalOutbox(await headers())) notFound();
  const mails = await db().localMail.findMany({ orderBy: { createdAt: "desc" }, take: 50 });
  return (
    <PublicCard title="Local outbox">
      <p className="mb-4 text-sm text-slate-600">Mails this local service kept instead of sending (no SMTP_URL is set).</p>
      {mails.length === 0 ? <p className="text-sm text-slate-600">No mail yet.</p> : null}
      <ul className="space-y-4" aria-label="Kept mails">
        {mails.map((mail) => (
          <li key={mail.id} className="space-y-1" data-testid="kept-mail">
            <p className="text-sm font-medium text-slate-900">{mail.subject}</p>
            <p className="text-xs text-slate-500">
              To {mail.to} · {mail.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC
            </p>
            <pre className="whitespace-pre-wrap break-all rounded bg-slate-100 p-2 text-xs">{mail.text}</pre>
          </li>
        ))}
      </ul>
    </PublicCard>
  );
}
