"use server";
// The mode switch of every back-office page (components/backoffice/mode-switch.tsx).
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { config } from "@/lib/env";
import { modeSchema } from "@/lib/mode";
import { MODE_COOKIE, requireActor } from "@/lib/auth/session";
import { modeSwitchTarget } from "@/lib/backoffice/mode-switch";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export async function switchModeAction(formData: FormData): Promise<void> {
  await requireActor(); // signed in (and account set up): the choice is only a view, but only users make it
  const mode = modeSchema.parse(formData.get("mode"));
  (await cookies()).set(MODE_COOKIE, mode, {
    httpOnly: true,
    sameSite: "lax",
    path: "/backoffice",
    secure: config().backofficeBaseUrl.startsWith("https://"),
    maxAge: ONE_YEAR_SECONDS,
  });
  redirect(modeSwitchTarget(String(formData.get("back") ?? "")));
}
