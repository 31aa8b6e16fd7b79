// The link above a detail page's heading back to the list it belongs to (a breadcrumb of one).
import Link from "next/link";

export function BackLink({ href, children }: { href: string; children: string }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm">
      <Link href={href} className="text-indigo-700 hover:underline">
        ← {children}
      </Link>
    </nav>
  );
}
