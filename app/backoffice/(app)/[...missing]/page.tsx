// Any /backoffice/... address no page matches: the back office's own 404 (in the shell, after the
// sign-in check of the layout), rather than the site's bare one.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Page not found" };
export const dynamic = "force-dynamic";

export default async function MissingBackofficePage(): Promise<never> {
  await requireUser();
  notFound();
}
