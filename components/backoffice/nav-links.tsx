"use client";
// The back-office menu; marks the current page for screen readers and sighted users alike.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

export interface NavItem {
  href: string;
  label: string;
}

export function NavLinks({ sections }: { sections: { title?: string; items: NavItem[] }[] }) {
  const pathname = usePathname();
  const isCurrent = (href: string) => (href === "/backoffice" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <nav aria-label="Back office" className="flex flex-col gap-5">
      {sections.map((section, index) => (
        <div key={section.title ?? index}>
          {section.title ? <p className="px-3 text-xs font-semibold uppercase tracking-wide text-slate-400">{section.title}</p> : null}
          <ul className="mt-1 space-y-0.5">
            {section.items.map((item) => (
              <li key={item.href}>
                <Link
                  href={item.href}
                  aria-current={isCurrent(item.href) ? "page" : undefined}
                  className={cn(
                    "block rounded-md px-3 py-1.5 text-sm font-medium",
                    isCurrent(item.href) ? "bg-slate-800 text-white" : "text-slate-300 hover:bg-slate-800/60 hover:text-white",
                  )}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
