import type { ReactNode } from "react";
import { requireUser } from "@/lib/auth/session";
import { AppShell } from "@/components/backoffice/app-shell";
import { switchModeAction } from "./mode-actions";

export const dynamic = "force-dynamic";

// Every page below also calls requireUser() itself: a layout is not re-run on every navigation.
export default async function BackofficeLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  return (
    <AppShell user={user} switchMode={switchModeAction}>
      {children}
    </AppShell>
  );
}
