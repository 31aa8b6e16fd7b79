// Inside the back office (an unknown address under /backoffice, a payment or integration that does
// not exist or belongs to another merchant, a page the role may not open): the 404 in the shell,
// with the navigation still there.
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

export default function BackofficeNotFound() {
  return (
    <Card>
      <div className="py-8 text-center">
        <p className="text-sm font-semibold text-indigo-700">404</p>
        <h1 className="mt-1 text-xl font-semibold tracking-tight">Page not found</h1>
        <p className="mt-2 text-sm text-slate-600">Nothing here: the address is wrong, or what it points to does not exist in this account.</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link className={buttonClass("primary")} href="/backoffice">
            Overview
          </Link>
          <Link className={buttonClass("secondary")} href="/backoffice/payments">
            Payments
          </Link>
        </div>
      </div>
    </Card>
  );
}
