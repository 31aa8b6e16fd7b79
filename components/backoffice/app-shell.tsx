// The frame of every signed-in back-office page: a side menu on wide screens, a collapsible menu
// on phones (a <details> element: works without JavaScript and is keyboard-accessible), the mode
// switch, and a banner across the top in test mode.
import Link from "next/link";
import type { ReactNode } from "react";
import { ROLE_LABELS, roleCan, type Permission } from "@/lib/auth/roles";
import type { SessionUser } from "@/lib/auth/session";
import { NavLinks } from "./nav-links";
import { ModeSwitch, TestModeBanner } from "./mode-switch";
import { SignOutButton } from "./sign-out-button";

const SECTIONS: { title?: string; items: { href: string; label: string; permission?: Permission }[] }[] = [
  {
    items: [
      { href: "/backoffice", label: "Overview" },
      { href: "/backoffice/payments", label: "Payments" },
      { href: "/backoffice/disputes", label: "Disputes" },
      { href: "/backoffice/settlements", label: "Settlements" },
      { href: "/backoffice/developers", label: "Developers" },
    ],
  },
  {
    title: "Settings",
    items: [
      { href: "/backoffice/settings/api-key", label: "API-key" },
      { href: "/backoffice/settings/notifications", label: "Notification URLs" },
      { href: "/backoffice/settings/hosted", label: "Hosted integrations" },
      { href: "/backoffice/settings/payouts", label: "Payouts" },
      { href: "/backoffice/settings/team", label: "Team" },
      { href: "/backoffice/settings/acquirer-accounts", label: "Acquirer accounts", permission: "acquirer_accounts:write" },
    ],
  },
  {
    title: "Activity",
    items: [
      { href: "/backoffice/audit-log", label: "Audit log" },
      { href: "/backoffice/account", label: "Your account" },
    ],
  },
];

/** The menu without the pages the user's role cannot open (they answer not-found). */
function sectionsFor(user: SessionUser) {
  return SECTIONS.map((section) => ({
    ...section,
    items: section.items.filter((item) => !item.permission || roleCan(user.role, item.permission)),
  }));
}

function Brand() {
  return (
    <Link href="/backoffice" className="flex items-center gap-2 text-white">
      <span aria-hidden className="grid h-7 w-7 place-items-center rounded-md bg-indigo-500 text-xs font-bold">
        CPS
      </span>
      <span className="text-sm font-semibold">Card Payment Service</span>
    </Link>
  );
}

function UserBox({ user }: { user: SessionUser }) {
  return (
    <div className="border-t border-slate-800 pt-4 text-sm">
      <p className="truncate font-medium text-white">{user.name}</p>
      <p className="truncate text-slate-400">{user.email}</p>
      <p className="mt-1 text-xs text-slate-400">
        {user.merchantName} · {ROLE_LABELS[user.role]}
      </p>
      <div className="mt-2">
        <SignOutButton />
      </div>
    </div>
  );
}

function ModeBox({ user, switchMode }: { user: SessionUser; switchMode: (formData: FormData) => Promise<void> }) {
  return (
    <div className="border-t border-slate-800 pt-4">
      <ModeSwitch mode={user.mode} action={switchMode} />
    </div>
  );
}

export function AppShell({
  user,
  switchMode,
  children,
}: {
  user: SessionUser;
  /** The mode switch's server action (app/backoffice/(app)/mode-actions.ts). */
  switchMode: (formData: FormData) => Promise<void>;
  children: ReactNode;
}) {
  return (
    <>
      <TestModeBanner mode={user.mode} />
      <div className="min-h-screen lg:flex">
        <a
          href="#content"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-semibold focus:text-indigo-700 focus:shadow"
        >
          Skip to content
        </a>
        <aside className="hidden w-60 shrink-0 flex-col gap-6 bg-slate-900 px-3 py-5 lg:sticky lg:top-0 lg:flex lg:h-screen">
          <div className="px-3">
            <Brand />
          </div>
          <div className="flex-1 overflow-y-auto">
            <NavLinks sections={sectionsFor(user)} />
          </div>
          <div className="space-y-4 px-3">
            <ModeBox user={user} switchMode={switchMode} />
            <UserBox user={user} />
          </div>
        </aside>
        <details className="group bg-slate-900 px-4 py-3 lg:hidden">
          <summary className="flex cursor-pointer list-none items-center justify-between">
            <Brand />
            <span className="rounded-md px-2 py-1 text-sm font-medium text-slate-200 ring-1 ring-slate-700">Menu</span>
          </summary>
          <div className="mt-4 space-y-4 pb-2">
            <NavLinks sections={sectionsFor(user)} />
            <ModeBox user={user} switchMode={switchMode} />
            <UserBox user={user} />
          </div>
        </details>
        <main id="content" className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-8">
          {children}
        </main>
      </div>
    </>
  );
}
