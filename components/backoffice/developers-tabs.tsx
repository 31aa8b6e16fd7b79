"use client";
// The two views of Developers (as Stripe's Logs and Events): marks the current one.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

const TABS = [
  { href: "/backoffice/developers/logs", label: "API requests" },
  { href: "/backoffice/developers/notifications", label: "Notifications" },
];

export function DevelopersTabs() {
  const pathname = usePathname();
  return (
    <nav aria-label="Developers" className="mb-6 flex gap-1 border-b border-slate-200">
      {TABS.map((tab) => {
        const current = pathname === tab.href || pathname.startsWith(`${tab.href}/`);
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={current ? "page" : undefined}
            className={cn(
              "-mb-px border-b-2 px-3 py-2 text-sm font-medium",
              current ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900",
            )}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
